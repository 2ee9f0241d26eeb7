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
 * Judges each classic claim against the medians measured here. One rule for "A is k times faster than B" claims:
 * the claim holds when the measured ratio reaches at least half the claimed advantage ({@code 1 + (k - 1) / 2}),
 * so a claimed 3x holds from 2x and a claimed 30% from 15%; the summary always gives the measured number, so a
 * reader can apply a stricter rule. Variant names are the runner's (sluice-bench's experiments classes).
 */
final class Verdicts {
    private Verdicts() {}

    static List<Verdict> judge(String experiment, List<Result> results) {
        Table t = new Table(results);
        switch (experiment) {
            case "E1": return List.of(e1(t));
            case "E2": return List.of(e2Buffers(t), e2Arrays(t));
            case "E3": return List.of(e3(t));
            case "E4": return List.of(e4(t));
            case "E5": return List.of(e5(t));
            case "E6": return List.of(e6(t));
            case "E7": return List.of(e7(t));
            default: return List.of();
        }
    }

    /** The threshold of the half-the-claimed-advantage rule. */
    static double threshold(double claimedRatio) {
        return 1 + (claimedRatio - 1) / 2;
    }

    static Verdict ratioVerdict(String claim, double claimedRatio, String claimedText, Double measured, String what) {
        double th = threshold(claimedRatio);
        String rule = String.format(Locale.ROOT, "holds if the ratio is at least %.2fx (half the claimed advantage)", th);
        if (measured == null) {
            return inconclusive(claim, claimedText, rule, what);
        }
        Outcome o = measured >= th ? Outcome.HELD : Outcome.DID_NOT_HOLD;
        String summary = String.format(Locale.ROOT, "%s: %s here (claimed %s).", what, ratio(measured), claimedText);
        return new Verdict(claim, o, claimedText, round(measured), rule, summary);
    }

    static Verdict inconclusive(String claim, String claimed, String rule, String missing) {
        return new Verdict(claim, Outcome.INCONCLUSIVE, claimed, null, rule, "Not measured in this run: " + missing + ".");
    }

    // E1 -----------------------------------------------------------------------------------------------------------
    static final String E1_JDK = "JDK Buffered*Stream";

