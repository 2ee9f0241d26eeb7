package dev.sluice.bench.gzip;

import java.lang.management.ManagementFactory;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A secondary JMH result: the benchmark process's CPU milliseconds per operation (benchmark thread, gzip workers,
 * and the JVM's own threads, which are nearly idle in steady state). On a shared machine this stays meaningful where
 * wall time also counts the time other people's processes held the cores. Each benchmark calls {@link #start()} and {@link #stop()};
 * the field holds the iteration's mean so far, and JMH reports the value it has at the end of the iteration.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CpuTime {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Mean process CPU ms per operation in this iteration. */
    public double cpuMsPerOp;

    private long total;
    private long ops;
    private long startNs;

    @Setup(Level.Iteration)
    public void reset() {
        total = 0;
        ops = 0;
        cpuMsPerOp = 0;
    }

    void start() {
        startNs = cpuNow();
    }

    void stop() {
        total += cpuNow() - startNs;
        ops++;
        cpuMsPerOp = total / 1e6 / ops;
    }

    private static long cpuNow() {
        return OS.getProcessCpuTime();
    }
}
