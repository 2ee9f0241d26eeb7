package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Sample;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Samples arranged for {@link Bootstrap}: a case's speeds as a grid {@code [fork][round]}, and the paired ratio of two
 * cases, cell by cell (the same fork and round: measured back to back, under the same load).
 */
final class Paired {
    private Paired() {}

    /** MB/s of each sample at [fork index][round]; forks are indexed in the order of their ids, NaN where missing. */
    static double[][] grid(List<Sample> samples) {
        return grid(samples, forkIds(samples, List.of()), rounds(samples, List.of()));
    }

    /**
     * Speed of {@code a} over speed of {@code b} per (fork, round) cell, NaN where either is missing. Forks are
     * matched by id, so a fork where one case failed drops out rather than shifting the others.
     */
    static double[][] ratio(Result a, Result b) {
        List<Integer> ids = forkIds(a.samples(), b.samples());
        int rounds = rounds(a.samples(), b.samples());
        double[][] ga = grid(a.samples(), ids, rounds);
        double[][] gb = grid(b.samples(), ids, rounds);
        double[][] r = new double[ids.size()][rounds];
        for (int f = 0; f < r.length; f++) {
            for (int k = 0; k < rounds; k++) {
                r[f][k] = ga[f][k] / gb[f][k];   // NaN propagates
            }
        }
        return withoutEmptyRounds(r);
    }

    /**
     * {@code b}'s cost over {@code a}'s on {@code metric} (per byte moved) per (fork, round) cell: above 1 where
     * {@code a} is cheaper. NaN where either is missing or not measured on that metric.
     */
    static double[][] costRatio(Result b, Result a, String metric) {
        List<Integer> ids = forkIds(a.samples(), b.samples());
        int rounds = rounds(a.samples(), b.samples());
        double[][] ga = costs(a.samples(), ids, rounds, metric);
        double[][] gb = costs(b.samples(), ids, rounds, metric);
        double[][] r = new double[ids.size()][rounds];
        for (int f = 0; f < r.length; f++) {
            for (int k = 0; k < rounds; k++) {
                r[f][k] = gb[f][k] / ga[f][k];
            }
        }
        return withoutEmptyRounds(r);
    }

    /**
     * (B / A) / (A / C) in costs per cell: A's gain over B divided by C's gain over A, above 1 where the gains
     * diminish from B to A to C.
     */
    static double[][] diminishing(Result a, Result b, Result c, String metric) {
        TreeSet<Integer> forks = new TreeSet<>(forkIds(a.samples(), b.samples()));
        c.samples().forEach(s -> forks.add(s.fork()));
        List<Integer> ids = new ArrayList<>(forks);
        int rounds = Math.max(rounds(a.samples(), b.samples()), rounds(c.samples(), List.of()));
        double[][] ga = costs(a.samples(), ids, rounds, metric);
        double[][] gb = costs(b.samples(), ids, rounds, metric);
        double[][] gc = costs(c.samples(), ids, rounds, metric);
        double[][] r = new double[ids.size()][rounds];
        for (int f = 0; f < r.length; f++) {
            for (int k = 0; k < rounds; k++) {
                r[f][k] = (gb[f][k] / ga[f][k]) / (ga[f][k] / gc[f][k]);
            }
        }
        return withoutEmptyRounds(r);
    }

    /**
     * The grid without the rounds that hold no ratio in any fork: a claim's own rounds (its two cells alone, after
     * the comparison's rounds; the runner's {@code Experiment.claimRounds}) are empty for the comparison's other
     * pairs, and the bootstrap must draw a fork's rounds from those that were measured, not from the width of the
     * widest case.
     */
    static double[][] withoutEmptyRounds(double[][] r) {
        int width = 0;
        for (double[] row : r) {
            width = Math.max(width, row.length);
        }
        boolean[] keep = new boolean[width];
        int kept = 0;
        for (int k = 0; k < width; k++) {
            for (double[] row : r) {
                if (k < row.length && !Double.isNaN(row[k])) {
                    keep[k] = true;
                }
            }
            kept += keep[k] ? 1 : 0;
        }
        if (kept == width) {
            return r;
        }
        double[][] out = new double[r.length][kept];
        for (int f = 0; f < r.length; f++) {
            int j = 0;
            for (int k = 0; k < width; k++) {
                if (keep[k]) {
                    out[f][j++] = k < r[f].length ? r[f][k] : Double.NaN;
                }
            }
        }
        return out;
    }

    private static double[][] costs(List<Sample> samples, List<Integer> ids, int rounds, String metric) {
        double[][] g = new double[ids.size()][rounds];
        for (double[] row : g) {
            Arrays.fill(row, Double.NaN);
        }
        for (Sample s : samples) {
            g[ids.indexOf(s.fork())][s.round()] = s.costPerByte(metric);
        }
        return g;
    }

    private static double[][] grid(List<Sample> samples, List<Integer> ids, int rounds) {
        double[][] g = new double[ids.size()][rounds];
        for (double[] row : g) {
            Arrays.fill(row, Double.NaN);
        }
        for (Sample s : samples) {
            g[ids.indexOf(s.fork())][s.round()] = s.mbPerSec();
        }
        return g;
    }

    private static List<Integer> forkIds(List<Sample> a, List<Sample> b) {
        TreeSet<Integer> ids = new TreeSet<>();
        a.forEach(s -> ids.add(s.fork()));
        b.forEach(s -> ids.add(s.fork()));
        return new ArrayList<>(ids);
    }

    private static int rounds(List<Sample> a, List<Sample> b) {
        int rounds = 0;
        for (Sample s : a) {
            rounds = Math.max(rounds, s.round() + 1);
        }
        for (Sample s : b) {
            rounds = Math.max(rounds, s.round() + 1);
        }
        return rounds;
    }

    /** Whether the median ratio is above 1 in every fork that has one (the winner won in each JVM). */
    static boolean winsInEveryFork(double[][] ratio) {
        int forks = 0;
        for (double[] row : ratio) {
            double[] v = Arrays.stream(row).filter(x -> !Double.isNaN(x)).toArray();
            if (v.length == 0) {
                continue;
            }
            forks++;
            if (Bootstrap.median(v, v.length) <= 1) {
                return false;
            }
        }
        return forks > 0;
    }
}
