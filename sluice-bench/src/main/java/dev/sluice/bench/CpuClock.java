package dev.sluice.bench;

import java.lang.management.ManagementFactory;

/**
 * The clocks and counters every benchmark here reads: CPU time (the calling thread's user + system time, so the
 * kernel's work in its system calls counts; or the whole process's, where the work runs on other threads too) and
 * allocated heap bytes (the calling thread's; a benchmark with threads of its own adds what each of them reports,
 * as JDK 17 has no process-wide count). JMH benchmarks put them into a {@link CpuTime}
 * counter; the report's quick harness reads them around every timed repetition.
 */
public final class CpuClock {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private CpuClock() {}

    /** The calling thread's CPU time (user + system), nanoseconds. */
    public static long threadNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** The whole process's CPU time (every thread, the JVM's own included), nanoseconds. */
    public static long processNanos() {
        return OS.getProcessCpuTime();
    }

    /** Heap bytes the calling thread has allocated so far. */
    public static long threadAllocatedBytes() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }


    /** Starts one call, on the thread's clock. */
    public static void start(CpuTime t) {
        t.start = threadNanos();
    }

    /** Ends one call; returns {@code result} so a benchmark can end with {@code return CpuClock.stop(cpu, x)}. */
    public static long stop(CpuTime t, long result) {
        t.cpuNanos += threadNanos() - t.start;
        t.calls++;
        return result;
    }

    /** Starts one call, on the process's clock: for benchmarks whose work runs on threads of their own. */
    public static void startProcess(CpuTime t) {
        t.start = processNanos();
    }

    /** Ends one call started with {@link #startProcess}. */
    public static void stopProcess(CpuTime t) {
        t.cpuNanos += processNanos() - t.start;
        t.calls++;
    }
}
