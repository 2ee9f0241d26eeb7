package dev.sluice.cli.report;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The report's one estimator and its interval. Data are grids {@code [fork][round]} (NaN where a sample is
 * missing). The estimate of one grid is the median of its cells; of several grids (a claim over several sizes), the
 * geometric mean of their medians. The 95% interval is a two-stage (hierarchical) percentile bootstrap: each resample
 * draws the forks with replacement, then, within each drawn fork, its rounds with replacement, and the same draw is
 * applied to every grid, so that cells measured in the same round stay together. Forks are the outer stage because
 * a JVM's JIT decisions and memory layout make whole forks differ; rounds within a fork differ by machine noise.
 *
 * <p>Seeded: the same samples always give the same interval.
 */
final class Bootstrap {
    private Bootstrap() {}

    static final int RESAMPLES = 2000;
    static final long SEED = 0x5107CEL;

    /** A point estimate and its 95% interval. */
    record Estimate(double value, double lo, double hi) {
        boolean excludesOne() {
            return lo > 1 || hi < 1;
        }
    }

    static Estimate estimate(List<double[][]> grids, int resamples, long seed) {
        return estimate(grids, resamples, seed, 0.05);
    }

    /** As {@link #estimate(List, int, long)}, with a (1 - alpha) interval: alpha / 2 cut from each tail. */
    static Estimate estimate(List<double[][]> grids, int resamples, long seed, double alpha) {
        int forks = 0;
        int rounds = 0;
        for (double[][] g : grids) {
            forks = Math.max(forks, g.length);
            for (double[] row : g) {
                rounds = Math.max(rounds, row.length);
            }
        }
        double point = statistic(grids, identity(forks), identityRounds(forks, rounds));
        if (forks == 0 || rounds == 0 || Double.isNaN(point)) {
            return new Estimate(Double.NaN, Double.NaN, Double.NaN);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] stats = new double[resamples];
        int n = 0;
        for (int b = 0; b < resamples; b++) {
            double s = statistic(grids, draw(rnd, forks), drawRounds(rnd, forks, rounds));
            if (!Double.isNaN(s)) {
                stats[n++] = s;
            }
        }
        if (n == 0) {
            return new Estimate(point, Double.NaN, Double.NaN);
        }
        double[] sorted = Arrays.copyOf(stats, n);
        Arrays.sort(sorted);
        return new Estimate(point, quantile(sorted, alpha / 2), quantile(sorted, 1 - alpha / 2));
    }

    /**
     * The ratio of the medians of two independent grids (two runs, e.g. this report and a baseline: their samples
     * are not paired), with a 95% interval from resampling each grid on its own, in the same two stages.
     */
    static Estimate ratioOfMedians(double[][] a, double[][] b, int resamples, long seed) {
        List<double[][]> ga = java.util.Collections.singletonList(a);
        List<double[][]> gb = java.util.Collections.singletonList(b);
        double point = statistic(ga, identity(a.length), identityRounds(a.length, width(a)))
                / statistic(gb, identity(b.length), identityRounds(b.length, width(b)));
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] stats = new double[resamples];
        int n = 0;
        for (int i = 0; i < resamples; i++) {
            double s = statistic(ga, draw(rnd, a.length), drawRounds(rnd, a.length, width(a)))
                    / statistic(gb, draw(rnd, b.length), drawRounds(rnd, b.length, width(b)));
            if (!Double.isNaN(s)) {
                stats[n++] = s;
            }
        }
        if (n == 0 || Double.isNaN(point)) {
            return new Estimate(point, Double.NaN, Double.NaN);
        }
        double[] sorted = Arrays.copyOf(stats, n);
        Arrays.sort(sorted);
        return new Estimate(point, quantile(sorted, 0.025), quantile(sorted, 0.975));
    }

    private static int width(double[][] g) {
        int w = 0;
        for (double[] row : g) {
            w = Math.max(w, row.length);
        }
        return w;
    }

    private static int[] draw(SplittableRandom rnd, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = rnd.nextInt(n);
        }
        return a;
    }

    private static int[][] drawRounds(SplittableRandom rnd, int forks, int rounds) {
        int[][] a = new int[forks][];
        for (int f = 0; f < forks; f++) {
            a[f] = rounds == 0 ? new int[0] : draw(rnd, rounds);
        }
        return a;
    }

    /** Geometric mean over the grids of the median of the picked cells; NaN if a grid has none. */
    static double statistic(List<double[][]> grids, int[] forks, int[][] rounds) {
        double logSum = 0;
        int size = 0;
        for (int[] r : rounds) {
            size += r.length;
        }
        double[] cells = new double[size];
        for (double[][] g : grids) {
            int n = 0;
            for (int i = 0; i < forks.length; i++) {
                int f = forks[i];
                if (f >= g.length) {
                    continue;
                }
                for (int r : rounds[i]) {
                    if (r < g[f].length && !Double.isNaN(g[f][r])) {
                        cells[n++] = g[f][r];
                    }
                }
            }
            if (n == 0) {
                return Double.NaN;
            }
            logSum += Math.log(median(cells, n));
        }
        return grids.isEmpty() ? Double.NaN : Math.exp(logSum / grids.size());
    }

    static double median(double[] xs, int n) {
        double[] v = Arrays.copyOf(xs, n);
        Arrays.sort(v);
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** Linear interpolation between the order statistics (type 7, R's default). */
    static double quantile(double[] sorted, double p) {
        double h = (sorted.length - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    private static int[] identity(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    private static int[][] identityRounds(int forks, int rounds) {
        int[][] a = new int[forks][];
        for (int f = 0; f < forks; f++) {
            a[f] = identity(rounds);
        }
        return a;
    }
}
