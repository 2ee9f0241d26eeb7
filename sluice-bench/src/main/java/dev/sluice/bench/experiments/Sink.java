package dev.sluice.bench.experiments;

/**
 * E3's per-byte work, kept out of the variants' compiled code: the quick runner's JVMs are started with
 * {@link #DONT_INLINE}, so HotSpot compiles {@link #addUp} once, on its own, and every variant of a comparison calls
 * that one piece of code (one call per array read, a few nanoseconds against microseconds per file).
 *
 * <p>Why: inlined into each variant's workload, the summing loop was compiled once per variant, and its code was a
 * lottery per fork. Over 116 stored forks of E3 (quick runs of 2026-11-28), in three one variant paid a constant
 * 0.6-0.74 ns per byte more than in the run's other forks at 4 KiB, 32 KiB, 500 KB and 5 MB alike (FileChannel.open +
 * Channels.newInputStream: 42 against 22 us per 32 KiB file, 6.1 against 3.0 ms per 5 MB file), its 16-B files (one
 * read) unchanged and the fork's other variants unchanged; smaller modes of the same kind came too (Files.newInputStream
 * +0.05 ns per byte at 32 KiB-5 MB in one fork, which took C16 to did not hold). The read paths' per-byte work is a
 * memory copy in native code; the one per-byte Java loop is this sum. The summing loop alone: C2 0.40 ns per byte, C1
 * 1.21, C1 with profiling 3.25 (Temurin 25). JMH keeps its {@code Blackhole} out of line the same way (a compile
 * command), and source C consumed each stream into a {@code Blackhole}. Stateless, so safe from any thread.
 */
final class Sink {
    private Sink() {}

    /**
     * The compile commands that keep {@link #addUp} out of line ({@code quiet} first: HotSpot would otherwise print
     * the command on standard output, which carries the runner's events). The CLI passes the same two to every
     * runner JVM ({@code Reports.SINK_OUT_OF_LINE}, kept equal to this list by sluice-cli's {@code SinkOptionsTest}),
     * and {@link JmhHarness} to its forks.
     */
    static final java.util.List<String> DONT_INLINE = java.util.List.of("-XX:CompileCommand=quiet",
            "-XX:CompileCommand=dontinline,dev.sluice.bench.experiments.Sink::addUp");

    /** The unsigned sum of {@code buf[0..n)}, the value {@link Loops#sumBytes} adds up for the same bytes. */
    static long addUp(byte[] buf, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += buf[i] & 0xff;
        }
        return sum;
    }
}
