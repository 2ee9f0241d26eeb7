package dev.sluice.bench.experiments;

/**
 * How big the data is and how long each case is measured. {@code TINY} is for CI smoke runs (seconds, numbers
 * meaningless), {@code QUICK} is the report's default (a few minutes on 2 cores, an estimate), {@code FULL} sizes
 * data for JMH-grade runs.
 *
 * @param corpusBytes size of the main byte corpus (tar of the JDK sources, or the user's files)
 * @param byteLoopBytes size of the file byte-at-a-time loops read (E1, E6): these run at ~100 MB/s at worst
 * @param warmupNanos time each case runs before it is measured (at least two operations)
 * @param repNanos minimum time of one measured repetition (at least one operation)
 * @param reps paired rounds per case in each fork (one timed repetition of every variant of a comparison per round)
 * @param forks JVMs the runner is started in, one after the other; the report's intervals resample them
 */
public record Scale(String name, long corpusBytes, long byteLoopBytes, long warmupNanos, long repNanos, int reps,
                    int forks) {

    public static final Scale TINY = new Scale("tiny", 1 << 20, 256 << 10, 5_000_000L, 2_000_000L, 3, 3);
    // Quick: 3 forks of ~50 s on 2 cores. The byte-at-a-time file is 2 MiB: the JDK's synchronized copy runs at
    // ~16 MB/s, so one operation still lasts ~125 ms, far longer than any buffer.
    public static final Scale QUICK = new Scale("quick", 32 << 20, 2 << 20, 120_000_000L, 25_000_000L, 6, 3);
    public static final Scale FULL = new Scale("full", 192 << 20, 64 << 20, 1_000_000_000L, 200_000_000L, 10, 3);

    public boolean tiny() {
        return this == TINY || name.equals("tiny");
    }

    public boolean full() {
        return name.equals("full");
    }

    public static Scale of(String name) {
        switch (name) {
            case "tiny": return TINY;
            case "quick": return QUICK;
            case "full": return FULL;
            default: throw new IllegalArgumentException("unknown scale: " + name + " (tiny, quick or full)");
        }
    }
}
