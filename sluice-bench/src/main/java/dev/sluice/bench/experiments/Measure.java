package dev.sluice.bench.experiments;

import java.io.IOException;

/**
 * The quick harness: warm a workload up for a while, then time {@link Scale#reps} repetitions of at least
 * {@link Scale#repNanos} each. It is an estimate (one JVM, no forks, no Blackhole; the workloads return sums the
 * runner keeps); JMH, through the report's {@code --full}, is the real measurement.
 */
final class Measure {
    private Measure() {}

    /** Keeps every workload's result reachable, so the JIT cannot discard the work. */
    static long sink;

    /** Returns nanoseconds per operation for each repetition. */
    static double[] nanosPerOp(Workload w, Scale s) throws IOException {
        long start = System.nanoTime();
        long ops = 0;
        long result = 0;
        do {
            result += w.run();
            ops++;
        } while (ops < 2 || System.nanoTime() - start < s.warmupNanos());
        double warmNanosPerOp = (double) (System.nanoTime() - start) / ops;
        long opsPerRep = Math.max(1, (long) Math.ceil(s.repNanos() / Math.max(1.0, warmNanosPerOp)));
        double[] samples = new double[s.reps()];
        for (int r = 0; r < samples.length; r++) {
            long t0 = System.nanoTime();
            for (long i = 0; i < opsPerRep; i++) {
                result += w.run();
            }
            samples[r] = (double) (System.nanoTime() - t0) / opsPerRep;
        }
        sink += result;
        return samples;
    }
}
