package dev.sluice.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** Reads the benchmark thread's CPU clock into a {@link CpuTime} counter. */
public final class CpuClock {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuClock() {}

    /** Starts one call. */
    public static void start(CpuTime t) {
        t.start = THREADS.getCurrentThreadCpuTime();
    }

    /** Ends one call; returns {@code result} so a benchmark can end with {@code return CpuClock.stop(cpu, x)}. */
    public static long stop(CpuTime t, long result) {
        t.cpuNanos += THREADS.getCurrentThreadCpuTime() - t.start;
        t.calls++;
        return result;
    }
}
