package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Recommendation;
import dev.sluice.cli.report.Report.Result;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the winners into advice: a {@code sluice.*} system property where Sluice has one for the choice
 * ({@code sluice.io.bufferSize}, read by FastBufferedInputStream and FastBufferedOutputStream; and, once their classes
 * are in the build, {@code sluice.gzip.inputBufferSize} and {@code sluice.copy.bufferSize}), otherwise the strategy
 * to use in code. Each comes with its margin over the runner-up or the default.
 */
final class Recommendations {
    private Recommendations() {}

    static final String BUFFER_SIZE = "sluice.io.bufferSize";
    /** Read by dev.sluice.gzip.GzipInputStream (gzip branch). */
    static final String GZIP_BUFFER = "sluice.gzip.inputBufferSize";
    static final String GZIP_CLASS = "dev.sluice.gzip.GzipInputStream";
    /** Read by dev.sluice.io.Streams.copy (copy branch). */
    static final String COPY_BUFFER = "sluice.copy.bufferSize";
    static final String STREAMS_CLASS = "dev.sluice.io.Streams";
    static final long BUILT_IN_BUFFER = 65536;
    /** A different buffer size is recommended only when it beats the built-in default by at least this. */
    static final double MIN_GAIN = 1.05;
    /** Winners closer than this (percent) to the runner-up are reported as a tie: quick runs are noisy. */
    static final double TIE_PERCENT = 3;

    static List<Recommendation> from(List<ExperimentReport> experiments) {
        List<Recommendation> out = new ArrayList<>();
        for (ExperimentReport e : experiments) {
            Verdicts.Table t = new Verdicts.Table(e.results());
            switch (e.id()) {
                case "E1": winner(out, t, "copy", e.id(), "For byte-at-a-time I/O use %s"); break;
                case "E2": bufferSize(t).ifPresent(out::add); break;
                case "E3": for (String p : t.params()) {
                    winner(out, t, p, e.id(), "To open and read a " + p.replace("file ", "") + " file use %s");
                }
                    break;
                case "E4": for (String p : t.params()) {
                    winner(out, t, p, e.id(), "To read " + p + " text use %s");
                }
                    break;
                case "E5": winner(out, t, "strategies", e.id(), "To read gzip use %s");
                    winner(out, t, "input buffer sweep", e.id(), "Best GZIPInputStream input buffer here: %s");
                    if (present(GZIP_CLASS)) {
                        sized(GZIP_BUFFER, 65536, "Sluice's GzipInputStream input buffer", bySize(t, "input buffer sweep"),
                                "E5: GZIPInputStream input buffer sweep").ifPresent(out::add);
                    }
                    break;
                case "E7": winner(out, t, "copy", e.id(), "To copy a file use %s");
                    winner(out, t, "contentEquals", e.id(), "To compare files use %s");
                    if (present(STREAMS_CLASS)) {
                        sized(COPY_BUFFER, 65536, "Sluice's stream copy buffer", bySize(t, "copy"),
                                "E7: read/write loops of 4 KiB, 8 KiB and 64 KiB between files").ifPresent(out::add);
                    }
                    break;
                default: break;
            }
        }
        return out;
    }

    /** Sluice's buffer sweep (E2): the buffer with the best geometric-mean speed over the small read sizes. */
    static java.util.Optional<Recommendation> bufferSize(Verdicts.Table t) {
        Map<Long, List<Report.Stats>> byBuffer = new LinkedHashMap<>();
        for (Result r : t.results()) {
            if (r.measured() && r.variant().startsWith("Sluice buffer ")) {
                byBuffer.computeIfAbsent(Verdicts.bufferOf(r.variant()), k -> new ArrayList<>()).add(r.mbPerSec());
            }
        }
        int cells = byBuffer.values().stream().mapToInt(List::size).max().orElse(0);
        Map<Long, Report.Stats> score = new LinkedHashMap<>();
        byBuffer.forEach((size, stats) -> {
            if (stats.size() == cells) {   // a size with a failed cell would be scored on easier cells only
                score.put(size, new Report.Stats(geomean(stats, Report.Stats::min), geomean(stats, Report.Stats::median),
                        geomean(stats, Report.Stats::max)));
            }
        });
        return sized(BUFFER_SIZE, BUILT_IN_BUFFER, "FastBuffered*Stream's default buffer", score,
                "E2: FastBufferedInputStream reading a page-cached file in pieces of 8 B-1 KiB, geometric mean over "
                        + "the piece sizes");
    }

