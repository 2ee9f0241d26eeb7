package dev.sluice.gzip;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * Where a gzip or gunzip run's time went, the figures that say whether it will scale: wall time and the process's
 * CPU time (user + system, every thread) from the first byte read to the last written, the CPU time of the caller's
 * thread (the one that called {@code read}/{@code transferTo}, or {@code write} for compression) in that span, the
 * threads that worked, and the bytes in and out. A caller share ({@link #callerShare()}) near 1/threads means the
 * caller's thread is what limits the run; near 0, the workers are.
 *
 * <p>Immutable and thread-safe. From {@link GzipInputStream#stats()} (a stream built with
 * {@link GzipInputStream.Builder#stats}) or, around any other work, a {@link Meter}. CPU times come from
 * {@code java.lang.management}: the process's from {@code com.sun.management.OperatingSystemMXBean} where the JDK has
 * it (-1 where not), the thread's from {@link ThreadMXBean#getCurrentThreadCpuTime} (-1 where unsupported). The
 * process's figure has the operating system's accounting granularity (on Linux 10 ms, a clock tick), the thread's
 * nanoseconds: for spans of a few milliseconds the caller's time can exceed the process's.
 */
public final class GzipStats {
    private final long wallNanos;
    private final long cpuNanos;
    private final long callerCpuNanos;
    private final int threads;
    private final long inBytes;
    private final long outBytes;

    GzipStats(long wallNanos, long cpuNanos, long callerCpuNanos, int threads, long inBytes, long outBytes) {
        this.wallNanos = wallNanos;
        this.cpuNanos = cpuNanos;
        this.callerCpuNanos = callerCpuNanos;
        this.threads = threads;
        this.inBytes = inBytes;
        this.outBytes = outBytes;
    }

    /** Seconds of wall time from the first byte read to the last written. */
    public double wallSeconds() {
        return wallNanos / 1e9;
    }

    /** Seconds of the process's CPU time (user + system, all threads) in that span; negative if unknown. */
    public double cpuSeconds() {
        return cpuNanos < 0 ? -1 : cpuNanos / 1e9;
    }

    /** Seconds of the caller's thread's CPU time in that span; negative if unknown. */
    public double callerCpuSeconds() {
        return callerCpuNanos < 0 ? -1 : callerCpuNanos / 1e9;
    }

    /** The threads that did the work: the workers when a parallel strategy ran, else 1 (the caller's). */
    public int threads() {
        return threads;
    }

    /** Compressed bytes read (gunzip) or uncompressed bytes written (gzip). */
    public long inBytes() {
        return inBytes;
    }

    /** Bytes produced: decompressed (gunzip) or compressed (gzip). */
    public long outBytes() {
        return outBytes;
    }

    /** The caller's thread's share of the process's CPU time, 0..1 (NaN if either is unknown or zero). */
    public double callerShare() {
        return cpuNanos > 0 && callerCpuNanos >= 0 ? (double) callerCpuNanos / cpuNanos : Double.NaN;
    }

    /**
     * The figures as one line, as {@code sluice gunzip --stats} and {@code sluice gzip --stats} print it:
     * {@code sluice-stats: wall_s=W cpu_s=C caller_cpu_s=K threads=N in_bytes=I out_bytes=O} (seconds with three
     * decimals, a dot whatever the locale; -1 for an unknown CPU time).
     */
    public String line() {
        return String.format(Locale.ROOT, "sluice-stats: wall_s=%.3f cpu_s=%.3f caller_cpu_s=%.3f threads=%d"
                + " in_bytes=%d out_bytes=%d", wallSeconds(), cpuSeconds(), callerCpuSeconds(), threads, inBytes,
                outBytes);
    }

    @Override
    public String toString() {
        return line();
    }

    /**
     * Measures a span of work on the thread that calls {@link #start()} and {@link #stop}: wall time, the process's
     * CPU time and that thread's. Not thread-safe: one thread starts and stops it (its CPU time is the caller's).
     * Reading the CPU times loads {@code java.lang.management} (some milliseconds once per process), so make a meter
     * only when the figures are wanted.
     */
    public static final class Meter {
        private final ThreadMXBean thread = ManagementFactory.getThreadMXBean();
        private long wall0 = -1;
        private long cpu0;
        private long caller0;

        /** Starts the span (again, if it was started): call before the first byte is read. */
        public Meter start() {
            cpu0 = processCpu();
            caller0 = callerCpu();
            wall0 = System.nanoTime(); // last: the span starts after the readings
            return this;
        }

        /** True once {@link #start()} was called. */
        public boolean started() {
            return wall0 >= 0;
        }

        /**
         * Ends the span now (after the last byte was written) and returns its figures; {@code threads} worked,
         * {@code inBytes} went in and {@code outBytes} came out. The meter may be stopped again later for a longer
         * span from the same start.
         *
         * @throws IllegalStateException if it was not started
         */
        public GzipStats stop(int threads, long inBytes, long outBytes) {
            if (wall0 < 0) {
                throw new IllegalStateException("meter not started");
            }
            long wall = System.nanoTime() - wall0;
            long caller = callerCpu();
            long cpu = processCpu();
            return new GzipStats(wall, cpu < 0 || cpu0 < 0 ? -1 : cpu - cpu0,
                    caller < 0 || caller0 < 0 ? -1 : caller - caller0, threads, inBytes, outBytes);
        }

        private long callerCpu() {
            return thread.isCurrentThreadCpuTimeSupported() ? thread.getCurrentThreadCpuTime() : -1;
        }

        private static long processCpu() {
            try {
                java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
                return os instanceof com.sun.management.OperatingSystemMXBean
                        ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : -1;
            } catch (LinkageError noJdkManagement) {
                return -1; // a runtime image without jdk.management
            }
        }
    }
}
