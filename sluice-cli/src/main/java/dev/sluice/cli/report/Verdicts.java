package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.Also;
import dev.sluice.cli.report.Report.AlsoSpec;
import dev.sluice.cli.report.Report.Cause;
import dev.sluice.cli.report.Report.Cell;
import dev.sluice.cli.report.Report.ClaimSpec;
import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Outcome;
import dev.sluice.cli.report.Report.Pair;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Sample;
import dev.sluice.cli.report.Report.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Judges every claim an experiment declares (sluice-bench's {@code Claim}, carried in the raw results) from that
 * declaration alone: no claim or variant is named here. A claim is "A beats B by k on its metric"; per paired round
 * its ratio is B's cost over A's (per byte moved: time, CPU time, allocated or retained bytes), a "diminishing" one
 * (B / A) / (A / C). A side is the best of its cells (lowest median cost); a claim over several comparisons takes the
 * geometric mean of their medians, with a 95% two-stage bootstrap interval ({@link Bootstrap}). The thresholds come
 * with the claim; where the interval lies against them gives held, did not hold or inconclusive here, and a claim
 * about disks in a page-cached run is not judged here. A claim that did not hold carries its documented cause, or
 * "cause unknown".
 */
final class Verdicts {
    private Verdicts() {}

    /**
     * The indifference margin around every threshold, applied to the <em>estimate</em>: held needs the estimate at or
     * above threshold x (1 + MARGIN), did not hold below threshold / (1 + MARGIN) (for a band, inside [threshold x (1 +
     * MARGIN), upper / (1 + MARGIN)] to hold, outside [threshold / (1 + MARGIN), upper x (1 + MARGIN)] to fail); an
     * estimate between is "inconclusive here". The margin is the run-to-run spread of a claim's estimate: what one run
     * shares across all its forks (the machine's state over its four minutes) moves the estimate between runs by more
     * than a run's interval sees; over four quick runs on the 2-core machine (JDK 25, 2026-11-27/28) that spread was
     * 0.6% (median over the claims), 1.8% (root mean square), up to 6% (C12); 2% is the RMS rounded up. It is a
     * spread of the estimate, so it bounds the estimate; the interval is held against the article's threshold itself
     * ({@link #outcome}; docs/design/report.md, "The margin" and "One decision statistic per question").
     */
    static final double MARGIN = 0.02;

    /** The sentence the report's rule gains for the {@link #MARGIN}. */
    static final String MARGIN_TEXT = "Every threshold has a " + percent(MARGIN) + " margin, the spread of a claim's "
            + "estimate between runs on the 2-core development machine, applied to the estimate: held needs the "
            + "estimate at or above t x " + (1 + MARGIN) + " and the whole interval at or above t, did not hold the "
            + "estimate below t / " + (1 + MARGIN) + " and the whole interval below t (a band the same way at each "
            + "end); an estimate within the margin is inconclusive here.";

    /** The rule sluice-bench states for its claims, with the margin this judge adds (once, in place of an older one). */
    static String ruleText(String claimsRule) {
        // A report judged by an earlier version carries that version's margin sentence: replaced, not repeated.
        int earlier = claimsRule.indexOf(" " + MARGIN_TEXT.substring(0, MARGIN_TEXT.indexOf(" margin")));
        return (earlier < 0 ? claimsRule : claimsRule.substring(0, earlier)) + " " + MARGIN_TEXT;
    }

    /** What a page-cached run says of a claim about disks, instead of judging it. */
    static final String NOT_JUDGED_SUMMARY = "Not judged here: the claim is about reading from a disk, and this run "
            + "read page-cached files; rerun with --cold to judge it.";

    /** The verdict of every claim of {@code e}, in declaration order. */
    static List<Verdict> judge(ExperimentReport e, String reads) {
        List<Verdict> out = new ArrayList<>();
        for (ClaimSpec c : e.claims()) {
            out.add(judge(c, e.results(), reads));
        }
        return out;
    }

    /**
     * The verdict of one claim. A claim about disks in a run that did not read cold is not judged (nothing of the
     * page-cached samples stands for it). Otherwise the planned forks' interval is judged, and while it straddles the
     * threshold and the claim's cells have samples from the next extra fork, that fork is added and the interval
     * judged again at the next look's level ({@link AdaptiveRounds}).
     */
    static Verdict judge(ClaimSpec c, List<Result> results, String reads) {
        String rule = String.format(Locale.ROOT, "%s, %s: held if the estimate is %s and the whole interval %s "
                        + "(threshold %s, %s margin on the estimate)",
                c.rule().toLowerCase(Locale.ROOT).replace('_', ' '), c.metric(), c.upper() == null
                        ? "at or above " + x(c.threshold() * (1 + MARGIN))
                        : "within [" + x(c.threshold() * (1 + MARGIN)) + ", " + x(c.upper() / (1 + MARGIN)) + "]",
                c.upper() == null ? "at or above " + x(c.threshold())
                        : "within [" + x(c.threshold()) + ", " + x(c.upper()) + "]",
                c.upper() == null ? x(c.threshold()) : "band [" + x(c.threshold()) + ", " + x(c.upper()) + "]",
                percent(MARGIN));
        if (c.cold() && !"cold".equals(reads)) {
            return new Verdict(c.id(), c.source(), c.wording(), c.metric(), Outcome.NOT_JUDGED, c.claimed(), c.k(),
                    round(c.threshold()), c.upper(), null, null, reads, rule, NOT_JUDGED_SUMMARY, c.setup(), null,
                    List.of(), List.of(), 0, 1 - AdaptiveRounds.alpha(1), null);
        }
        Table all = new Table(results);
        List<String> missing = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int look = 1;
        Measured m = measure(c.pairs(), c.metric(), all.upTo(AdaptiveRounds.forksOfLook(look)), missing, notes, look);
        Outcome o = outcome(m.value, m.lo, m.hi, c.threshold(), c.upper());
        while (worthAnotherLook(o, m.value, m.lo, m.hi, c) && look <= AdaptiveRounds.MAX_EXTRA_LOOKS
                && all.ranIn(c.pairs(), AdaptiveRounds.forksOfLook(look + 1) - 1)) {
            look++;
            missing.clear();
            notes.clear();
            m = measure(c.pairs(), c.metric(), all.upTo(AdaptiveRounds.forksOfLook(look)), missing, notes, look);
            o = outcome(m.value, m.lo, m.hi, c.threshold(), c.upper());
        }
        double level = 1 - AdaptiveRounds.alpha(look);
        String summary;
        if (Double.isNaN(m.value)) {
            summary = "Not measured in this run" + (missing.isEmpty() ? "" : ": " + String.join(", ", missing)) + ".";
        } else {
            summary = String.format(Locale.ROOT, "claimed %s, measured %s [%s, %s] on %s", c.claimed(), x(m.value),
                    x(m.lo), x(m.hi), c.metric());
            if (o == Outcome.INCONCLUSIVE && withinMargin(m.value, c.threshold(), c.upper())) {
                summary += String.format(Locale.ROOT, ": within the %s margin of the threshold, inside the spread "
                        + "between runs on this machine", percent(MARGIN));
            }
            if (look > 1) {
                summary += String.format(Locale.ROOT, " after %d extra look%s (%s interval): the planned forks' "
                        + "interval straddled the threshold", look - 1, look == 2 ? "" : "s", percent(level));
            }
        }
        Also also = null;
        if (c.also() != null) {
            // Never judged for the claim: shown from the planned forks, at 95%.
            AlsoSpec a = c.also();
            Measured am = measure(a.pairs(), a.metric(), all.upTo(AdaptiveRounds.PLANNED_FORKS), missing, notes, 1);
            also = new Also(a.label(), a.metric(), outcome(am.value, am.lo, am.hi, a.threshold(), a.upper()), round(a.threshold()),
                    a.upper(), Double.isNaN(am.value) ? null : round(am.value),
                    Double.isNaN(am.value) ? null : new double[] {round(am.lo), round(am.hi)});
        }
        Cause cause = o != Outcome.DID_NOT_HOLD ? null : c.cause() != null ? c.cause() : Cause.UNKNOWN;
        return new Verdict(c.id(), c.source(), c.wording(), c.metric(), o, c.claimed(), c.k(), round(c.threshold()),
                c.upper(), Double.isNaN(m.value) ? null : round(m.value),
                Double.isNaN(m.value) ? null : new double[] {round(m.lo), round(m.hi)}, reads, rule, summary,
                c.setup(), also, notes, missing, look, level, cause);
    }

    /** "95%", "98.75%". */
    static String percent(double level) {
        return new java.math.BigDecimal(level * 100).round(new java.math.MathContext(6)).stripTrailingZeros()
                .toPlainString() + "%";
    }

    /** A measured ratio and its interval (NaN when nothing could be formed). */
    private record Measured(double value, double lo, double hi) {}

    private static Measured measure(List<Pair> pairs, String metric, Table t, List<String> missing, List<String> notes,
                                    int look) {
        List<double[][]> grids = new ArrayList<>();
        for (Pair p : pairs) {
            Result a = best(t, p.a(), metric, missing);
            Result b = best(t, p.b(), metric, missing);
            Result c = p.c().isEmpty() ? null : best(t, p.c(), metric, missing);
            if (a == null || b == null || (!p.c().isEmpty() && c == null) || a == b) {
                continue;
            }
            grids.add(c == null ? Paired.costRatio(b, a, metric) : Paired.diminishing(a, b, c, metric));
            note(a, b, metric, notes);
        }
        if (grids.isEmpty()) {
            return new Measured(Double.NaN, Double.NaN, Double.NaN);
        }
        Bootstrap.Estimate e = Bootstrap.estimate(grids, AdaptiveRounds.resamples(look), Bootstrap.SEED,
                AdaptiveRounds.alpha(look));
        return new Measured(e.value(), e.lo(), e.hi());
    }

    /** Collections per 10^4 operations (allocation claims) and heap retained per stream (memory claims). */
    private static void note(Result a, Result b, String metric, List<String> notes) {
        if (metric.equals("allocation")) {
            for (Result r : List.of(a, b)) {
                long gcs = 0;
                long ms = 0;
                long ops = 0;
                for (Sample s : r.samples()) {
                    gcs += Math.max(0, s.gcCount());
                    ms += Math.max(0, s.gcMillis());
                    ops += s.ops();
                }
                notes.add(String.format(Locale.ROOT, "%s @ %s: %s B allocated per op; %.2f collections, %.1f ms of "
                        + "collection per 10^4 ops", r.variant(), r.param(), num(r.allocatedBytesPerOp() == null ? -1
                        : r.allocatedBytesPerOp().median()), gcs * 1e4 / Math.max(1, ops), ms * 1e4 / Math.max(1, ops)));
            }
        } else if (metric.equals("memory")) {
            for (Result r : List.of(a, b)) {
                notes.add(String.format(Locale.ROOT, "%s @ %s: %s B of heap retained per open stream", r.variant(),
                        r.param(), num(medianCost(r, metric))));
            }
        }
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    /** The measured cell among {@code cells} with the lowest median cost; names the unmeasured ones in {@code missing}. */
    static Result best(Table t, List<Cell> cells, String metric, List<String> missing) {
        Result best = null;
        double bestCost = Double.POSITIVE_INFINITY;
        for (Cell c : cells) {
            Result r = t.get(c.variant(), c.param());
            if (r == null) {
                String m = c.variant() + " @ " + c.param();
                if (!missing.contains(m)) {
                    missing.add(m);
                }
                continue;
            }
            double cost = medianCost(r, metric);
            if (!Double.isNaN(cost) && cost < bestCost) {
                best = r;
                bestCost = cost;
            }
        }
        return best;
    }

    /** The median over a result's samples of its cost per byte on {@code metric} (NaN if never measured). */
    static double medianCost(Result r, String metric) {
        double[] v = r.samples().stream().mapToDouble(s -> s.costPerByte(metric)).filter(d -> !Double.isNaN(d))
                .toArray();
        return v.length == 0 ? Double.NaN : Bootstrap.median(v, v.length);
    }

    /**
     * The outcome from the estimate {@code value} and its interval [{@code lo}, {@code hi}], each asked one question.
     * The estimate against the threshold widened by the {@link #MARGIN} (its run-to-run spread): is it clearly on one
     * side? The interval against the threshold itself (the article's): could this run's sampling error put the truth
     * on the other side? Held needs both yes on the upper side, did not hold both on the lower; anything else is
     * inconclusive. The margin was once put on the interval's ends (held when lo >= t x 1.02): that made the end of a
     * 3-fork interval the decision statistic, whose spread between runs (its width estimated from 3 forks) was two to
     * four times the estimate's, and claims 2-4% from the threshold split between runs. A wrong verdict (held while
     * the truth is below t, did not hold while it is at or above) still needs the interval to miss the truth on that
     * side: the error bound of the looks ({@link AdaptiveRounds}) is unchanged.
     */
    static Outcome outcome(double value, double lo, double hi, double threshold, Double upper) {
        if (Double.isNaN(value) || Double.isNaN(lo) || Double.isNaN(hi)) {
            return Outcome.INCONCLUSIVE;
        }
        double up = 1 + MARGIN;
        if (upper == null) {
            return value >= threshold * up && lo >= threshold ? Outcome.HELD
                    : value < threshold / up && hi < threshold ? Outcome.DID_NOT_HOLD : Outcome.INCONCLUSIVE;
        }
        if (value >= threshold * up && value <= upper / up && lo >= threshold && hi <= upper) {
            return Outcome.HELD;
        }
        return (value < threshold / up && hi < threshold) || (value > upper * up && lo > upper)
                ? Outcome.DID_NOT_HOLD : Outcome.INCONCLUSIVE;
    }

    /** Whether an estimate lies within the margin of the threshold (or of a band's upper end). */
    static boolean withinMargin(double value, double threshold, Double upper) {
        double up = 1 + MARGIN;
        return (value >= threshold / up && value < threshold * up)
                || (upper != null && value > upper / up && value <= upper * up);
    }

    /**
     * Whether another fork could change an inconclusive verdict. Yes where the estimate lies outside the margin (the
     * interval straddles the threshold: more forks narrow it), and also where it lies within the margin but the
     * interval reaches past the margin on both sides of that threshold: the forks disagree so much that the run cannot
     * say on which side of the margin the estimate belongs (C14, 2026-11-28: one fork at 1.01 among 1.07-1.10 pulled
     * the estimate to 1.059, inside the margin, and the verdict stopped there). An estimate within the margin whose
     * interval does not span it stays within it as the interval narrows: no look (the budget goes where it can help).
     */
    static boolean worthAnotherLook(Outcome o, double value, double lo, double hi, ClaimSpec c) {
        if (o != Outcome.INCONCLUSIVE || Double.isNaN(value)) {
            return false;
        }
        if (!withinMargin(value, c.threshold(), c.upper())) {
            return true;
        }
        double up = 1 + MARGIN;
        double edge = value >= c.threshold() / up && value < c.threshold() * up ? c.threshold() : c.upper();
        return lo < edge / up && hi >= edge * up;
    }

    /** "4.6x", "1.08x". */
    static String x(double r) {
        return String.format(Locale.ROOT, r >= 10 ? "%.1fx" : "%.2fx", r);
    }

    /** Array size from "array 512 B", or -1. */
    static long arrayOf(String param) {
        return param.startsWith("array ") ? parseSize(param.substring(6)) : -1;
    }

    /** Bytes from "512 B", "64 KiB", "5 MB", or -1. */
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

    /** The size a variant's name ends with ("JDK buffer 64 KiB"), or -1. */
    static long trailingSize(String variant) {
        String[] w = variant.trim().split(" ");
        return w.length < 2 ? -1 : parseSize(w[w.length - 2] + " " + w[w.length - 1]);
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

        /** The same results with only the samples of forks below {@code forks} (for judging one look). */
        Table upTo(int forks) {
            List<Result> out = new ArrayList<>();
            for (Result r : results) {
                out.add(r.limitedTo(forks));
            }
            return new Table(out);
        }

        /** Whether every measured cell of {@code pairs} has samples from fork {@code fork} (and one cell at least). */
        boolean ranIn(List<Pair> pairs, int fork) {
            int ran = 0;
            for (Pair p : pairs) {
                for (List<Cell> side : List.of(p.a(), p.b(), p.c())) {
                    for (Cell c : side) {
                        Result r = get(c.variant(), c.param());
                        if (r == null) {
                            continue;
                        }
                        if (r.samples().stream().noneMatch(s -> s.fork() == fork)) {
                            return false;
                        }
                        ran++;
                    }
                }
            }
            return ran > 0;
        }

        Result get(String variant, String param) {
            for (Result r : results) {
                if (r.measured() && r.variant().equals(variant) && r.param().equals(param)) {
                    return r;
                }
            }
            return null;
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
