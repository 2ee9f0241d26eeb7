package dev.sluice.gzip;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;
import java.util.Objects;

/**
 * {@link DeflateEngine} on the system's zlib ({@code libz.so.1}, the library pigz and gzip's peers link) through
 * java.lang.foreign: raw deflate ({@code windowBits} -15, {@code memLevel} 8, as {@link java.util.zip.Deflater} and
 * pigz), with dictionaries and sync/full flushes, at the default strategy. Why, when the JDK bundles zlib: the JDK's
 * build of it (Temurin 25's zlib 1.3.2) spends about 10% more CPU per byte at level 6 than Debian's libz 1.2.13 on the
 * same input ({@code perf}: 8.08 s against 7.37 s in zlib for the 225 MB JDK-source tar; docs/benchmarks/gzip.md),
 * which is what left the one-member layout behind pigz. The output is zlib's either way.
 *
 * <p>A direct buffer's input and dictionary are read where they are; array input is copied to C in bounded chunks;
 * output lands in a bounded native block and is copied out. The z_stream and both blocks live in one shared arena
 * (an engine moves between ParallelGzipOutputStream's workers), freed with zlib's own state by {@link #end()}, or by
 * the garbage collector's cleaner if the engine is dropped unended. Not thread-safe.
 */
final class SystemZlibDeflateEngine extends NativeDeflateEngine {
    // struct z_stream_s on LP64 (zlib.h, unchanged since 1.2.0): 112 bytes.
    static final long STREAM_SIZE = 112;
    private static final long NEXT_OUT = 24;
    private static final long AVAIL_OUT = 32;
    private static final int Z_OK = 0;
    private static final int Z_STREAM_END = 1;
    private static final int Z_BUF_ERROR = -5;
    private static final int Z_FINISH = 4;

    private static final int OUT_CHUNK = 256 * 1024;
    private static final Cleaner CLEANER = Cleaner.create();

    private final MemorySegment out;
    private final Cleaner.Cleanable release;
    private boolean finished;

    /** Frees zlib's state and the arena; references nothing of the engine, so that the cleaner can run it. */
    private static final class Release implements Runnable {
        private final Arena arena;
        private final MemorySegment stream;

        Release(Arena arena, MemorySegment stream) {
            this.arena = arena;
            this.stream = stream;
        }

        @Override
        public void run() {
            NativeEngines.call(NativeEngines.SystemZlib.END, stream);
            arena.close();
        }
    }

    SystemZlibDeflateEngine(int level) {
        this(open(level));
    }

    private SystemZlibDeflateEngine(Memory m) {
        super(m.stream, m.in, NativeEngines.SystemZlib.SET_DICT, "deflateSetDictionary");
        out = m.out;
        release = CLEANER.register(this, new Release(m.arena, m.stream));
    }

    /** One engine's native memory, in one shared arena (an engine moves between ParallelGzipOutputStream's workers). */
    private record Memory(Arena arena, MemorySegment stream, MemorySegment in, MemorySegment out) {}

    /** Allocates the memory and runs {@code deflateInit2_} on it; on failure frees it. */
    private static Memory open(int level) {
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException("zlib level outside 0..9: " + level);
        }
        Arena arena = Arena.ofShared();
        boolean ok = false;
        try {
            MemorySegment stream = arena.allocate(STREAM_SIZE, 16); // zeroed: zalloc, zfree, opaque null: defaults
            Memory m = new Memory(arena, stream, arena.allocate(NativeDeflateInput.CHUNK, 64),
                    arena.allocate(OUT_CHUNK, 64));
            int ret;
            try {
                ret = (int) NativeEngines.SystemZlib.INIT.invokeExact(stream, level, 8, -15, 8, 0,
                        NativeEngines.SystemZlib.VERSION, (int) STREAM_SIZE);
            } catch (Throwable t) {
                throw NativeEngines.rethrow(t);
            }
            if (ret != Z_OK) {
                throw new IllegalStateException("deflateInit2_ returned " + ret);
            }
            ok = true;
            return m;
        } finally {
            if (!ok) {
                arena.close();
            }
        }
    }

    @Override
    public int deflate(byte[] b, int off, int len, int flush) {
        Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        int produced = 0;
        while (produced < len && !finished) {
            boolean lastChunk = input.refill();
            // zlib's flush values are the Deflater constants; a flush applies once the caller's input is all in C.
            int mode = !lastChunk ? NO_FLUSH : finishing ? Z_FINISH : flush;
            int room = Math.min(len - produced, OUT_CHUNK);
            int before = availIn();
            stream.set(ValueLayout.ADDRESS, NEXT_OUT, out);
            stream.set(ValueLayout.JAVA_INT, AVAIL_OUT, room);
            int ret = call(NativeEngines.SystemZlib.DEFLATE, mode);
            int left = stream.get(ValueLayout.JAVA_INT, AVAIL_OUT);
            int p = room - left;
            if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR || p < 0 || availIn() > before) {
                throw new IllegalStateException("zlib deflate returned " + ret + " (wrote " + p + " of " + room
                        + ")");
            }
            MemorySegment.copy(out, ValueLayout.JAVA_BYTE, 0, b, off + produced, p);
            produced += p;
            if (ret == Z_STREAM_END) {
                finished = true;
            } else if (lastChunk && availIn() == 0 && left > 0) {
                break; // all input taken and the flush (if any) complete with room to spare
            } else if (p == 0 && availIn() == before) {
                break; // no progress (Z_BUF_ERROR): never spin
            }
        }
        return produced;
    }

    private int call(MethodHandle h, int mode) {
        try {
            return (int) h.invokeExact(stream, mode);
        } catch (Throwable t) {
            throw NativeEngines.rethrow(t);
        }
    }

    @Override
    public boolean finished() {
        return finished;
    }

    @Override
    public void reset() {
        checkOpen();
        int ret = NativeEngines.call(NativeEngines.SystemZlib.RESET, stream);
        if (ret != Z_OK) {
            throw new IllegalStateException("deflateReset returned " + ret);
        }
        input.clear();
        finishing = false;
        finished = false;
    }

    @Override
    void free() {
        release.clean();
    }
}
