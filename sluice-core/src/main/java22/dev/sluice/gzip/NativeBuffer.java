package dev.sluice.gzip;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A growable block of native memory for one engine. Each size lives in its own shared arena (an engine may move
 * between threads, as ParallelGzipOutputStream's workers do), closed when the block grows and on {@link #close()}, so
 * an engine holds at most one block per buffer and nothing outlives it. Not thread-safe.
 */
final class NativeBuffer implements AutoCloseable {
    /** Largest block an engine asks for: lengths passed to C are bounded by this and by {@code int}. */
    static final long MAX = 1L << 30;

    private Arena arena;
    private MemorySegment segment = MemorySegment.NULL;

    /** At least {@code size} bytes (contents not kept when it grows); the segment stays valid until the next call. */
    MemorySegment atLeast(long size) {
        if (size < 0 || size > MAX) {
            throw new IllegalArgumentException("native buffer size outside 0.." + MAX + ": " + size);
        }
        if (segment.byteSize() < size) {
            close();
            arena = Arena.ofShared();
            segment = arena.allocate(Math.max(size, 64), 64);
        }
        return segment;
    }

    @Override
    public void close() {
        if (arena != null) {
            segment = MemorySegment.NULL;
            Arena a = arena;
            arena = null;
            a.close();
        }
    }
}
