package dev.sluice.bench.text;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A secondary JMH result: the benchmark thread's CPU time, summed per iteration, with the number of calls. On a
 * machine that other jobs share, wall time (JMH's primary score) measures the load as much as the code; CPU time of
 * the benchmark thread does not (GC and JIT threads are not in it, which favours allocating variants a little).
 * docs/benchmarks/text.md reports cpuNanos / calls. Reading the clock costs well under a microsecond per call.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    public long cpuNanos;
    public long calls;
    private long start;

    @Setup(Level.Iteration)
    public void reset() {
        cpuNanos = 0;
        calls = 0;
    }

    void start() {
        start = THREADS.getCurrentThreadCpuTime();
    }

    /** Ends one call; returns {@code result} so a benchmark can end with {@code return cpu.stop(x)}. */
    long stop(long result) {
        cpuNanos += THREADS.getCurrentThreadCpuTime() - start;
        calls++;
        return result;
    }
}
