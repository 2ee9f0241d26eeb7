package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.AdviceSpec;
import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Recommendation;
import dev.sluice.cli.report.Report.Result;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the like-for-like comparisons each experiment declares (sluice-bench's {@code Advice}, carried in the raw
 * results) into advice; no variant is named here. One rule for all: rank the candidates by median speed (geometric
 * mean of medians when the comparison spans several cells); the winner is recommended only when its paired ratio
 * over the runner-up is at least {@link #BAND} (the practical-equivalence band: a smaller lead is no reason to change
 * code, and such leads came and went between back-to-back runs), the 95% interval of that ratio excludes 1, <em>and</em>
 * it is ahead in every fork. Otherwise the advice is {@link #NO_DIFFERENCE}, naming the default where it is among the
 * tied. A property ({@code sluice.*}) is advised only from a sweep of the Sluice class that reads it; its built-in
 * value is the one sluice-bench read from sluice-core's constant, and "keep the default" prints no flag.
 */
final class Recommendations {
    private Recommendations() {}

    static final String NO_DIFFERENCE = "no measurable difference here";

    /** A lead under 5% is "no measurable difference" whatever its interval. */
    static final double BAND = 1.05;

    /** The result of ranking some candidates: the winner, the runner-up and the interval of their ratio. */
    record Contest(Result winner, Result runnerUp, Bootstrap.Estimate ratio, boolean everyFork) {
        boolean clear() {
            return runnerUp == null || (ratio.value() >= BAND && ratio.lo() > 1 && everyFork);
        }
    }

    static List<Recommendation> from(List<ExperimentReport> experiments) {
        List<Recommendation> out = new ArrayList<>();
        for (ExperimentReport e : experiments) {
            Verdicts.Table t = new Verdicts.Table(e.results());
            for (AdviceSpec a : e.advice()) {
                List<Map<String, Result>> cells = cells(t, a);
                if (a.property() == null) {
                    strategy(out, cells, a);
                } else {
                    sized(a, cells).ifPresent(out::add);
                }
            }
        }
        return out;
    }

    /** Per param, the measured candidates (every non-reference variant there when the advice lists none). */
    static List<Map<String, Result>> cells(Verdicts.Table t, AdviceSpec a) {
        List<Map<String, Result>> cells = new ArrayList<>();
        for (String p : a.params()) {
            Map<String, Result> cell = new LinkedHashMap<>();
            if (a.candidates().isEmpty()) {
                for (Result r : t.ranked(p, v -> true)) {
                    if (!r.reference()) {
                        cell.put(r.variant(), r);
                    }
                }
            } else {
                for (String v : a.candidates()) {
                    Result r = t.get(v, p);
                    if (r != null) {
                        cell.put(v, r);
                    }
                }
            }
            cells.add(cell);
        }
        return cells;
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

    /** Code advice from one comparison of strategies. */
    static void strategy(List<Recommendation> out, List<Map<String, Result>> cells, AdviceSpec a) {
        Contest c = contest(cells);
        if (c == null) {
            return;
        }
        String winner = c.winner().variant();
        if (c.runnerUp() == null) {
            out.add(new Recommendation(null, null, null, winner, String.format(Locale.ROOT, a.advice(), winner)
                    + " (the only one measured).", null, null, a.basis()));
            return;
        }
        String vs = vs(winner, c.runnerUp().variant(), c);
        String advice;
        String choice;
        if (c.clear()) {
            choice = winner;
            advice = String.format(Locale.ROOT, a.advice(), winner) + " (" + vs + ").";
        } else {
            choice = NO_DIFFERENCE;
            String def = a.defaultChoice();
            boolean defaultTied = winner.equals(def) || c.runnerUp().variant().equals(def);
            advice = capitalise(NO_DIFFERENCE) + " (" + vs + ")" + (defaultTied ? ": the default, " + def
                    + ", will do." : ": either will do.");
        }
        out.add(new Recommendation(null, null, null, choice, advice, round(c.ratio().value()),
                new double[] {round(c.ratio().lo()), round(c.ratio().hi())}, a.basis()));
    }

    private static String vs(String winner, String runnerUp, Contest c) {
        return String.format(Locale.ROOT, "%s over %s: %s [%s, %s]%s", winner, runnerUp, Verdicts.x(c.ratio().value()),
                Verdicts.x(c.ratio().lo()), Verdicts.x(c.ratio().hi()), c.everyFork() ? "" : ", not ahead in every fork");
    }

    /**
     * A size property from a sweep of the Sluice class that reads it. A flag is printed only when the winning size
     * is not the built-in one (the advice's default) and wins clearly.
     */
    static java.util.Optional<Recommendation> sized(AdviceSpec a, List<Map<String, Result>> cells) {
        Contest c = contest(cells);
        if (c == null || c.runnerUp() == null) {
            return java.util.Optional.empty();
        }
        long best = sizeOf(a, c.winner().variant());
        long second = sizeOf(a, c.runnerUp().variant());
        String builtIn = a.defaultChoice() == null ? "built-in size" : "built-in " + size(sizeOf(a, a.defaultChoice()));
        String what = a.advice();
        String vs = vs(size(best), size(second), c);
        double[] ci = {round(c.ratio().lo()), round(c.ratio().hi())};
        if (!c.clear()) {
            return java.util.Optional.of(new Recommendation(a.property(), null, null, NO_DIFFERENCE,
                    capitalise(NO_DIFFERENCE) + " (" + vs + "): keep " + what + " at the " + builtIn
                            + " (no flag needed).", round(c.ratio().value()), ci, a.basis()));
        }
        if (c.winner().variant().equals(a.defaultChoice())) {
            return java.util.Optional.of(new Recommendation(a.property(), null, null, Long.toString(best),
                    "Keep " + what + " at the " + builtIn + " (no flag needed): the fastest here (" + vs + ").",
                    round(c.ratio().value()), ci, a.basis()));
        }
        return java.util.Optional.of(new Recommendation(a.property(), Long.toString(best),
                "-D" + a.property() + "=" + best, Long.toString(best), "Set " + what + " to " + size(best) + " (" + vs
                + ").", round(c.ratio().value()), ci, a.basis()));
    }

    private static long sizeOf(AdviceSpec a, String variant) {
        int i = a.candidates().indexOf(variant);
        return i < 0 ? -1 : a.sizes().get(i);
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
