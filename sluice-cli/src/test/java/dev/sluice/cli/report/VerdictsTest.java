package dev.sluice.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.cli.report.Report.AdviceSpec;
import dev.sluice.cli.report.Report.Cell;
import dev.sluice.cli.report.Report.ClaimSpec;
import dev.sluice.cli.report.Report.Outcome;
import dev.sluice.cli.report.Report.Pair;
import dev.sluice.cli.report.Report.Recommendation;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Sample;
import dev.sluice.cli.report.Report.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generic judge: claims as sluice-bench declares them, judged on synthetic samples of known ratios. */
class VerdictsTest {
    static final int FORKS = 3;
    static final int ROUNDS = 6;

    /**
     * A result of 3 forks x 6 rounds whose speed is {@code mbs} MB/s times a fixed, small wobble per round (+-2%,
     * the same for every variant in a round, as load from elsewhere is) and per variant (+-1%). Its CPU time is
     * {@code cpuShare} of its wall time; it allocates {@code alloc} bytes per op and retains {@code alloc / 2}.
     */
    static Result r(String variant, String param, double mbs, double cpuShare, long alloc) {
        List<Sample> s = new ArrayList<>();
        int salt = Math.floorMod(variant.hashCode() * 31 + param.hashCode(), 7);
        for (int f = 0; f < FORKS; f++) {
            for (int k = 0; k < ROUNDS; k++) {
                double load = 1 + 0.02 * Math.sin(f * 7 + k);
                double own = 1 + 0.01 * Math.cos(k * 3 + f + salt);
                long bytes = 1_000_000;
                long nanos = Math.round(bytes * 1e3 / (mbs * load * own));
                s.add(new Sample(f, k, 0, nanos, bytes, 1, Math.round(nanos * cpuShare), Math.round(alloc * own), 1, 2,
                        alloc / 2));
            }
        }
        return Result.of(variant, param, 1_000_000, s, null);
    }

    static Result r(String variant, String param, double mbs) {
        return r(variant, param, mbs, 1, 1000);
    }

    static List<Cell> cells(String param, String... variants) {
        List<Cell> out = new ArrayList<>();
        for (String v : variants) {
            out.add(new Cell(v, param));
        }
        return out;
    }

    static ClaimSpec claim(String rule, double k, String metric, boolean cold, Pair... pairs) {
        double t = rule.equals("BETTER") || rule.equals("DIMINISHING") ? 1 + (k - 1) / 2 : 1 / 1.1;
        return new ClaimSpec("C99", "A", "title", "2000", "A beats B", "claimed", rule, k, t,
                rule.equals("EQUIVALENT") ? 1.1 : null, metric, "set-up", cold, List.of(pairs), null, null);
    }

    static Verdict judge(ClaimSpec c, Result... rs) {
        return Verdicts.judge(c, List.of(rs), "page-cached");
    }

    @Test
    void statsAreOverEverySample() {
        Result x = r("v", "p", 500);
        assertEquals(FORKS, x.forks());
        assertEquals(FORKS * ROUNDS, x.samples().size());
        assertEquals(500, x.mbPerSec().median(), 15);
        assertTrue(x.mbPerSecCi()[0] <= x.mbPerSec().median() && x.mbPerSec().median() <= x.mbPerSecCi()[1]);
        assertEquals(1000, x.allocatedBytesPerOp().median(), 15);
        assertTrue(x.cpuNanosPerOp().median() > 0);
        Result failed = Result.of("v", "p", 10, List.of(), "IOException: boom");
        assertTrue(!failed.measured());
        assertEquals("IOException: boom", failed.error());
    }

    @Test
    void betterHoldsAtHalfTheClaimedAdvantage() {
        ClaimSpec c = claim("BETTER", 3, "time", false, new Pair(cells("copy", "fast", "faster"), cells("copy", "jdk"), null));
        Verdict v = judge(c, r("jdk", "copy", 100), r("fast", "copy", 250), r("faster", "copy", 220));
        assertEquals(Outcome.HELD, v.outcome(), v.summary());   // the best of A's cells: 2.5x >= 2
        assertEquals(2.5, v.measured(), 0.05);
        assertTrue(v.ci()[0] <= 2.5 && 2.5 <= v.ci()[1], v.summary());
        assertEquals("C99", v.id());
        assertEquals("time", v.metric());
        assertEquals(Outcome.DID_NOT_HOLD, judge(c, r("jdk", "copy", 100), r("fast", "copy", 150)).outcome());
        assertEquals(Outcome.INCONCLUSIVE, judge(c, r("jdk", "copy", 100), r("fast", "copy", 200)).outcome(),
                "an interval straddling the threshold");
    }

