package dev.sluice.bench.experiments;

import java.io.IOException;

/**
 * The quick harness: warm a workload up for a while, then time {@link Scale#reps} repetitions of at least
 * {@link Scale#repNanos} each. The runner interleaves the repetitions of the variants of one comparison
 * (round-robin), so that a burst of load from elsewhere on the machine hits all of them rather than one. It is an estimate (one JVM, no forks, no Blackhole; the workloads return sums the
 * runner keeps); JMH, through the report's {@code --full}, is the real measurement.
 */
final class Measure {
    private Measure() {}

    /** Keeps every workload's result reachable, so the JIT cannot discard the work. */
    static long sink;

    /**
     * Warms the workload up for {@link Scale#warmupNanos} (and at least two operations), then returns how many
     * operations one repetition needs to last at least {@link Scale#repNanos}.
     */
    static long calibrate(Workload w, Scale s) throws IOException {
        long start = System.nanoTime();
        long ops = 0;
        long result = 0;
        do {
            result += w.run();
            ops++;
        } while (ops < 2 || System.nanoTime() - start < s.warmupNanos());
        sink += result;
        double nanosPerOp = (double) (System.nanoTime() - start) / ops;
        return Math.max(1, (long) Math.ceil(s.repNanos() / Math.max(1.0, nanosPerOp)));
    }

    /** Times one repetition of {@code ops} operations; returns its elapsed nanoseconds. */
    static long rep(Workload w, long ops) throws IOException {
        long result = 0;
        long t0 = System.nanoTime();
        for (long i = 0; i < ops; i++) {
            result += w.run();
        }
        long nanos = System.nanoTime() - t0;
        sink += result;
        return Math.max(1, nanos);
    }
}
