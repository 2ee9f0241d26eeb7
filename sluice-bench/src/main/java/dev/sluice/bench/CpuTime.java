package dev.sluice.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A secondary JMH result: CPU time, summed per iteration, with the number of calls. Single-threaded benchmarks read
 * the benchmark thread's clock ({@link CpuClock#start}: user + system, so the kernel's copy out of the page cache
 * counts); benchmarks with threads of their own (parallel gzip) read the process's ({@link CpuClock#startProcess}). On a machine other
 * jobs share, wall time (JMH's primary score) measures the load as much as the code; the thread's CPU time does not.
 * Report {@code cpuNanos / calls}. Reading the clock costs well under a microsecond per call, so benchmarks whose
 * operation takes microseconds should rely on wall time on a quiet machine instead.
 *
 * <p>Benchmarks call {@link CpuClock#start(CpuTime)} and {@link CpuClock#stop(CpuTime, long)} (or the process
 * pair), which live in
 * another class because JMH takes every public method of an {@code @AuxCounters} class for a counter.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CpuTime {
    public long cpuNanos;
    public long calls;
    long start;

    @Setup(Level.Iteration)
    public void reset() {
        cpuNanos = 0;
        calls = 0;
    }
}