    /**
     * The margin bounds the estimate, the interval the threshold itself: held needs the estimate at or above t x 1.02
     * and the whole interval at or above t; did not hold the estimate below t / 1.02 and the whole interval below t.
     * Either short of it is inconclusive, however narrow the interval.
     */
    @Test
    void theMarginBoundsTheEstimateAndTheIntervalTheThreshold() {
        assertEquals(0.02, Verdicts.MARGIN, 0);
        assertEquals(Outcome.HELD, Verdicts.outcome(1.0711, 1.05, 1.2, 1.05, null), "estimate past the margin, lo at t");
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.outcome(1.0709, 1.06, 1.08, 1.05, null),
                "a narrow interval above t, the estimate within the margin");
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.outcome(1.09, 1.0499, 1.12, 1.05, null),
                "the estimate past the margin, the interval reaching below t");
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.outcome(1.035, 1.031, 1.04, 1.05, null), "below t, within the margin");
        assertEquals(Outcome.DID_NOT_HOLD, Verdicts.outcome(1.0293, 1.0, 1.0499, 1.05, null));
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.outcome(1.02, 1.0, 1.05, 1.05, null), "hi reaches t");
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.outcome(Double.NaN, 1.0, 1.2, 1.05, null));
        double lo = 1 / 1.1;
        assertEquals(Outcome.HELD, Verdicts.outcome(1.0, lo, 1.1, lo, 1.1), "estimate inside the narrowed band, "
                + "interval inside the band");
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.outcome(0.92, 0.915, 0.93, lo, 1.1), "within the margin of its lower end");
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.outcome(1.0, 0.95, 1.101, lo, 1.1), "interval past the upper end");
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.outcome(1.09, 1.07, 1.099, lo, 1.1), "within the margin of its upper end");
        assertEquals(Outcome.DID_NOT_HOLD, Verdicts.outcome(0.85, 0.8, 0.9, lo, 1.1));
        assertEquals(Outcome.DID_NOT_HOLD, Verdicts.outcome(1.13, 1.101, 1.3, lo, 1.1));
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.outcome(0.89, 0.8, 0.92, lo, 1.1), "hi reaches into the band");
        assertTrue(Verdicts.withinMargin(1.05, 1.05, null) && Verdicts.withinMargin(1.03, 1.05, null));
        assertTrue(!Verdicts.withinMargin(1.0711, 1.05, null) && !Verdicts.withinMargin(1.0293, 1.05, null));
        assertTrue(Verdicts.withinMargin(1.11, lo, 1.1) && !Verdicts.withinMargin(1.0, lo, 1.1));
        assertTrue(Verdicts.ruleText("r.").endsWith("within the margin is inconclusive here."));
        assertTrue(Verdicts.MARGIN_TEXT.contains("applied to the estimate"), Verdicts.MARGIN_TEXT);
        assertEquals(Verdicts.ruleText("r."), Verdicts.ruleText(Verdicts.ruleText("r.")), "added once");
        assertEquals(Verdicts.ruleText("r."), Verdicts.ruleText("r. Every threshold has a 2% margin, the spread of a "
                + "claim's estimate between runs: held needs the whole interval at or above t x 1.02."),
                "an earlier version's margin sentence is replaced");
    }

    @Test
    void aClaimOverSeveralComparisonsTakesTheirGeometricMean() {
        ClaimSpec c = claim("BETTER", 1.1, "time", false, new Pair(cells("16 B", "ch"), cells("16 B", "fis"), null),
                new Pair(cells("4 KiB", "ch"), cells("4 KiB", "fis"), null));
        Verdict v = judge(c, r("fis", "16 B", 1), r("ch", "16 B", 1.44), r("fis", "4 KiB", 100), r("ch", "4 KiB", 100));
        assertEquals(1.2, v.measured(), 0.02);
        assertEquals(Outcome.HELD, v.outcome(), v.summary());
    }

    @Test
    void asFastOneWayAndBothWays() {
        Pair p = new Pair(cells("p", "a"), cells("p", "b"), null);
        assertEquals(Outcome.HELD, judge(claim("NOT_WORSE", 1, "time", false, p), r("a", "p", 150), r("b", "p", 100)).outcome());
        assertEquals(Outcome.HELD, judge(claim("NOT_WORSE", 1, "time", false, p), r("a", "p", 97), r("b", "p", 100)).outcome());
        assertEquals(Outcome.DID_NOT_HOLD, judge(claim("NOT_WORSE", 1, "time", false, p), r("a", "p", 70), r("b", "p", 100)).outcome());
        assertEquals(Outcome.HELD, judge(claim("EQUIVALENT", 1, "time", false, p), r("a", "p", 103), r("b", "p", 100)).outcome());
        assertEquals(Outcome.DID_NOT_HOLD, judge(claim("EQUIVALENT", 1, "time", false, p), r("a", "p", 150), r("b", "p", 100)).outcome(),
                "far faster is not 'as fast' both ways");
    }

    @Test
    void diminishingGainsAreTheRatioOfTwoGains() {
        ClaimSpec c = claim("DIMINISHING", 1.1, "time", false, new Pair(cells("null", "8"), cells("null", "4"),
                cells("null", "16", "64")));
        // 8 over 4: 1.3x; the better of 16 and 64 over 8: 1.04x -> 1.25
        Verdict v = judge(c, r("4", "null", 100), r("8", "null", 130), r("16", "null", 135.2), r("64", "null", 120));
        assertEquals(1.3 / 1.04, v.measured(), 0.03);
        assertEquals(Outcome.HELD, v.outcome(), v.summary());
    }

    @Test
    void cpuAllocationAndMemoryAreCostsPerByte() {
        Pair p = new Pair(cells("copy", "transferTo"), cells("copy", "loop"), null);
        Verdict cpu = judge(claim("BETTER", 2, "cpu", false, p), r("transferTo", "copy", 100, 0.25, 10),
                r("loop", "copy", 100, 1, 10));
        assertEquals(4, cpu.measured(), 0.1);   // same speed, a quarter of the CPU
        assertEquals(Outcome.HELD, cpu.outcome());
        Verdict alloc = judge(claim("BETTER", 1.1, "allocation", false, p), r("transferTo", "copy", 100, 1, 900),
                r("loop", "copy", 100, 1, 600));
        assertEquals(600.0 / 900, alloc.measured(), 0.02);
        assertEquals(Outcome.DID_NOT_HOLD, alloc.outcome());
        assertTrue(alloc.notes().get(0).contains("collections") && alloc.notes().get(0).contains("per 10^4 ops"),
                alloc.notes().toString());
        Verdict mem = judge(claim("BETTER", 2, "memory", false, p), r("transferTo", "copy", 100, 1, 100),
                r("loop", "copy", 100, 1, 3200));
        assertEquals(32, mem.measured(), 1);
        assertTrue(mem.notes().get(1).contains("retained per open stream"), mem.notes().toString());
    }

    @Test
    void aMissingCellIsNamedAndLeavesTheClaimInconclusive() {
        ClaimSpec c = claim("BETTER", 1.1, "time", false, new Pair(cells("p", "a"), cells("p", "gone"), null));
        Verdict v = judge(c, r("a", "p", 100));
        assertEquals(Outcome.INCONCLUSIVE, v.outcome());
        assertNull(v.measured());
        assertEquals(List.of("gone @ p"), v.missing());
        assertNull(v.cause(), "inconclusive is no change from the article");
    }

    /**
     * A claim about disks is not judged from page-cached samples, even where its cells were measured (C24 names
     * C22's cells): no ratio, no interval, no cause; under --cold it is judged as any other claim.
     */
    @Test
    void aDiskClaimIsNotJudgedInAPageCachedRun() {
        ClaimSpec c = claim("NOT_WORSE", 1, "time", true, new Pair(cells("p", "a"), cells("p", "b"), null));
        Verdict v = judge(c, r("a", "p", 50), r("b", "p", 100));
        assertEquals(Outcome.NOT_JUDGED, v.outcome());
        assertEquals("not judged here", v.outcome().text());
        assertNull(v.measured());
        assertNull(v.ci());
        assertNull(v.cause());
        assertEquals(List.of(), v.missing());
        assertEquals(0, v.looks());
        assertTrue(v.summary().contains("rerun with --cold"), v.summary());
        Verdict cold = Verdicts.judge(c, List.of(r("a", "p", 50), r("b", "p", 100)), "cold");
        assertEquals(Outcome.DID_NOT_HOLD, cold.outcome());
        assertEquals("cold", cold.reads());
        assertEquals(0.5, cold.measured(), 0.02);
    }

    /** A claim that did not hold carries its declared cause, or "cause unknown"; any other outcome none. */
    @Test
    void aClaimThatDidNotHoldSaysWhyOrThatTheCauseIsUnknown() {
        Pair p = new Pair(cells("p", "a"), cells("p", "b"), null);
        ClaimSpec plain = claim("BETTER", 1.1, "time", false, p);
        Report.Cause known = new Report.Cause("A JDK change.", List.of("https://bugs.openjdk.org/browse/JDK-8192939"));
        ClaimSpec documented = new ClaimSpec("C13", "C", "t", "2017", "a beats b", "more GC", "BETTER", 1.1, 1.05,
                null, "time", "set-up", false, List.of(p), null, known);
        assertEquals(known, judge(documented, r("a", "p", 90), r("b", "p", 100)).cause());
        assertEquals(Report.Cause.UNKNOWN, judge(plain, r("a", "p", 90), r("b", "p", 100)).cause());
        assertEquals("cause unknown", Report.Cause.UNKNOWN.text());
        Verdict held = judge(documented, r("a", "p", 150), r("b", "p", 100));
        assertEquals(Outcome.HELD, held.outcome());
        assertNull(held.cause());
    }

    static AdviceSpec advice(String... candidates) {
        return new AdviceSpec("basis", "Use %s", List.of("p"), List.of(candidates), "B", null, List.of());
    }

    @Test
    void aStrategyIsRecommendedOnlyWhenItLeadsByTheBandAndInEveryFork() {
        List<Recommendation> out = new ArrayList<>();
        Verdicts.Table clear = new Verdicts.Table(List.of(r("A", "p", 130), r("B", "p", 100), r("C", "p", 50)));
        Recommendations.strategy(out, Recommendations.cells(clear, advice("A", "B", "C")), advice("A", "B", "C"));
        assertEquals("A", out.get(0).choice());
        assertEquals(1.3, out.get(0).ratio(), 0.02);
        // A 3% lead measured without doubt is still inside the practical-equivalence band.
        Verdicts.Table tie = new Verdicts.Table(List.of(r("A", "p", 103), r("B", "p", 100)));
        Recommendations.strategy(out, Recommendations.cells(tie, advice()), advice());
        assertEquals(Recommendations.NO_DIFFERENCE, out.get(1).choice());
        assertTrue(out.get(1).advice().contains("the default, B, will do"), out.get(1).advice());
    }

    @Test
    void aWinnerBehindInOneForkIsNoMeasurableDifference() {
        // A ahead by 20% in forks 0 and 1, behind by 5% in fork 2.
        double[][] ratio = {{1.2, 1.2, 1.2}, {1.2, 1.2, 1.2}, {0.95, 0.95, 0.95}};
        assertTrue(!Recommendations.aheadInEveryFork(java.util.Collections.singletonList(ratio)));
        assertTrue(Recommendations.aheadInEveryFork(java.util.Collections.singletonList(new double[][] {{1.1}, {1.01}, {1.2}})));
    }

    @Test
    void keepingTheBuiltInSizePrintsNoFlag() {
        AdviceSpec a = new AdviceSpec("E2", "the buffer", List.of("array 8 B", "array 512 B"),
                List.of("S 8 KiB", "S 64 KiB", "S 1 MiB"), "S 64 KiB", "sluice.io.bufferSize",
                List.of(8192L, 65536L, 1L << 20));
        List<Result> rs = new ArrayList<>();
        for (String array : a.params()) {
            rs.add(r("S 8 KiB", array, 100.3));
            rs.add(r("S 64 KiB", array, 100));
        }
        Recommendation keep = Recommendations.sized(a, Recommendations.cells(new Verdicts.Table(rs), a)).orElseThrow();
        assertEquals(Recommendations.NO_DIFFERENCE, keep.choice());
        assertNull(keep.jvmFlag());
        assertTrue(keep.advice().contains("keep the buffer at the built-in 64 KiB"), keep.advice());
        for (String array : a.params()) {
            rs.add(r("S 1 MiB", array, 130));
        }
        Recommendation change = Recommendations.sized(a, Recommendations.cells(new Verdicts.Table(rs), a)).orElseThrow();
        assertEquals("1048576", change.choice());
        assertEquals("-Dsluice.io.bufferSize=1048576", change.jvmFlag());
    }

    @Test
    void sizesParse() {
        assertEquals(512, Verdicts.arrayOf("array 512 B"));
        assertEquals(500_000, Verdicts.parseSize("500 KB"));
        assertEquals(65536, Verdicts.trailingSize("Sluice buffer 64 KiB"));
        assertEquals(-1, Verdicts.parseSize("lots"));
    }
}
