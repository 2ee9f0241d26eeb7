package dev.sluice.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A cache of one pair of large direct buffers, for the compare and checksum loops that read files straight into
 * native memory ({@link java.nio.channels.FileChannel#read} into a heap buffer copies through a temporary direct
 * buffer first).
 *
 * <p>Why a cache: {@link ByteBuffer#allocateDirect} zeroes the memory and is freed only when the garbage collector
 * finds the buffer unreachable, so allocating 2 MiB per call makes a loop over many small files pay a memset per
 * file and pile up native memory until a GC. Why only one pair: it bounds what Sluice holds forever to
 * {@code 2 * }{@link #SIZE} bytes. A caller that finds the pair taken (another thread is comparing) allocates a pair
 * of its own, sized to the files, which the garbage collector frees; nothing leaks either way.
 */
public final class DirectBuffers {
    private DirectBuffers() {}

    /**
     * The size of each buffer: {@value #SIZE_BUILT_IN} bytes, or the system property {@code sluice.compare.bufferSize}.
     * Chosen by {@code MismatchBench} (docs/benchmarks/copy.md): 1 MiB reads compare two page-cached files about 3x
     * faster than the 8 KiB reads of {@code Files.mismatch}; 4 MiB gained nothing more.
     */
    public static final int SIZE = Defaults.intProperty("sluice.compare.bufferSize", DirectBuffers.SIZE_BUILT_IN);

    /** The built-in default of {@link #SIZE}. */
    public static final int SIZE_BUILT_IN = 1 << 20;

    private static final AtomicReference<ByteBuffer[]> CACHED = new AtomicReference<>();

    /**
     * Returns two cleared direct buffers of at least {@code min(SIZE, needed)} bytes each (never less than 8 KiB),
     * the cached pair when it is free. Give them back with {@link #release}.
     */
    public static ByteBuffer[] take(long needed) {
        ByteBuffer[] pair = CACHED.getAndSet(null);
        if (pair == null) {
            int size = (int) Math.max(8192, Math.min(SIZE, needed));
            pair = new ByteBuffer[] {ByteBuffer.allocateDirect(size), ByteBuffer.allocateDirect(size)};
        }
        pair[0].clear();
        pair[1].clear();
        return pair;
    }

    /** Returns a pair from {@link #take} to the cache if it is full-sized and the cache is empty; else drops it. */
    public static void release(ByteBuffer[] pair) {
        if (pair[0].capacity() == SIZE && pair[1].capacity() == SIZE) {
            CACHED.compareAndSet(null, pair);
        }
    }
}
