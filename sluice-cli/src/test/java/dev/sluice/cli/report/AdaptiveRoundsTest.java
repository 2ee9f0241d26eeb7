package dev.sluice.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.report.Report.Cell;
import dev.sluice.cli.report.Report.ClaimSpec;
import dev.sluice.cli.report.Report.Outcome;
import dev.sluice.cli.report.Report.Pair;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Sample;
import dev.sluice.cli.report.Report.Verdict;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adaptive rule on seeded synthetic samples: a claim whose interval straddles its threshold after the planned
 * forks is judged again with each extra fork of its cells, at the widened level of that look, until it clears or the
 * looks run out; the loop that takes the looks runs only the straddling claims and never starts a fork the budget
 * cannot hold.
 */
class AdaptiveRoundsTest {
    static final long SEED = 0x33A;
    static final int ROUNDS = 6;

    @TempDir
    Path dir;

    /** The threshold whose margin's upper edge is 1.05: held from 1.05, did not hold below 1.05 / 1.02^2 (~1.009). */
    static final double T = 1.05 / (1 + Verdicts.MARGIN);

    /** "a" over "b" on time, "faster", with threshold {@link #T}. */
    static ClaimSpec claim(String id, String param) {
        return new ClaimSpec(id, "C", "title", "2017", "a beats b", "faster", "BETTER", 1.1, T, null, "time",
                "set-up", false, List.of(new Pair(List.of(new Cell("a", param)), List.of(new Cell("b", param)), null)),
                null, null);
    }

    /**
     * Samples of "a" and "b" at {@code param} in {@code forks}: b at 100 MB/s, a at 100 × ratio × the fork's own
     * effect × round noise (1%), both under the same round load. Seeded per fork, so a fork's samples are the same
     * whichever look asks for them.
     */
    static List<Result> cells(String param, double ratio, double forkSpread, int... forks) {
        List<Sample> a = new ArrayList<>();
        List<Sample> b = new ArrayList<>();
        for (int f : forks) {
            SplittableRandom rnd = new SplittableRandom(SEED * 31 + f * 7L + param.hashCode());
            double forkEffect = Math.exp(forkSpread * gaussian(rnd));
            for (int k = 0; k < ROUNDS; k++) {
                double load = 1 + 0.05 * rnd.nextDouble();
                long bytes = 1_000_000;
                a.add(new Sample(f, k, 0, Math.round(bytes * 1e3 / (100 * ratio * forkEffect * load
                        * (1 + 0.01 * gaussian(rnd)))), bytes, 1));
                b.add(new Sample(f, k, 1, Math.round(bytes * 1e3 / (100 * load)), bytes, 1));
            }
        }
        return List.of(Result.of("a", param, 1_000_000, a, null), Result.of("b", param, 1_000_000, b, null));
    }

