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
 * Turns the winners into advice: a {@code sluice.*} system property where Sluice has one for the choice (today
 * {@code sluice.io.bufferSize}, read by FastBufferedInputStream and FastBufferedOutputStream), otherwise the
 * strategy to use in code. Each comes with its margin over the runner-up or the default.
 */
final class Recommendations {
    private Recommendations() {}

    static final String BUFFER_SIZE = "sluice.io.bufferSize";
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
                    break;
                case "E7": winner(out, t, "copy", e.id(), "To copy a file use %s");
                    winner(out, t, "contentEquals", e.id(), "To compare files use %s");
                    break;
                default: break;
            }
        }
        return out;
    }

    /** Sluice's buffer sweep (E2): the buffer with the best geometric-mean speed over the small read sizes. */
    static java.util.Optional<Recommendation> bufferSize(Verdicts.Table t) {
        Map<Long, List<Double>> byBuffer = new LinkedHashMap<>();
        for (Result r : t.results()) {
            if (r.measured() && r.variant().startsWith("Sluice buffer ")) {
                byBuffer.computeIfAbsent(Verdicts.bufferOf(r.variant()), k -> new ArrayList<>()).add(r.mbPerSec().median());
            }
        }
        if (byBuffer.isEmpty()) {
            return java.util.Optional.empty();
        }
        int cells = byBuffer.values().stream().mapToInt(List::size).max().orElse(0);
        long best = -1;
        double top = -1;
        for (Map.Entry<Long, List<Double>> en : byBuffer.entrySet()) {
            if (en.getValue().size() == cells) {
                double g = Verdicts.geomean(en.getValue());
                if (g > top) {
                    top = g;
                    best = en.getKey();
                }
            }
        }
        List<Double> builtIn = byBuffer.get(BUILT_IN_BUFFER);
        String basis = "E2: FastBufferedInputStream reading a page-cached file in pieces of "
                + "8 B-1 KiB, geometric mean over the piece sizes";
        if (builtIn == null || builtIn.size() != cells) {
            return java.util.Optional.of(new Recommendation(BUFFER_SIZE, Long.toString(best),
                    "-D" + BUFFER_SIZE + "=" + best, "Set FastBuffered*Stream's default buffer to " + size(best)
                    + " (the built-in 64 KiB was not measured).", null, basis));
        }
        double gain = top / Verdicts.geomean(builtIn);
        if (best != BUILT_IN_BUFFER && gain >= MIN_GAIN) {
            return java.util.Optional.of(new Recommendation(BUFFER_SIZE, Long.toString(best),
                    "-D" + BUFFER_SIZE + "=" + best, String.format(Locale.ROOT,
                    "Set FastBuffered*Stream's default buffer to %s: %s faster than the built-in 64 KiB here.",
                    size(best), Verdicts.percent(gain - 1)), Verdicts.round((gain - 1) * 100), basis));
        }
        return java.util.Optional.of(new Recommendation(BUFFER_SIZE, Long.toString(BUILT_IN_BUFFER),
                "-D" + BUFFER_SIZE + "=" + BUILT_IN_BUFFER, String.format(Locale.ROOT,
                "Keep the built-in 64 KiB buffer (no flag needed): the best size here, %s, was within %s of it.",
                size(best), Verdicts.percent(Math.max(0, gain - 1))), Verdicts.round((gain - 1) * 100), basis));
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
