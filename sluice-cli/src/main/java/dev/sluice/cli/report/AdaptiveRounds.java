package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Sample;
import dev.sluice.cli.report.Report.Verdict;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Verdicts that do not hang on a run's luck: where a claim's interval straddles its threshold after the planned
 * forks, the experiment declaring it gets another fork, run as a planned fork runs it up to the claim's last
 * comparison, after a settling warm-up of those cases (an <em>extra look</em>: a claim's cells run alone measure
 * under other JIT decisions, and a fresh JVM's first rounds before its JIT settles: {@link #lookPrefix}), while the run stays
 * within its budget, until the interval clears the threshold or the budget or {@link #MAX_EXTRA_LOOKS} is spent; only
 * then is it "inconclusive here".
 *
 * <p><b>Peeking.</b> Judging again after more data gives a wrong verdict more chances. A verdict is wrong when it says
 * held while the true ratio is below the threshold, or did not hold while it is at or above: one tail of the
 * interval at one of the looks. Every look uses the same level, {@link #LOOK_ALPHA} (a 98.1% interval, z = 2.346),
 * Pocock's constant boundary for five nested looks at 3, 4, 5, 6 and 7 forks: for an estimate that is the running
 * mean of its forks, the chance that any of the five one-sided 98.1% bounds misses the truth on a given side is
 * 2.5%, that of a single 95% look. (The first version gave extra look e alpha = 0.05 / 2^e by the union bound:
 * 97.5%, 98.75%, ... That ignores that a look shares all but one fork with the one before; its z grew as fast as the
 * root of the forks, so an extra look's interval was on average exactly as wide as the planned one (1.96 / sqrt 3 =
 * 2.24 / sqrt 4 = ... = 2.96 / sqrt 7): a look could clear a claim only by a luckier draw, which made the looks a
 * source of disagreement between runs.) With one level the interval narrows as forks come (z / sqrt F: 1.35, 1.17,
 * 1.05, 0.96, 0.88), at the price of a wider planned interval. The looks a verdict took and its interval's level are
 * in results.json, so {@code --reanalyse} repeats the same decisions from
 * the samples alone: a claim's look L uses the forks below {@code PLANNED_FORKS + L - 1} and goes on to look L + 1
 * only where every cell it compares has samples from the next fork.
 */
final class AdaptiveRounds {
    private AdaptiveRounds() {}

    /** The forks every claim gets; extra looks are forks numbered from here on. */
    static final int PLANNED_FORKS = Reports.FORKS;

    /** Extra looks a claim may take at most (the fourth is at 99.69%). */
    static final int MAX_EXTRA_LOOKS = 4;

    /** The whole quick run's budget: extra forks start only while the run can end within it. */
    static final int QUICK_BUDGET_SECONDS = 300;

    /** Kept back from the budget for judging and writing the report after the last fork. */
    static final int RESERVE_SECONDS = 10;

    /** What a fork costs beyond its cells' measuring (JVM start, data check) until one has been timed. */
    static final double FORK_OVERHEAD_SECONDS = 3;

    /** The rule, as the page and results.json state it. */
    static String rule(int budgetSeconds) {
        return String.format(Locale.ROOT, "Where a claim's interval straddles its threshold "
                + "after the planned %d forks while its estimate lies outside the threshold's %s margin, the experiment declaring it "
                + "gets another fork, run as in the planned forks up to the claim's last comparison after a settling warm-up (an extra look), while the run can end within %d s, up to %d extra looks; "
                + "until then it is not called inconclusive. Every look, the planned one included, is judged on every "
                + "fork so far with a %s interval (Pocock's constant boundary for %d nested looks), so that the looks "
                + "together keep a wrong verdict on either side under 2.5%%, as one look at 95%% does. An estimate "
                + "within the margin is inconclusive here without more looks, unless its interval spans the whole "
                + "margin (the forks disagree): that close to the threshold, runs on this machine disagree.",
                PLANNED_FORKS, Verdicts.percent(Verdicts.MARGIN), budgetSeconds, MAX_EXTRA_LOOKS,
                Verdicts.percent(1 - LOOK_ALPHA), 1 + MAX_EXTRA_LOOKS);
    }

    /** The budget of a run at {@code scale}: the quick run's 300 s; none for --tiny (CI) and --full (JMH, hours). */
    static int budgetSeconds(String scale) {
        return scale.equals("quick") ? QUICK_BUDGET_SECONDS : 0;
    }

    /**
     * The two-sided alpha of every look's interval: 2 (1 - Phi(c)) for Pocock's constant c = 2.337 with which the
     * running mean of 7 forks, looked at after 3, 4, 5, 6 and 7, crosses c sqrt(F) anywhere with probability 2.5%
     * (5 x 10^6 simulated walks, seeded; {@code AdaptiveRoundsTest} checks it by its own simulation), rounded down
     * to 0.019 (z = 2.346, a 98.1% interval).
     */
    static final double LOOK_ALPHA = 0.019;

    /** The interval's alpha at look {@code look} (1: the planned forks): the same at every look. */
    static double alpha(int look) {
        return LOOK_ALPHA;
    }

    /** Bootstrap resamples at a look: 4000, about 38 beyond each end of a 98.1% interval. */
    static int resamples(int look) {
        return 2 * Bootstrap.RESAMPLES;
    }

    /** The last fork id a claim's look {@code look} is judged on, exclusive. */
    static int forksOfLook(int look) {
        return PLANNED_FORKS + look - 1;
    }

    /** Runs one extra fork of the experiments declaring {@code claims} and returns its raw results. */
    interface Look {
        Path run(int fork, List<String> claims) throws IOException, InterruptedException;
    }

    /**
     * Takes extra looks after the planned forks' raw results {@code planned}, within {@code budgetSeconds} counted from
     * {@code startNanos} (on {@code clock}); returns every raw results file, the planned ones first. Each round judges
     * the claims, picks those still straddling at their latest look, and runs one fork of the experiments of as many of
     * them, cheapest first, as the budget allows (a fork's cost is estimated from the planned forks' samples of its
     * cells, plus what a fork cost beyond that last time).
     */
    static List<Path> extend(List<Path> planned, Look look, LongSupplier clock, long startNanos, int budgetSeconds,
                             Consumer<String> log) throws IOException, InterruptedException {
        List<Path> raws = new ArrayList<>(planned);
        double overhead = FORK_OVERHEAD_SECONDS;
        for (int extra = 1; extra <= MAX_EXTRA_LOOKS && budgetSeconds > 0; extra++) {
            RawResults raw = RawResults.read(raws);
            Map<String, Double> cost = new LinkedHashMap<>();
            for (String id : straddling(raw, extra)) {
                cost.put(id, seconds(raw, List.of(id)));
            }
            if (cost.isEmpty()) {
                break;
            }
            double left = budgetSeconds - RESERVE_SECONDS - (clock.getAsLong() - startNanos) / 1e9 - overhead;
            List<String> take = new ArrayList<>();
            for (String id : cost.keySet().stream().sorted(Comparator.comparing(cost::get)).toList()) {
                List<String> with = new ArrayList<>(take);
                with.add(id);
                if (seconds(raw, with) <= left) {
                    take = with;
                }
            }
            if (take.isEmpty()) {
                log.accept(String.format(Locale.ROOT, "extra look %d for %s: not taken, the %d-s budget is spent",
                        extra, String.join(", ", cost.keySet()), budgetSeconds));
                break;
            }
            take.sort(null);
            log.accept(String.format(Locale.ROOT, "extra look %d: %s straddle their thresholds; one more fork of "
                    + "their experiments (about %.0f s)", extra, String.join(", ", take), seconds(raw, take) + overhead));
            long t0 = clock.getAsLong();
            raws.add(look.run(forksOfLook(extra + 1) - 1, take));
            overhead = Math.max(overhead, (clock.getAsLong() - t0) / 1e9 - seconds(raw, take));
        }
        return raws;
    }

    /**
     * The claims inconclusive at look {@code extra} (so far every claim that is still being looked at) with a measured
     * interval and an estimate outside the threshold's margin ({@link Verdicts#worthAnotherLook}).
     */
    static List<String> straddling(RawResults raw, int extra) {
        List<String> out = new ArrayList<>();
        for (ExperimentReport e : raw.experiments()) {
            List<Verdict> vs = Verdicts.judge(e, raw.reads());
            for (int i = 0; i < vs.size(); i++) {
                Verdict v = vs.get(i);
                if (v.measured() != null && v.looks() == extra
                        && Verdicts.worthAnotherLook(v.outcome(), v.measured(), v.ci()[0], v.ci()[1],
                                e.claims().get(i))) {
                    out.add(v.id());
                }
            }
        }
        return out;
    }

    /**
     * Seconds one fork for {@code claims} takes measuring: it runs every experiment declaring one of them as a planned
     * fork does up to the last comparison those claims name (QuickRunner's {@code --claims}: its cases in the planned
     * order up to that param's, none after), after a settling pass over the same cases; so per case of that prefix,
     * its planned forks' mean time per fork plus its warm-up twice (the scale's, and at least two operations).
     */
    static double seconds(RawResults raw, List<String> claims) {
        double nanos = 0;
        for (ExperimentReport e : raw.experiments()) {
            if (e.claims().stream().noneMatch(c -> claims.contains(c.id()))) {
                continue;
            }
            for (Result r : lookPrefix(e, claims)) {
                if (!r.measured()) {
                    continue;
                }
                long sum = 0;
                long opNanos = 0;
                for (Sample s : r.samples()) {
                    if (s.fork() < PLANNED_FORKS) {
                        sum += s.nanos();
                        opNanos = Math.max(opNanos, s.nanos() / Math.max(1, s.ops()));
                    }
                }
                nanos += (double) sum / PLANNED_FORKS + 2 * Math.max(raw.warmupNanos(), 2.0 * opNanos);
            }
        }
        return nanos / 1e9;
    }

    /**
     * The results an extra look at {@code claims} measures in experiment {@code e}: in case order, up to the last
     * result whose param one of those claims' cells names, and the rest of that param's results (the runner's
     * {@code QuickRunner.lookPrefix}, over the cases in the order the planned forks listed them).
     */
    static List<Result> lookPrefix(ExperimentReport e, List<String> claims) {
        java.util.Set<String> named = new java.util.HashSet<>();
        for (Report.ClaimSpec c : e.claims()) {
            if (claims.contains(c.id())) {
                for (Report.Pair p : c.pairs()) {
                    for (List<Report.Cell> side : List.of(p.a(), p.b(), p.c())) {
                        side.forEach(cell -> named.add(cell.param()));
                    }
                }
            }
        }
        List<Result> rs = e.results();
        int last = -1;
        for (int i = 0; i < rs.size(); i++) {
            if (named.contains(rs.get(i).param())) {
                last = i;
            }
        }
        while (last >= 0 && last + 1 < rs.size() && rs.get(last + 1).param().equals(rs.get(last).param())) {
            last++;
        }
        return last < 0 ? rs : rs.subList(0, last + 1);
    }
}
