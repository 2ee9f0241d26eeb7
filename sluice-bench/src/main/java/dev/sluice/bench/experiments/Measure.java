package dev.sluice.bench.experiments;

import dev.sluice.bench.CpuClock;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The quick harness: warm a workload up for a while, then time {@link Scale#reps} repetitions of at least
 * {@link Scale#repNanos} each. The runner interleaves the repetitions of the variants of one comparison
 * (round-robin), so that a burst of load from elsewhere on the machine hits all of them rather than one. It is an
 * estimate (one JVM, no Blackhole; the workloads return sums the runner keeps); JMH, through the report's
 * {@code --full}, is the real measurement.
 *
 * <p>Every repetition also records its CPU time and allocated bytes (the calling thread's; for a case with threads
 * of its own, {@link Case#wholeProcess}, the process's CPU time and the calling thread's allocation plus what its
 * threads report through {@link #allocatedElsewhere}), the collections and collection time the JVM's
 * collectors report over it, and, for a memory case, the heap it retained ({@link #retained}).
 */
final class Measure {
    private Measure() {}

    /** Keeps every workload's result reachable, so the JIT cannot discard the work. */
    static long sink;

    private static final List<GarbageCollectorMXBean> GCS = ManagementFactory.getGarbageCollectorMXBeans();

    /** Heap bytes the threads of a whole-process workload allocated in this repetition ({@link #allocatedElsewhere}). */
    private static final java.util.concurrent.atomic.AtomicLong ELSEWHERE = new java.util.concurrent.atomic.AtomicLong();

    /** What a memory workload measured in its last run (bytes retained), summed over a repetition; -1 if none. */
    private static long retained = -1;

    /** One timed repetition: wall time, CPU time, allocation, collections, and retained heap (-1 if not measured). */
    record Rep(long nanos, long cpuNanos, long allocatedBytes, long gcCount, long gcMillis, long retainedBytes) {}

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
        retained = -1;
        double nanosPerOp = (double) (System.nanoTime() - start) / ops;
        return Math.max(1, (long) Math.ceil(s.repNanos() / Math.max(1.0, nanosPerOp)));
    }

    /** Times one repetition of {@code ops} operations of {@code c}. */
    static Rep rep(Case c, long ops) throws IOException {
        Workload w = c.workload();
        boolean process = c.wholeProcess();
        retained = -1;
        long gc0 = gcCount();
        long gcMs0 = gcMillis();
        ELSEWHERE.set(0);
        long alloc0 = CpuClock.threadAllocatedBytes();
        long cpu0 = process ? CpuClock.processNanos() : CpuClock.threadNanos();
        long result = 0;
        long t0 = System.nanoTime();
        for (long i = 0; i < ops; i++) {
            result += w.run();
        }
        long nanos = System.nanoTime() - t0;
        long cpu = (process ? CpuClock.processNanos() : CpuClock.threadNanos()) - cpu0;
        long alloc = CpuClock.threadAllocatedBytes() - alloc0 + (process ? ELSEWHERE.get() : 0);
        long gcs = gcCount() - gc0;
        long gcMs = gcMillis() - gcMs0;
        sink += result;
        return new Rep(Math.max(1, nanos), Math.max(0, cpu), Math.max(0, alloc), gcs, gcMs, retained);
    }

    /**
     * For a workload with threads of its own: each thread reports the heap bytes it allocated (JDK 17 has no count
     * over every thread, live and ended), added to the repetition's allocation.
     */
    static void allocatedElsewhere(long bytes) {
        ELSEWHERE.addAndGet(Math.max(0, bytes));
    }

    /**
     * For a memory workload: adds the heap bytes its streams retained in this run (measured by the workload itself,
     * between two full collections) to the repetition's count.
     */
    static void retained(long bytes) {
        retained = Math.max(0, retained) + Math.max(0, bytes);
    }

    /** Heap in use after a full collection: what live objects hold. */
    static long heapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : GCS) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static long gcMillis() {
        long n = 0;
        for (GarbageCollectorMXBean gc : GCS) {
            n += Math.max(0, gc.getCollectionTime());
        }
        return n;
    }
}