    private static double gaussian(SplittableRandom rnd) {
        double u = Math.max(1e-12, rnd.nextDouble());
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd.nextDouble());
    }

    private static int[] forks(int n) {
        int[] f = new int[n];
        for (int i = 0; i < n; i++) {
            f[i] = i;
        }
        return f;
    }

    @Test
    void levelsWidenSoThatTheLooksTogetherStayUnderFivePercent() {
        assertEquals(0.05, AdaptiveRounds.alpha(1), 0);
        double wrong = AdaptiveRounds.alpha(1) / 2;
        for (int look = 2; look <= 1 + AdaptiveRounds.MAX_EXTRA_LOOKS; look++) {
            assertEquals(AdaptiveRounds.alpha(look - 1) / 2, AdaptiveRounds.alpha(look), 1e-15);
            wrong += AdaptiveRounds.alpha(look) / 2;
        }
        assertTrue(wrong < 0.05, "one-sided error over every look: " + wrong);
        assertEquals("98.75%", Verdicts.percent(1 - AdaptiveRounds.alpha(3)));
    }

    @Test
    void aStraddlingClaimGetsMoreForksAndThenClears() {
        System.out.println("AdaptiveRoundsTest seed " + SEED);
        ClaimSpec c = claim("C91", "p");
        // The planned forks alone straddle 1.05 (T and its margin): forks differ by ~5% around a true 1.09.
        Verdict planned = Verdicts.judge(c, cells("p", 1.09, 0.05, forks(3)), "page-cached");
        assertEquals(Outcome.INCONCLUSIVE, planned.outcome(), planned.summary());
        assertEquals(1, planned.looks());
        assertTrue(planned.ci()[0] < 1.05 && planned.ci()[1] >= 1.05, planned.summary());
        // With every extra fork available the judge takes them one by one and stops as soon as the interval clears.
        Verdict extended = Verdicts.judge(c, cells("p", 1.09, 0.05, forks(3 + AdaptiveRounds.MAX_EXTRA_LOOKS)),
                "page-cached");
        assertEquals(Outcome.HELD, extended.outcome(), extended.summary());
        assertTrue(extended.looks() > 1 && extended.looks() <= 1 + AdaptiveRounds.MAX_EXTRA_LOOKS, extended.summary());
        assertEquals(1 - AdaptiveRounds.alpha(extended.looks()), extended.level(), 1e-12);
        assertTrue(extended.summary().contains("extra look"), extended.summary());
        // The same verdict from exactly the forks it used: the forks after its stop do not change it.
        Verdict exact = Verdicts.judge(c, cells("p", 1.09, 0.05, forks(2 + extended.looks())), "page-cached");
        assertEquals(extended.looks(), exact.looks());
        assertEquals(extended.measured(), exact.measured());
    }

    @Test
    void aClaimJustOutsideTheMarginEndsInconclusiveAfterTheLastLook() {
        ClaimSpec c = claim("C92", "p");
        // Estimates of 1.05-1.15, outside the margin (held from 1.05), but forks differ by ~8%, too much to clear it.
        Verdict v = Verdicts.judge(c, cells("p", 1.11, 0.08, forks(3 + AdaptiveRounds.MAX_EXTRA_LOOKS + 2)),
                "page-cached");
        assertEquals(Outcome.INCONCLUSIVE, v.outcome(), v.summary());
        assertEquals(1 + AdaptiveRounds.MAX_EXTRA_LOOKS, v.looks(), "no look past the last one: " + v.summary());
        assertEquals(1 - 0.05 / 16, v.level(), 1e-12);
        assertEquals(null, v.cause(), "inconclusive: no cause");
    }

    @Test
    void aClaimWithinTheMarginTakesNoExtraLook() {
        ClaimSpec c = claim("C96", "q");
        // On its threshold: more forks would narrow the interval round an estimate that stays within the margin.
        Verdict v = Verdicts.judge(c, cells("q", T, 0.01, forks(3 + AdaptiveRounds.MAX_EXTRA_LOOKS)),
                "page-cached");
        assertEquals(Outcome.INCONCLUSIVE, v.outcome(), v.summary());
        assertEquals(1, v.looks(), v.summary());
        assertTrue(v.summary().contains("within the 2% margin"), v.summary());
    }

    @Test
    void aClaimWhoseCellsMissedAForkStopsThere() {
        ClaimSpec c = claim("C93", "p");
        List<Result> rs = new ArrayList<>(cells("p", 1.12, 0.04, 0, 1, 2));
        // Only "a" ran in fork 3: the look cannot be judged, so the verdict stays at the planned forks.
        Result a4 = cells("p", 1.12, 0.04, 0, 1, 2, 3).get(0);
        rs.set(0, a4);
        Verdict v = Verdicts.judge(c, rs, "page-cached");
        assertEquals(1, v.looks());
        assertEquals(0.95, v.level(), 0);
    }

    // The loop that takes the looks -----------------------------------------------------------------------------

    /** Raw results of one fork: the claims and the cells of {@code params} (each with its own ratio and fork spread). */
    private Path raw(int fork, List<String> claimIds, List<ClaimSpec> claims, List<String> params, double[] ratios,
                     double[] spreads) throws IOException {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.put("format", RawResults.FORMAT).put("scale", "quick").put("harness", "quick in-process estimate")
                .put("reps", ROUNDS).put("fork", fork).put("reads", "page-cached").put("rule", "r").put("jvm", "j")
                .put("warmupNanos", 120_000_000L);
        if (claimIds != null) {
            root.set("claims", m.valueToTree(claimIds));
        }
        ObjectNode e = root.putArray("experiments").addObject();
        e.put("id", "E3").put("title", "t").put("claim", "c");
        e.set("claims", m.valueToTree(claims));
        e.putArray("advice");
        ArrayNode cases = e.putArray("cases");
        for (int i = 0; i < params.size(); i++) {
            // An extra look runs the experiment whole: every claim's cells, whichever claims it was for.
            for (Result r : cells(params.get(i), ratios[i], spreads[i], fork)) {
                ObjectNode cn = cases.addObject();
                cn.put("variant", r.variant()).put("param", r.param()).put("bytesPerOp", r.bytesPerOp());
                cn.set("samples", m.valueToTree(r.samples()));
            }
        }
        Path p = dir.resolve("raw-" + fork + ".json");
        m.writeValue(p.toFile(), root);
        return p;
    }

    @Test
    void onlyStraddlingClaimsGetForksAndTheBudgetIsNeverOverrun() throws IOException, InterruptedException {
        // C94 straddles at the planned forks and at every look after (forks differ by ~8% around 1.11); C95 holds at
        // once (3x); C96 sits on its threshold, within the margin, where no fork could settle it.
        List<ClaimSpec> claims = List.of(claim("C94", "p"), claim("C95", "r"), claim("C96", "s"));
        List<String> params = List.of("p", "r", "s");
        double[] ratios = {1.11, 3, T};
        double[] spreads = {0.08, 0.06, 0.005};
        List<Path> planned = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            planned.add(raw(f, null, claims, params, ratios, spreads));
        }
        AtomicLong clock = new AtomicLong();
        long second = 1_000_000_000L;
        List<String> ran = new ArrayList<>();
        AdaptiveRounds.Look look = (fork, ids) -> {
            ran.add(fork + ":" + ids);
            clock.addAndGet(8 * second);   // a fork takes 8 s
            return raw(fork, ids, claims, params, ratios, spreads);
        };
        // 262 s spent of 300: forks of 8 s start while the estimate says the run ends by 300 - 10 (the reserve).
        // The first estimate is 3 s (no fork timed yet); after one, a fork is known to cost 8 s.
        clock.set(262 * second);
        List<String> log = new ArrayList<>();
        List<Path> all = AdaptiveRounds.extend(planned, look, clock::get, 0, 300, log::add);
        assertEquals(List.of("3:[C94]", "4:[C94]", "5:[C94]"), ran, log.toString());
        assertTrue(clock.get() <= 290 * second, "within the budget less its reserve: " + clock.get() / second);
        assertEquals(3 + ran.size(), all.size());
        Verdict v = Verdicts.judge(RawResults.read(all).experiments().get(0), "page-cached").get(0);
        assertEquals(1 + ran.size(), v.looks(), v.summary());

        // 275 s spent: one fork of 3 s (the estimate) fits under 290, but after it took 8 s the next does not.
        ran.clear();
        clock.set(275 * second);
        AdaptiveRounds.extend(planned, look, clock::get, 0, 300, log::add);
        assertEquals(List.of("3:[C94]"), ran, log.toString());

        // 290 s spent, or a run without a budget (--tiny, --full): no extra fork at all.
        ran.clear();
        clock.set(290 * second);
        assertEquals(planned, AdaptiveRounds.extend(planned, look, clock::get, 0, 300, log::add));
        assertEquals(planned, AdaptiveRounds.extend(planned, look, clock::get, 0, 0, log::add));
        assertEquals(List.of(), ran);
        assertTrue(log.get(log.size() - 1).contains("budget is spent"), log.toString());
    }
}
