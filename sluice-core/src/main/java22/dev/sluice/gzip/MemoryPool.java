package dev.sluice.gzip;

import java.lang.foreign.Arena;
import java.lang.ref.Cleaner;
import java.util.ArrayDeque;
import java.util.concurrent.ThreadFactory;

/**
 * Idle native memory of one kind of engine, kept for the next engine of that kind: creating and closing the shared
 * arena it lives in costs about 70 µs (closing is a handshake with every thread), which a small stream would
 * otherwise pay in full ({@code SmallGzipBench}). Bounded, so that what a burst of parallel streams made is mostly
 * freed again: at most one block per core, and 8. An engine that is dropped without {@code end()} gives its block
 * back when the garbage collector finds it ({@link #lease}). Thread-safe.
 */
final class MemoryPool<M extends MemoryPool.Block> {
    /** Blocks kept per pool: one per core keeps parallel decoding supplied, and 8 bound it. */
    static final int MAX = Math.min(8, Runtime.getRuntime().availableProcessors());

    /**
     * One engine's native memory, in a shared arena of its own: shared rather than confined because an engine may
     * serve different threads in turn (parallel workers, a stream handed over).
     */
    abstract static class Block {
        final Arena arena = Arena.ofShared();
    }

    private final ArrayDeque<M> idle = new ArrayDeque<>();

    /** An idle block, or null if the caller must make one. */
    synchronized M poll() {
        return idle.poll();
    }

    /** Keeps {@code m} for the next engine, or closes its arena when the pool is full. */
    void giveBack(M m) {
        synchronized (this) {
            if (idle.size() < MAX) {
                idle.push(m);
                return;
            }
        }
        m.arena.close();
    }

    /**
     * Gives {@code m} back exactly once: when the returned handle is cleaned (the engine's {@code end()}), or when
     * {@code engine} becomes unreachable. Without the latter a shared arena, which only {@code close()} frees, would
     * leak for good with every stream nobody closed; the JDK's Inflater and Deflater free zlib's memory the same way.
     */
    Cleaner.Cleanable lease(Object engine, M m) {
        return Cleaning.CLEANER.register(engine, new GiveBack<>(this, m));
    }

    /** Idle blocks (for tests). */
    synchronized int size() {
        return idle.size();
    }

    /** Holds no reference to the engine, or it would never become unreachable. Not a lambda: start-up cost. */
    private static final class GiveBack<M extends Block> implements Runnable {
        private final MemoryPool<M> pool;
        private final M block;

        GiveBack(MemoryPool<M> pool, M block) {
            this.pool = pool;
            this.block = block;
        }

        @Override
        public void run() {
            pool.giveBack(block);
        }
    }

    /** The cleaner, made (with its one daemon thread) when the first native engine is, not when Sluice loads. */
    static final class Cleaning {
        static final Cleaner CLEANER = Cleaner.create(new Threads());

        private Cleaning() {}

        private static final class Threads implements ThreadFactory {
            @Override
            public Thread newThread(Runnable r) {
                Thread t = new Thread(r, "sluice-native-cleaner");
                t.setDaemon(true);
                return t;
            }
        }
    }
}
