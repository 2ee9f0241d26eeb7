package dev.sluice.gzip;

import java.util.ArrayDeque;

/**
 * Idle native memory of one kind of engine, kept for the next engine of that kind: creating and closing the shared
 * arena it lives in costs about 70 µs (closing is a handshake with every thread), which a small stream would
 * otherwise pay in full ({@code SmallGzipBench}). Bounded, so that what a burst of parallel streams made is mostly
 * freed again: at most one block per core, and 8. Thread-safe.
 */
final class MemoryPool<M> {
    /** Blocks kept per pool: one per core keeps parallel decoding supplied, and 8 bound it. */
    static final int MAX = Math.min(8, Runtime.getRuntime().availableProcessors());

    private final ArrayDeque<M> idle = new ArrayDeque<>();

    /** An idle block, or null if the caller must make one. */
    synchronized M poll() {
        return idle.poll();
    }

    /** Keeps {@code m} for the next engine; false when the pool is full, and the caller must free it. */
    synchronized boolean offer(M m) {
        if (idle.size() >= MAX) {
            return false;
        }
        idle.push(m);
        return true;
    }

    /** Idle blocks (for tests). */
    synchronized int size() {
        return idle.size();
    }
}