    static Verdict e1(Table t) {
        String claim = "Byte-at-a-time copy through BufferedInputStream/BufferedOutputStream is ~3x slower than "
                + "through unsynchronized buffers.";
        Double jdk = t.median(E1_JDK, "copy");
        String best = t.best("copy", v -> !v.equals(E1_JDK));
        Double ratio = jdk == null || best == null ? null : t.median(best, "copy") / jdk;
        Verdict v = ratioVerdict(claim, 3, "~3x", ratio, "the fastest unsynchronized copy (" + best + ") vs JDK buffered streams");
        return v;
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

    static Verdict e2Buffers(Table t) {
        String claim = "Buffers larger than 2 KiB are pointless.";
        String rule = "holds if, for reads of up to 1 KiB at a time, the best buffer over 2 KiB gains less than 10% "
                + "over the best buffer of at most 2 KiB";
        List<Double> gains = new ArrayList<>();
        for (String param : t.params()) {
            long array = arrayOf(param);
            if (array <= 0 || array > 1024) {
                continue;
            }
            Double small = t.bestMedian(param, v -> v.startsWith(E2_JDK) && bufferOf(v) > 0 && bufferOf(v) <= 2048);
            Double large = t.bestMedian(param, v -> v.startsWith(E2_JDK) && bufferOf(v) > 2048);
            if (small != null && large != null) {
                gains.add(large / small);
            }
        }
        if (gains.isEmpty()) {
            return inconclusive(claim, "no gain", rule, "JDK buffers on both sides of 2 KiB with small reads");
        }
        double g = geomean(gains);
        Outcome o = g < 1.10 ? Outcome.HELD : Outcome.DID_NOT_HOLD;
        String summary = String.format(Locale.ROOT,
                "Buffers over 2 KiB were %s than the best of 512 B-2 KiB for small reads (geometric mean over %d read sizes).",
                g >= 1 ? percent(g - 1) + " faster" : percent(1 - g) + " slower", gains.size());
        return new Verdict(claim, o, "no gain", round(g), rule, summary);
    }

    static Verdict e2Arrays(Table t) {
        String claim = "Destination arrays of 512-1024 bytes are safe (as fast as larger ones).";
        String rule = "holds if, through an 8 KiB JDK buffer, the better of 512 B and 1 KiB arrays reaches at least "
                + "90% of the best array size";
        String variant = E2_JDK + "8 KiB";
        Double mid = t.bestMedian(p -> arrayOf(p) == 512 || arrayOf(p) == 1024, variant);
        Double best = t.bestMedian(p -> arrayOf(p) > 0, variant);
        if (mid == null || best == null) {
            return inconclusive(claim, ">= 90% of best", rule, variant + " with 512 B or 1 KiB arrays");
        }
        double r = mid / best;
        Outcome o = r >= 0.90 ? Outcome.HELD : Outcome.DID_NOT_HOLD;
        String summary = String.format(Locale.ROOT, "512 B-1 KiB arrays reached %s of the best array size's speed.",
                percent(r));
        return new Verdict(claim, o, ">= 90% of best", round(r), rule, summary);
    }

    // E3 -----------------------------------------------------------------------------------------------------------
    static Verdict e3(Table t) {
        String claim = "For small files, FileChannel.open + Channels.newInputStream is 30-40% faster than FileInputStream.";
        List<Double> ratios = new ArrayList<>();
        for (String param : t.params()) {
            long size = param.startsWith("file ") ? parseSize(param.substring(5)) : -1;
            if (size < 0 || size > 4096) {
                continue;
            }
            Double ch = t.median("FileChannel.open + Channels.newInputStream", param);
            Double fis = t.median("FileInputStream", param);
            if (ch != null && fis != null) {
                ratios.add(ch / fis);
            }
        }
        return ratioVerdict(claim, 1.3, "30-40% faster", ratios.isEmpty() ? null : geomean(ratios),
                "channel streams vs FileInputStream on files of 4 KiB and less");
    }

    // E4 -----------------------------------------------------------------------------------------------------------
    static final List<String> E4_JDK = List.of("InputStreamReader(FileInputStream)", "Files.newBufferedReader",
            "Channels.newReader");

    static Verdict e4(Table t) {
        String claim = "Channels.newReader is the fastest way to read a text file.";
        String rule = "holds if Channels.newReader is fastest (within 3%) among the JDK's readers in most "
                + "corpus/size cells";
        int fastest = 0;
        int cells = 0;
        List<Double> ratios = new ArrayList<>();
        for (String param : t.params()) {
            Double ch = t.median("Channels.newReader", param);
            Double other = t.bestMedian(param, v -> E4_JDK.contains(v) && !v.equals("Channels.newReader"));
            if (ch == null || other == null) {
                continue;
            }
            cells++;
            ratios.add(ch / other);
            if (ch >= other * 0.97) {
                fastest++;
            }
        }
        if (cells == 0) {
            return inconclusive(claim, "fastest", rule, "the JDK readers");
        }
        Outcome o = fastest * 2 > cells ? Outcome.HELD : Outcome.DID_NOT_HOLD;
        double g = geomean(ratios);
        String summary = String.format(Locale.ROOT,
                "Channels.newReader was fastest in %d of %d cells; against the better other JDK reader it ran at %s "
                        + "(geometric mean).", fastest, cells, ratio(g));
        return new Verdict(claim, o, "fastest", round(g), rule, summary);
    }

    // E5 -----------------------------------------------------------------------------------------------------------
    static Verdict e5(Table t) {
        String claim = "Give GZIPInputStream a 64 KiB buffer and no BufferedInputStream underneath.";
        String rule = "holds if the 64 KiB buffer beats the 512 B default and is within 3% of (or faster than) the "
                + "default over a BufferedInputStream";
        Double k64 = t.median("GZIPInputStream 64 KiB buffer", "strategies");
        Double def = t.median("GZIPInputStream (512 B default)", "strategies");
        Double bis = t.median("GZIPInputStream over BufferedInputStream", "strategies");
        if (k64 == null || def == null || bis == null) {
            return inconclusive(claim, "64 KiB best", rule, "the three GZIPInputStream strategies");
        }
        double vsDefault = k64 / def;
        double vsBis = k64 / bis;
        Outcome o = vsDefault > 1.0 && vsBis >= 0.97 ? Outcome.HELD : Outcome.DID_NOT_HOLD;
        String summary = String.format(Locale.ROOT,
                "64 KiB buffer vs the 512 B default: %s; vs the default over a BufferedInputStream: %s.", ratio(vsDefault), ratio(vsBis));
        return new Verdict(claim, o, "64 KiB best", round(vsDefault), rule, summary);
    }

    // E6 -----------------------------------------------------------------------------------------------------------
    static Verdict e6(Table t) {
        String claim = "Polling available() every 512 bytes makes BufferedInputStream ~8x slower than a stream "
                + "whose available() is O(1) (17 s vs 2 s).";
        Double jdk = t.median("JDK BufferedInputStream", "every 512 B");
        Double fix = t.median("BufferedInputStream + O(1) available()", "every 512 B");
        return ratioVerdict(claim, 17.0 / 2, "8.5x", jdk == null || fix == null ? null : fix / jdk,
                "O(1) available() vs BufferedInputStream, polling every 512 B");
    }

    // E7 -----------------------------------------------------------------------------------------------------------
    static Verdict e7(Table t) {
        String claim = "An 8 KiB copy buffer is ~30% faster than a 4 KiB one.";
        Double k8 = t.median("loop 8 KiB", "copy");
        Double k4 = t.median("loop 4 KiB", "copy");
        return ratioVerdict(claim, 1.3, "~30% faster", k8 == null || k4 == null ? null : k8 / k4,
                "8 KiB vs 4 KiB read/write loop");
    }

    // helpers -------------------------------------------------------------------------------------------------------

    static String ratio(double r) {
        if (r >= 1.995) {
            return String.format(Locale.ROOT, "%.1fx as fast", r);
        }
        return r >= 1 ? percent(r - 1) + " faster" : percent(1 - r) + " slower";
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }

    static double geomean(List<Double> xs) {
        double s = 0;
        for (double x : xs) {
            s += Math.log(x);
        }
        return Math.exp(s / xs.size());
    }

    static double round(double x) {
        return Report.Stats.round(x);
    }

    /** Medians by variant and param. */
    static final class Table {
        private final List<Result> results;

        Table(List<Result> results) {
            this.results = results;
        }

        Double median(String variant, String param) {
            for (Result r : results) {
                if (r.measured() && r.variant().equals(variant) && r.param().equals(param)) {
                    return r.mbPerSec().median();
                }
            }
            return null;
        }

        /** The variant with the highest median at {@code param} among those matching, or null. */
        String best(String param, Predicate<String> variants) {
            String best = null;
            double top = -1;
            for (Result r : results) {
                if (r.measured() && r.param().equals(param) && variants.test(r.variant()) && r.mbPerSec().median() > top) {
                    top = r.mbPerSec().median();
                    best = r.variant();
                }
            }
            return best;
        }

        Double bestMedian(String param, Predicate<String> variants) {
            String b = best(param, variants);
            return b == null ? null : median(b, param);
        }

        /** The highest median of {@code variant} over the params matching. */
        Double bestMedian(Predicate<String> params, String variant) {
            Double top = null;
            for (Result r : results) {
                if (r.measured() && r.variant().equals(variant) && params.test(r.param())) {
                    top = top == null ? r.mbPerSec().median() : Math.max(top, r.mbPerSec().median());
                }
            }
            return top;
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
