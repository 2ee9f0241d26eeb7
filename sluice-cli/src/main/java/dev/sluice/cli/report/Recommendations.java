package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Recommendation;
import dev.sluice.cli.report.Report.Result;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Turns like-for-like comparisons into advice. One rule for all: rank the candidates by median speed (geometric mean
 * of medians when the comparison spans several sizes); the winner is recommended only when the 95% interval of its
 * paired ratio over the runner-up excludes 1 by at least 2% ({@link #MIN_LEAD}) <em>and</em> it is ahead in every
 * fork. Otherwise the advice is
 * {@link #NO_DIFFERENCE}, with the default choice where it is among the tied. Properties ({@code sluice.*}) are
 * advised only from sweeps of the Sluice class that reads them; "keep the default" prints no flag.
 */
final class Recommendations {
    private Recommendations() {}

    static final String NO_DIFFERENCE = "no measurable difference here";
    static final String BUFFER_SIZE = "sluice.io.bufferSize";
    /** Read by dev.sluice.gzip.GzipInputStream; E5 sweeps that class's input buffer. */
    static final String GZIP_BUFFER = "sluice.gzip.inputBufferSize";
    static final String GZIP_CLASS = "dev.sluice.gzip.GzipInputStream";
    static final long BUILT_IN_BUFFER = 65536;

    /**
     * The lower end of the winner's interval over the runner-up must reach this: the interval excludes 1, and by
     * enough to matter. A lead of under 2% is no reason to change code, and such leads came and went between
     * back-to-back runs on an idle machine (docs/benchmarks/report.md).
     */
    static final double MIN_LEAD = 1.02;

    /** The result of ranking some candidates: the winner, the runner-up and the interval of their ratio. */
    record Contest(Result winner, Result runnerUp, Bootstrap.Estimate ratio, boolean everyFork) {
        boolean clear() {
            return runnerUp == null || (ratio.lo() >= MIN_LEAD && everyFork);
        }
    }

    static List<Recommendation> from(List<ExperimentReport> experiments) {
        List<Recommendation> out = new ArrayList<>();
        for (ExperimentReport e : experiments) {
            Verdicts.Table t = new Verdicts.Table(e.results());
            switch (e.id()) {
                case "E1":
                    for (String p : List.of("read", "write", "copy")) {
                        // Streams against streams: the bulk loop is a reference line, not byte-at-a-time I/O.
                        strategy(out, t, p, v -> !v.equals(Verdicts.E1_PLAIN), "JDK Buffered*Stream",
                                "To " + p + " a byte at a time through a stream use %s", "E1: buffered streams, "
                                        + "byte-at-a-time " + p + ", 8 KiB buffers");
                    }
                    break;
                case "E2": bufferSize(t).ifPresent(out::add); break;
                case "E3":
                    for (String p : t.params()) {
                        strategy(out, t, p, v -> true, "Files.newInputStream", "To open and read a "
                                + p.replace("file ", "") + " file use %s", "E3: open and read a " + p);
                    }
                    break;
                case "E4":
                    for (String p : t.params()) {
                        strategy(out, t, p, v -> true, "Files.newBufferedReader", "To read " + p + " text use %s",
                                "E4: readers on " + p + " text");
                    }
                    break;
                case "E5":
                    strategy(out, t, "strategies", v -> true, "GZIPInputStream (512 B default)", "To read gzip use %s",
                            "E5: gzip readers over the same file");
                    if (present(GZIP_CLASS)) {
                        sized(GZIP_BUFFER, "Sluice GzipInputStream's input buffer", sizes(t, "input buffer sweep"),
                                "E5: Sluice GzipInputStream input buffer sweep").ifPresent(out::add);
                    }
                    break;
                case "E7":
                    strategy(out, t, "copy", v -> true, "Files.copy", "To copy a file to a new file use %s",
                            "E7: copies to a new target file, none fsynced (equal durability)");
                    strategy(out, t, "contentEquals", v -> true, "Files.mismatch", "To compare files use %s",
                            "E7: compare two equal files");
                    break;
                default:
                    break;
            }
        }
        return out;
    }

    /**
     * Ranks the candidates: score = geometric mean over the cells of each one's median speed (only candidates
     * measured in every cell), then the paired ratio of the top two over the cells.
     */
    static Contest contest(List<Map<String, Result>> cells) {
        Map<String, Double> score = new LinkedHashMap<>();
        for (String v : cells.isEmpty() ? List.<String>of() : cells.get(0).keySet()) {
            List<Double> medians = new ArrayList<>();
            for (Map<String, Result> cell : cells) {
                Result r = cell.get(v);
                if (r != null && r.measured()) {
                    medians.add(r.mbPerSec().median());
                }
            }
            if (medians.size() == cells.size()) {
                score.put(v, Verdicts.geomean(medians));
            }
        }
        List<String> ranked = new ArrayList<>(score.keySet());
        ranked.sort((a, b) -> Double.compare(score.get(b), score.get(a)));
        if (ranked.isEmpty()) {
            return null;
        }
        if (ranked.size() == 1) {
            return new Contest(cells.get(0).get(ranked.get(0)), null, null, true);
        }
        Contest c = pair(cells, ranked.get(0), ranked.get(1));
        // The paired estimate decides between the top two: with skewed samples the median of the ratios can
        // disagree with the ratio of the medians that ranked them.
        return c.ratio().value() >= 1 ? c : pair(cells, ranked.get(1), ranked.get(0));
    }

    private static Contest pair(List<Map<String, Result>> cells, String a, String b) {
        List<double[][]> grids = new ArrayList<>();
        for (Map<String, Result> cell : cells) {
            grids.add(Paired.ratio(cell.get(a), cell.get(b)));
        }
        return new Contest(cells.get(0).get(a), cells.get(0).get(b),
                Bootstrap.estimate(grids, Bootstrap.RESAMPLES, Bootstrap.SEED), aheadInEveryFork(grids));
    }

    /** Per fork, the geometric mean over the grids of that fork's median ratio is above 1, in every fork. */
    static boolean aheadInEveryFork(List<double[][]> grids) {
        int forks = grids.stream().mapToInt(g -> g.length).max().orElse(0);
        for (int f = 0; f < forks; f++) {
            double logSum = 0;
            int n = 0;
            for (double[][] g : grids) {
                double[] v = f < g.length ? Arrays.stream(g[f]).filter(x -> !Double.isNaN(x)).toArray() : new double[0];
                if (v.length > 0) {
                    logSum += Math.log(Bootstrap.median(v, v.length));
                    n++;
                }
            }
            if (n > 0 && logSum <= 0) {
                return false;
            }
        }
        return forks > 0;
    }

    /** Code advice from one comparison of strategies at one param. */
    static void strategy(List<Recommendation> out, Verdicts.Table t, String param, Predicate<String> candidates,
                         String defaultChoice, String format, String basis) {
        Map<String, Result> cell = new LinkedHashMap<>();
        for (Result r : t.ranked(param, candidates)) {
            cell.put(r.variant(), r);
        }
        Contest c = contest(List.of(cell));
        if (c == null) {
            return;
        }
        String winner = c.winner().variant();
        if (c.runnerUp() == null) {
            out.add(new Recommendation(null, null, null, winner, String.format(Locale.ROOT, format, winner)
                    + " (the only one measured).", null, null, basis));
            return;
        }
        String vs = String.format(Locale.ROOT, "%s over %s: %s [%s, %s]%s", winner, c.runnerUp().variant(),
                Verdicts.x(c.ratio().value()), Verdicts.x(c.ratio().lo()), Verdicts.x(c.ratio().hi()),
                c.everyFork() ? "" : ", not ahead in every fork");
        String advice;
        String choice;
        if (c.clear()) {
            choice = winner;
            advice = String.format(Locale.ROOT, format, winner) + " (" + vs + ").";
        } else {
            choice = NO_DIFFERENCE;
            boolean defaultTied = winner.equals(defaultChoice) || c.runnerUp().variant().equals(defaultChoice);
            advice = capitalise(NO_DIFFERENCE) + " (" + vs + ")" + (defaultTied ? ": the default, " + defaultChoice
                    + ", will do." : ": either will do.");
        }
        out.add(new Recommendation(null, null, null, choice, advice, round(c.ratio().value()),
                new double[] {round(c.ratio().lo()), round(c.ratio().hi())}, basis));
    }

    /** Sluice's buffer sweep (E2): each Sluice buffer size over the small read sizes. */
    static java.util.Optional<Recommendation> bufferSize(Verdicts.Table t) {
        Map<String, Map<String, Result>> byParam = new LinkedHashMap<>();
        for (Result r : t.results()) {
            if (r.measured() && r.variant().startsWith("Sluice buffer ")) {
                byParam.computeIfAbsent(r.param(), k -> new LinkedHashMap<>())
                        .put(Long.toString(Verdicts.bufferOf(r.variant())), r);
            }
        }
        return sized(BUFFER_SIZE, "FastBuffered*Stream's buffer", new ArrayList<>(byParam.values()),
                "E2: Sluice FastBufferedInputStream reading a page-cached file in pieces of 8 B-1 KiB, geometric "
                        + "mean over the piece sizes");
    }

    /**
     * A size property from a sweep of the Sluice class that reads it: the cells map a size in bytes (as a string)
     * to its result. A flag is printed only when the winning size is not the built-in one and wins clearly.
     */
    static java.util.Optional<Recommendation> sized(String property, String what, List<Map<String, Result>> cells,
                                                    String basis) {
        Contest c = contest(cells);
        if (c == null) {
            return java.util.Optional.empty();
        }
        long best = Long.parseLong(sizeKey(cells, c.winner()));
        String builtIn = size(BUILT_IN_BUFFER);
        if (c.runnerUp() == null) {
            return java.util.Optional.empty();
        }
        long second = Long.parseLong(sizeKey(cells, c.runnerUp()));
        String vs = String.format(Locale.ROOT, "%s over %s: %s [%s, %s]%s", size(best), size(second),
                Verdicts.x(c.ratio().value()), Verdicts.x(c.ratio().lo()), Verdicts.x(c.ratio().hi()),
                c.everyFork() ? "" : ", not ahead in every fork");
        double[] ci = {round(c.ratio().lo()), round(c.ratio().hi())};
        if (!c.clear()) {
            return java.util.Optional.of(new Recommendation(property, null, null, NO_DIFFERENCE,
                    capitalise(NO_DIFFERENCE) + " (" + vs + "): keep " + what + " at the built-in " + builtIn
                            + " (no flag needed).", round(c.ratio().value()), ci, basis));
        }
        if (best == BUILT_IN_BUFFER) {
            return java.util.Optional.of(new Recommendation(property, null, null, Long.toString(best),
                    "Keep " + what + " at the built-in " + builtIn + " (no flag needed): the fastest here (" + vs + ").",
                    round(c.ratio().value()), ci, basis));
        }
        return java.util.Optional.of(new Recommendation(property, Long.toString(best), "-D" + property + "=" + best,
                Long.toString(best), "Set " + what + " to " + size(best) + " (" + vs + ").", round(c.ratio().value()),
                ci, basis));
    }

    private static String sizeKey(List<Map<String, Result>> cells, Result r) {
        for (Map.Entry<String, Result> en : cells.get(0).entrySet()) {
            if (en.getValue() == r) {
                return en.getKey();
            }
        }
        throw new IllegalStateException("not in the first cell: " + r.variant());
    }

    /** The results of one sweep keyed by the size the variant's name holds ("Sluice 64 KiB input buffer"). */
    static List<Map<String, Result>> sizes(Verdicts.Table t, String param) {
        Map<String, Result> m = new LinkedHashMap<>();
        for (Result r : t.results()) {
            String[] w = r.variant().split(" ");
            for (int i = 0; i + 1 < w.length; i++) {
                long size = Verdicts.parseSize(w[i] + " " + w[i + 1]);
                if (size > 0 && r.measured() && r.param().equals(param)) {
                    m.put(Long.toString(size), r);
                    break;
                }
            }
        }
        return m.isEmpty() ? List.of() : List.of(m);
    }

    /**
     * Whether the Sluice class that reads a property is in this build: recommendations name only properties that
     * exist.
     */
    static boolean present(String className) {
        try {
            Class.forName(className, false, Recommendations.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static String capitalise(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static double round(double v) {
        return Report.Stats.round(v);
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
