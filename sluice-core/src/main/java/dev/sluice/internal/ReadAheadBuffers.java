package dev.sluice.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A small, bounded pool of direct buffers into which file streams read ahead: one {@code read} system call fills
 * {@link #SIZE} bytes, and the stream hands them out to the caller's reads by copying, so that a loop of 8 KiB reads
 * costs one system call per {@code SIZE} bytes instead of one per 8 KiB.
 *
 * <p>Why direct: {@link java.nio.channels.FileChannel#read} into a heap array copies through a temporary direct
 * buffer anyway, so reading into our own direct buffer and copying out costs the same two copies, with far fewer
 * system calls. Why a pool: {@link ByteBuffer#allocateDirect} zeroes the memory and is freed only by the garbage
 * collector, which would cost more than reading a small file.
 *
 * <p>Bounded: at most {@link #LIMIT} buffers exist at once through this pool ({@code LIMIT * SIZE} bytes of native
 * memory). When they are all taken (many streams open at once, or streams that were never closed), {@link #take}
 * returns null and the stream reads straight into the caller's array, as it would without read-ahead: slower, never
 * wrong, and no allocation storm.
 */
public final class ReadAheadBuffers {
    private ReadAheadBuffers() {}

    /** The built-in default of {@link #SIZE}. */
    public static final int SIZE_BUILT_IN = 256 * 1024;

    /**
     * The read-ahead size: {@value #SIZE_BUILT_IN} bytes, or the system property {@code sluice.io.readAheadSize}
     * (at least 8 KiB). Chosen by {@code ReadAheadBench} in sluice-bench (docs/benchmarks/io.md): reading a
     * page-cached 5 MB file with 8 KiB reads, 128 KiB to 512 KiB were within each other's error (182-208 us on
     * JDK 17, 174-189 us on JDK 25), 64 KiB and 1 MiB slower (204-234 us), and {@code FileInputStream}, one system
     * call per 8 KiB, took 458 us. 256 KiB sits in the middle of the flat part.
     */
    public static final int SIZE = Math.max(8192, Defaults.intProperty("sluice.io.readAheadSize", SIZE_BUILT_IN));

    /** The most buffers that exist at once: twice the processors, at least 4 and at most 16. */
    static final int LIMIT = Math.max(4, Math.min(16, 2 * Runtime.getRuntime().availableProcessors()));

    private static final AtomicReferenceArray<ByteBuffer> FREE = new AtomicReferenceArray<>(LIMIT);

    /** Buffers made and not yet dropped: those in {@link #FREE} plus those taken. */
    private static final AtomicInteger LIVE = new AtomicInteger();

    /**
     * Returns a cleared direct buffer of {@link #SIZE} bytes, or null when {@link #LIMIT} buffers are in use. Give it
     * back with {@link #release}.
     */
    public static ByteBuffer take() {
        for (int i = 0; i < LIMIT; i++) {
            ByteBuffer b = FREE.get(i);
            if (b != null && FREE.compareAndSet(i, b, null)) {
                return b.clear();
            }
        }
        for (int live = LIVE.get(); live < LIMIT; live = LIVE.get()) {
            if (LIVE.compareAndSet(live, live + 1)) {
                try {
                    return ByteBuffer.allocateDirect(SIZE);
                } catch (OutOfMemoryError directMemoryExhausted) {
                    // -XX:MaxDirectMemorySize reached: read without read-ahead rather than fail the read.
                    LIVE.decrementAndGet();
                    return null;
                }
            }
        }
        return null;
    }

    /**
     * Gives back a buffer from {@link #take}. With {@code reuse} false (the buffer may still be in use: a stream
     * closed by another thread than the one reading it), the buffer is dropped for the garbage collector instead,
     * and the pool may make a new one in its place.
     */
    public static void release(ByteBuffer b, boolean reuse) {
        if (reuse) {
            for (int i = 0; i < LIMIT; i++) {
                if (FREE.get(i) == null && FREE.compareAndSet(i, null, b)) {
                    return;
                }
            }
        }
        LIVE.decrementAndGet();
    }

    /** How many buffers are free in the pool and how many exist ({@code {free, live}}); for tests and diagnostics. */
    public static int[] counts() {
        int free = 0;
        for (int i = 0; i < LIMIT; i++) {
            if (FREE.get(i) != null) {
                free++;
            }
        }
        return new int[] {free, LIVE.get()};
    }
}
