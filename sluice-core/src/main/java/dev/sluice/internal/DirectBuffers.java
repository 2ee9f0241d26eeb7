package dev.sluice.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A cache of two pairs of large direct buffers, for the compare and checksum loops that read files straight into
 * native memory ({@link java.nio.channels.FileChannel#read} into a heap buffer copies through a temporary direct
 * buffer first).
 *
 * <p>Why a cache: {@link ByteBuffer#allocateDirect} zeroes the memory and is freed only when the garbage collector
 * finds the buffer unreachable, so allocating 2 MiB per call makes a loop over many small files pay a memset per
 * file and pile up native memory until a GC. Why two pairs: a large compare reads with two threads, each with a
 * pair; and a bound on what Sluice holds forever ({@code 4 * }{@link #SIZE} bytes). A caller that finds the pairs
 * taken (other threads are comparing) allocates a pair of its own, sized to its files, which the garbage collector
 * frees; nothing leaks either way.
 */
public final class DirectBuffers {
    private DirectBuffers() {}

    /** The built-in default of {@link #SIZE}. */
    public static final int SIZE_BUILT_IN = 256 * 1024;

    /**
     * The size of each buffer: {@value #SIZE_BUILT_IN} bytes, or the system property {@code sluice.compare.bufferSize}.
     * Chosen by {@code InterleavedProbe compare} (docs/benchmarks/copy.md), comparing an equal page-cached 1 GiB
     * pair with one thread at 8 KiB to 4 MiB per read: 256 KiB used the least CPU on JDK 17 and 25 (440 ms against
     * 470-490 at 8 KiB and 500 at 1 MiB). Two buffers of 256 KiB stay in a core's L2 cache between the kernel's
     * copy into them and the compare; at 1 MiB and up they fill it. (The JMH sweep, {@code CompareBufferSizeBench},
     * was too noisy on the shared machine to decide.) Confirmed on an idle machine (AMD EPYC, JDK 17): 105 ms at
     * 256 KiB against 119 at 64 KiB, 116 at 1 MiB and 118 at 4 MiB.
     */
    public static final int SIZE = Defaults.intProperty("sluice.compare.bufferSize", SIZE_BUILT_IN);

    private static final AtomicReferenceArray<ByteBuffer[]> CACHED = new AtomicReferenceArray<>(2);

    /**
     * Returns two cleared direct buffers of at least {@code min(SIZE, needed)} bytes each (never less than 8 KiB),
     * a cached pair when one is free. Give them back with {@link #release}.
     */
    public static ByteBuffer[] take(long needed) {
        ByteBuffer[] pair = CACHED.getAndSet(0, null);
        if (pair == null) {
            pair = CACHED.getAndSet(1, null);
        }
        if (pair == null) {
            int size = (int) Math.max(8192, Math.min(SIZE, needed));
            pair = new ByteBuffer[] {ByteBuffer.allocateDirect(size), ByteBuffer.allocateDirect(size)};
        }
        pair[0].clear();
        pair[1].clear();
        return pair;
    }

    /** Returns a pair from {@link #take} to the cache if it is full-sized and there is room; else drops it. */
    public static void release(ByteBuffer[] pair) {
        if (pair[0].capacity() == SIZE && pair[1].capacity() == SIZE && !CACHED.compareAndSet(0, null, pair)) {
            CACHED.compareAndSet(1, null, pair);
        }
    }
}
