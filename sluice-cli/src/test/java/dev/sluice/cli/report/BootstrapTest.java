package dev.sluice.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The report's estimator and interval on synthetic samples whose true ratio is known. */
class BootstrapTest {

    /** Ratios {@code truth x exp(fork effect) x exp(round noise)} for forks x rounds, log-normal, seeded. */
    static double[][] grid(Random rnd, double truth, int forks, int rounds, double forkSd, double roundSd) {
        double[][] g = new double[forks][rounds];
        for (int f = 0; f < forks; f++) {
            double fe = rnd.nextGaussian() * forkSd;
            for (int r = 0; r < rounds; r++) {
                g[f][r] = truth * Math.exp(fe + rnd.nextGaussian() * roundSd);
            }
        }
        return g;
    }

    @Test
    void aConstantRatioHasAPointInterval() {
        double[][] g = {{2, 2, 2}, {2, 2, 2}, {2, 2, 2}};
        Bootstrap.Estimate e = Bootstrap.estimate(java.util.Collections.singletonList(g), 500, 1);
        assertEquals(2, e.value(), 1e-12);
        assertEquals(2, e.lo(), 1e-12);
        assertEquals(2, e.hi(), 1e-12);
    }

    /**
     * A pair of cases measured only in the comparison's rounds, beside a claim's own rounds (rounds 3 and 4 here,
     * where only the claim's two cells ran): the ratio grid keeps the rounds some fork measured, so that the
     * bootstrap draws each fork's rounds from the three it has rather than from five, two of them empty.
     */
    @Test
    void roundsNoForkMeasuredLeaveTheRatioGrid() {
        double n = Double.NaN;
        double[][] g = {{1, 2, 3, n, n}, {4, n, 6, n, n}};
        double[][] kept = Paired.withoutEmptyRounds(g);
        assertEquals(2, kept.length);
        assertEquals(List.of(1.0, 2.0, 3.0), java.util.Arrays.stream(kept[0]).boxed().toList());
        assertEquals(4, kept[1][0]);
        assertTrue(Double.isNaN(kept[1][1]), "a round one fork measured stays, NaN where the other did not");
        assertEquals(6, kept[1][2]);
        double[][] full = {{1, 2}, {3, 4}};
        assertTrue(full == Paired.withoutEmptyRounds(full), "a full grid is returned as it is");
    }

    @Test
    void theEstimateIsTheMedianAndSeveralGridsTheirGeometricMean() {
        double[][] a = {{1, 2, 3}, {4, 5, 100}};          // median of the six cells: 3.5
        double[][] b = {{8, 8, 8}, {8, 8, 8}};
        assertEquals(3.5, Bootstrap.estimate(java.util.Collections.singletonList(a), 100, 1).value(), 1e-12);
        assertEquals(Math.sqrt(3.5 * 8), Bootstrap.estimate(List.of(a, b), 100, 1).value(), 1e-12);
        double[][] holes = {{Double.NaN, 2, 4}, {Double.NaN, Double.NaN, 6}};
        assertEquals(4, Bootstrap.estimate(java.util.Collections.singletonList(holes), 100, 1).value(), 1e-12, "missing cells are skipped");
    }

    @Test
    void knownRatiosAreFoundInsideTheirIntervals() {
        long seed = 42;
        System.out.println("BootstrapTest seed " + seed);
        Random rnd = new Random(seed);
        for (double truth : new double[] {0.5, 1.0, 1.3, 3.0, 8.5}) {
            Bootstrap.Estimate e = Bootstrap.estimate(java.util.Collections.singletonList(grid(rnd, truth, 3, 6, 0.01, 0.03)), 2000, seed);
            assertEquals(truth, e.value(), truth * 0.05, "point estimate of " + truth);
            assertTrue(e.lo() <= truth && truth <= e.hi(), truth + " in [" + e.lo() + ", " + e.hi() + "]");
            assertTrue(e.hi() / e.lo() < 1.15, "narrow for small noise: [" + e.lo() + ", " + e.hi() + "]");
        }
    }

    /**
     * Coverage: over many simulated runs (3 forks x 6 rounds, fork effects and round noise as seen on a shared
     * 2-core machine), the 95% interval contains the true ratio about 95% of the time. The band is tight enough to
     * fail an interval half as wide (~70% coverage) or one that ignores the fork stage when forks differ.
     */
    @Test
    @Timeout(60)
    void intervalsCoverTheTrueRatioAbout95PercentOfTheTime() {
        long seed = 20261123;
        System.out.println("BootstrapTest coverage seed " + seed);
        Random rnd = new Random(seed);
        int sims = 600;
        int covered = 0;
        double truth = 1.3;
        for (int i = 0; i < sims; i++) {
            double[][] g = grid(rnd, truth, 3, 6, 0.02, 0.06);
            Bootstrap.Estimate e = Bootstrap.estimate(java.util.Collections.singletonList(g), 1000, rnd.nextLong());
            if (e.lo() <= truth && truth <= e.hi()) {
                covered++;
            }
        }
        double coverage = (double) covered / sims;
        System.out.println("BootstrapTest coverage " + coverage);
        assertTrue(coverage >= 0.90 && coverage <= 0.99, "coverage " + coverage);
    }
}
