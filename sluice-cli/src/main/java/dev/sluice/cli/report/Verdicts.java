package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.Outcome;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Judges each classic claim by one rule ({@link #RULE}). Every claim is written as "the speed of A over the speed of
 * B is k" with the seed's own number k (k = 1 for "as fast as" and "pointless" claims); the measured ratio is the
 * median of the paired per-round ratios of A over B (the geometric mean of those medians when the claim spans
 * several sizes), with a 95% bootstrap interval ({@link Bootstrap}). Where a side is "the best of" several variants,
 * it is the one with the highest median speed. Variant names are the runner's (sluice-bench's experiments classes).
 */
final class Verdicts {
    private Verdicts() {}

    /** The one rule, as the report states it. */
    static final String RULE = "Each claim is a ratio k of A's speed over B's (k = 1 for 'as fast as'). Threshold "
            + "t = 0.95 × (1 + (k − 1) / 2): half the claimed advantage, less 5% so that an 'as fast as' claim allows "
            + "5%. Held when the whole 95% interval of the measured ratio is at or above t; did not hold when the "
            + "whole interval is below t; inconclusive here otherwise.";

    static List<Verdict> judge(String experiment, List<Result> results, String reads) {
        Table t = new Table(results);
        switch (experiment) {
            case "E1": return List.of(e1(t, reads));
            case "E2": return List.of(e2Buffers(t, reads), e2Arrays(t, reads));
            case "E3": return List.of(e3(t, reads));
            case "E4": return List.of(e4(t, reads));
            case "E5": return List.of(e5(t, reads));
            case "E6": return List.of(e6(t, reads));
            case "E7": return List.of(e7(t, reads));
            default: return List.of();
        }
    }

    /** The threshold of the one rule for a claimed ratio k. */
    static double threshold(double claimedRatio) {
        return 0.95 * (1 + (claimedRatio - 1) / 2);
    }

    /** Where an interval lies against the threshold. */
    static Outcome outcome(double lo, double hi, double threshold) {
        if (Double.isNaN(lo) || Double.isNaN(hi)) {
            return Outcome.INCONCLUSIVE;
        }
        return lo >= threshold ? Outcome.HELD : hi < threshold ? Outcome.DID_NOT_HOLD : Outcome.INCONCLUSIVE;
    }

    /**
     * The verdict on a claim whose ratio is formed by {@code ratios} (one grid per size it spans; empty when a side
     * was not measured).
     */
    static Verdict ratioVerdict(String claim, double k, String claimedText, List<double[][]> ratios, String what,
                                String reads) {
        double th = threshold(k);
        String rule = String.format(Locale.ROOT, "%s; held if the whole interval is at or above %.2fx", what, th);
        if (ratios.isEmpty()) {
            return new Verdict(claim, Outcome.INCONCLUSIVE, claimedText, k, round(th), null, null, reads, rule,
                    "Not measured in this run: " + what + ".");
        }
        Bootstrap.Estimate e = Bootstrap.estimate(ratios, Bootstrap.RESAMPLES, Bootstrap.SEED);
        Outcome o = outcome(e.lo(), e.hi(), th);
        String summary = String.format(Locale.ROOT, "claimed %s, measured %s [%s, %s] (%s)", claimedText,
                x(e.value()), x(e.lo()), x(e.hi()), what);
        return new Verdict(claim, o, claimedText, k, round(th), round(e.value()),
                new double[] {round(e.lo()), round(e.hi())}, reads, rule, summary);
    }

    /** "4.6x", "1.08x". */
    static String x(double r) {
        return String.format(Locale.ROOT, r >= 10 ? "%.1fx" : "%.2fx", r);
    }

    // E1 -----------------------------------------------------------------------------------------------------------
    static final String E1_JDK = "JDK Buffered*Stream";
    /** A bulk read loop: a reference line on the charts, never a side of the claim nor a recommendation. */
    static final String E1_PLAIN = "plain 8 KiB array";

    static Verdict e1(Table t, String reads) {
        String claim = "Byte-at-a-time copy through BufferedInputStream/BufferedOutputStream is ~3x slower than "
                + "through unsynchronized buffered streams.";
        Result jdk = t.get(E1_JDK, "copy");
        Result best = t.best("copy", v -> !v.equals(E1_JDK) && !v.equals(E1_PLAIN));
        return ratioVerdict(claim, 3, "~3x", pairs(best, jdk), "fastest unsynchronized buffered stream ("
                + (best == null ? "none" : best.variant()) + ") over JDK buffered streams, byte-at-a-time copy", reads);
    }

    // E2 -----------------------------------------------------------------------------------------------------------
    static final String E2_JDK = "JDK buffer ";

    /** Buffer size in bytes from a variant name like "JDK buffer 64 KiB", or -1. */
    static long bufferOf(String variant) {
        int i = variant.lastIndexOf("buffer ");
        return i < 0 ? -1 : parseSize(variant.substring(i + 7));
    }

    /** Array size from "array 512 B", or -1. */
    static long arrayOf(String param) {
        return param.startsWith("array ") ? parseSize(param.substring(6)) : -1;
    }

    static long parseSize(String s) {
        String[] parts = s.trim().split(" ");
        if (parts.length != 2) {
            return -1;
        }
        try {
            long n = Long.parseLong(parts[0]);
            switch (parts[1]) {
                case "B": return n;
                case "KiB": return n << 10;
                case "MiB": return n << 20;
                case "KB": return n * 1000;
                case "MB": return n * 1_000_000;
                default: return -1;
            }
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static Verdict e2Buffers(Table t, String reads) {
        String claim = "Buffers larger than 2 KiB are pointless.";
        List<double[][]> ratios = new ArrayList<>();
        for (String param : t.params()) {
            long array = arrayOf(param);
            if (array <= 0 || array > 1024) {
                continue;
            }
            Result small = t.best(param, v -> v.startsWith(E2_JDK) && bufferOf(v) > 0 && bufferOf(v) <= 2048);
            Result large = t.best(param, v -> v.startsWith(E2_JDK) && bufferOf(v) > 2048);
            ratios.addAll(pairs(small, large));
        }
        return ratioVerdict(claim, 1, "as fast", ratios, "best JDK buffer of at most 2 KiB over the best larger one, "
                + "reads of up to 1 KiB, geometric mean over " + ratios.size() + " read sizes", reads);
    }

    static Verdict e2Arrays(Table t, String reads) {
        String claim = "Destination arrays of 512-1024 bytes are safe (as fast as larger ones).";
        String variant = E2_JDK + "8 KiB";
        Result mid = t.best(p -> arrayOf(p) == 512 || arrayOf(p) == 1024, variant);
        Result larger = t.best(p -> arrayOf(p) > 1024, variant);
        return ratioVerdict(claim, 1, "as fast", pairs(mid, larger), "better of 512 B and 1 KiB arrays over the best "
                + "larger array, through an 8 KiB BufferedInputStream", reads);
    }

    // E3 -----------------------------------------------------------------------------------------------------------
    static Verdict e3(Table t, String reads) {
        String claim = "For small files, FileChannel.open + Channels.newInputStream is 30-40% faster than FileInputStream.";
        List<double[][]> ratios = new ArrayList<>();
        for (String param : t.params()) {
            long size = param.startsWith("file ") ? parseSize(param.substring(5)) : -1;
            if (size >= 0 && size <= 4096) {
                ratios.addAll(pairs(t.get("FileChannel.open + Channels.newInputStream", param),
                        t.get("FileInputStream", param)));
            }
        }
        return ratioVerdict(claim, 1.3, "30-40% faster", ratios, "channel stream over FileInputStream, files of 4 KiB "
                + "and less, geometric mean over " + ratios.size() + " sizes", reads);
    }

    // E4 -----------------------------------------------------------------------------------------------------------
    static final List<String> E4_JDK = List.of("InputStreamReader(FileInputStream)", "Files.newBufferedReader",
            "Channels.newReader");

    static Verdict e4(Table t, String reads) {
        String claim = "Channels.newReader is the fastest way to read a text file.";
        List<double[][]> ratios = new ArrayList<>();
        for (String param : t.params()) {
            ratios.addAll(pairs(t.get("Channels.newReader", param),
                    t.best(param, v -> E4_JDK.contains(v) && !v.equals("Channels.newReader"))));
        }
        return ratioVerdict(claim, 1, "fastest", ratios, "Channels.newReader over the better other JDK reader, "
                + "geometric mean over " + ratios.size() + " corpus/size cells", reads);
    }

    // E5 -----------------------------------------------------------------------------------------------------------
    static Verdict e5(Table t, String reads) {
        String claim = "Give GZIPInputStream a 64 KiB buffer and no BufferedInputStream underneath.";
        Result k64 = t.get("GZIPInputStream 64 KiB buffer", "strategies");
        Result other = t.best("strategies", v -> v.equals("GZIPInputStream (512 B default)")
                || v.equals("GZIPInputStream over BufferedInputStream"));
        return ratioVerdict(claim, 1, "fastest", pairs(k64, other), "64 KiB buffer over the better of the 512 B "
                + "default and the default over a BufferedInputStream", reads);
    }

    // E6 -----------------------------------------------------------------------------------------------------------
    static Verdict e6(Table t, String reads) {
        String claim = "Polling available() every 512 bytes makes BufferedInputStream ~8x slower than a stream "
                + "whose available() is O(1) (17 s vs 2 s).";
        return ratioVerdict(claim, 17.0 / 2, "8.5x", pairs(t.get("BufferedInputStream + O(1) available()", "every 512 B"),
                t.get("JDK BufferedInputStream", "every 512 B")), "O(1) available() over BufferedInputStream, "
                + "polling every 512 B", reads);
    }

    // E7 -----------------------------------------------------------------------------------------------------------
    static Verdict e7(Table t, String reads) {
        String claim = "An 8 KiB copy buffer is ~30% faster than a 4 KiB one.";
        return ratioVerdict(claim, 1.3, "~30% faster", pairs(t.get("loop 8 KiB", "copy"), t.get("loop 4 KiB", "copy")),
                "8 KiB over 4 KiB read/write loop, copies to new files", reads);
    }

    // helpers -------------------------------------------------------------------------------------------------------

    /** The paired ratio grid of a over b, or nothing when either side was not measured. */
    static List<double[][]> pairs(Result a, Result b) {
        return a == null || b == null || a == b ? List.of() : java.util.Collections.singletonList(Paired.ratio(a, b));
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }

    static double geomean(List<Double> xs) {
        double s = 0;
        for (double v : xs) {
            s += Math.log(v);
        }
        return Math.exp(s / xs.size());
    }

    static double round(double v) {
        return Report.Stats.round(v);
    }

    /** The measured results by variant and param. */
    static final class Table {
        private final List<Result> results;

        Table(List<Result> results) {
            this.results = results;
        }

        Result get(String variant, String param) {
            for (Result r : results) {
                if (r.measured() && r.variant().equals(variant) && r.param().equals(param)) {
                    return r;
                }
            }
            return null;
        }

        /** The result with the highest median speed at {@code param} among the variants matching, or null. */
        Result best(String param, Predicate<String> variants) {
            return best(r -> r.param().equals(param) && variants.test(r.variant()));
        }

        /** The result of {@code variant} with the highest median speed over the params matching, or null. */
        Result best(Predicate<String> params, String variant) {
            return best(r -> r.variant().equals(variant) && params.test(r.param()));
        }

        private Result best(Predicate<Result> which) {
            Result best = null;
            for (Result r : results) {
                if (r.measured() && which.test(r) && (best == null || r.mbPerSec().median() > best.mbPerSec().median())) {
                    best = r;
                }
            }
            return best;
        }

        /** The measured results at {@code param}, fastest first. */
        List<Result> ranked(String param, Predicate<String> variants) {
            List<Result> out = new ArrayList<>();
            for (Result r : results) {
                if (r.measured() && r.param().equals(param) && variants.test(r.variant())) {
                    out.add(r);
                }
            }
            out.sort((a, b) -> Double.compare(b.mbPerSec().median(), a.mbPerSec().median()));
            return out;
        }

        Set<String> params() {
            Set<String> s = new LinkedHashSet<>();
            for (Result r : results) {
                s.add(r.param());
            }
            return s;
        }

        List<Result> results() {
            return results;
        }
    }
}