    private static double geomean(List<Report.Stats> stats, java.util.function.ToDoubleFunction<Report.Stats> f) {
        List<Double> xs = new ArrayList<>();
        for (Report.Stats st : stats) {
            xs.add(f.applyAsDouble(st));
        }
        return Verdicts.geomean(xs);
    }

    /**
     * A size property from one comparison whose variants are sizes. A size other than the built-in default is
     * recommended only when its median beats the default's by at least {@link #MIN_GAIN} <em>and</em> its slowest
     * repetition beat the default's fastest (the spreads do not overlap): one noisy run must not move a default.
     * Otherwise the advice is to keep the default. Empty when nothing was measured.
     */
    static java.util.Optional<Recommendation> sized(String property, long builtIn, String what,
                                                    Map<Long, Report.Stats> score, String basis) {
        long best = -1;
        double top = -1;
        for (Map.Entry<Long, Report.Stats> en : score.entrySet()) {
            if (en.getKey() > 0 && en.getValue().median() > top) {
                top = en.getValue().median();
                best = en.getKey();
            }
        }
        if (best < 0) {
            return java.util.Optional.empty();
        }
        Report.Stats atDefault = score.get(builtIn);
        if (atDefault == null) {
            return java.util.Optional.of(new Recommendation(property, Long.toString(best), "-D" + property + "=" + best,
                    "Set " + what + " to " + size(best) + " (the built-in " + size(builtIn) + " was not measured).",
                    null, basis));
        }
        double gain = top / atDefault.median();
        boolean clear = score.get(best).min() > atDefault.max();
        if (best != builtIn && gain >= MIN_GAIN && clear) {
            return java.util.Optional.of(new Recommendation(property, Long.toString(best), "-D" + property + "=" + best,
                    String.format(Locale.ROOT, "Set %s to %s: %s faster than the built-in %s here.", what, size(best),
                            Verdicts.percent(gain - 1), size(builtIn)), Verdicts.round((gain - 1) * 100), basis));
        }
        String why = best == builtIn ? "the built-in size was the fastest here"
                : gain < MIN_GAIN ? String.format(Locale.ROOT, "the best size here, %s, was within %s of it", size(best),
                        Verdicts.percent(gain - 1))
                : String.format(Locale.ROOT, "the best size here, %s, was %s faster by median but the spreads "
                        + "overlap (rerun, or use --full)", size(best), Verdicts.percent(gain - 1));
        return java.util.Optional.of(new Recommendation(property, Long.toString(builtIn),
                "-D" + property + "=" + builtIn, String.format(Locale.ROOT,
                "Keep %s at the built-in %s (no flag needed): %s.", what, size(builtIn), why),
                Verdicts.round((gain - 1) * 100), basis));
    }

    /**
     * The throughput of one comparison keyed by the size each variant's name starts or ends with ("64 KiB input
     * buffer", "loop 8 KiB").
     */
    static Map<Long, Report.Stats> bySize(Verdicts.Table t, String param) {
        Map<Long, Report.Stats> m = new LinkedHashMap<>();
        for (Result r : t.results()) {
            if (!r.measured() || !r.param().equals(param)) {
                continue;
            }
            String[] w = r.variant().split(" ");
            long size = w.length >= 2 ? Verdicts.parseSize(w[0] + " " + w[1]) : -1;
            if (size < 0 && w.length >= 2) {
                size = Verdicts.parseSize(w[w.length - 2] + " " + w[w.length - 1]);
            }
            if (size > 0) {
                m.put(size, r.mbPerSec());
            }
        }
        return m;
    }

    /**
     * Whether the Sluice class that reads a property is in this build: recommendations name only properties that
     * exist (the gzip and copy classes land on their own branches).
     */
    static boolean present(String className) {
        try {
            Class.forName(className, false, Recommendations.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static void winner(List<Recommendation> out, Verdicts.Table t, String param, String id, String format) {
        String best = t.best(param, v -> true);
        if (best == null) {
            return;
        }
        String second = t.best(param, v -> !v.equals(best));
        Double margin = second == null ? null : Verdicts.round((t.median(best, param) / t.median(second, param) - 1) * 100);
        String advice = String.format(Locale.ROOT, format, best) + (second == null ? "."
                : margin < TIE_PERCENT ? String.format(Locale.ROOT, " (tied with %s: %.1f%% apart).", second, margin)
                : String.format(Locale.ROOT, " (%.0f%% ahead of %s).", margin, second));
        out.add(new Recommendation(null, null, null, advice, margin, id + ": " + param));
    }

    static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
