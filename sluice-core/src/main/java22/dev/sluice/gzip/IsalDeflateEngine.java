package dev.sluice.gzip;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.util.Objects;

/**
 * {@link DeflateEngine} on ISA-L's stateful {@code isal_deflate} (libisal.so.2) for levels 1-3, writing raw deflate
 * ({@code gzip_flag} IGZIP_DEFLATE) with dictionary and sync/full flush, so one gzip member can be written in pieces.
 * Sluice's level n is ISA-L's level n (what {@code igzip -n} uses), with the library's default level-buffer size
 * ({@code ISAL_DEF_LVLn_DEFAULT}, as igzip); ISA-L's levels are faster than zlib's of the same number and compress
 * about as well as zlib's levels 1-4 (docs/benchmarks/gzip.md). Input is copied to C in bounded chunks, output lands
 * in a bounded native block and is copied out. Native memory lives in one shared arena that {@link #end()} (or the
 * garbage collector's cleaner, if the engine is dropped unended) hands to a small pool ({@link MemoryPool}) for the
 * next compressor; an arena the pool has no room for is closed.
 * Not thread-safe.
 */
final class IsalDeflateEngine extends NativeDeflateEngine {
    // struct isal_zstream of ISA-L 2.30 (offsets measured with offsetof on x86-64; identical from 2.25 to 2.32).
    private static final long STREAM_SIZE = 82384;
    private static final long NEXT_OUT = 16;
    private static final long AVAIL_OUT = 24;
    private static final long LEVEL = 40;
    private static final long LEVEL_BUF_SIZE = 44;
    private static final long LEVEL_BUF = 48;
    private static final long END_OF_STREAM = 56;
    private static final long FLUSH = 58;
    private static final long GZIP_FLAG = 60;
    private static final long STATE = 84; // internal_state.state
    private static final int ZSTATE_END = 11;
    private static final int COMP_OK = 0;
    /** ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT of 2.30 (the LARGE sizes). */
    private static final int[] LEVEL_BUF_SIZES = {0, 282624, 331776, 348160};

    private static final int OUT_CHUNK = 256 * 1024;

    private final int level;
    private final MemorySegment levelBuf;
    private final MemorySegment out;
    /** Hands the memory back once: from {@link #end()}, or from the cleaner if this engine is dropped unended. */
    private final Cleaner.Cleanable release;

    /**
     * The native memory of one compressor, kept between streams in {@link #POOL}. The level buffer is the largest
     * (level 3's) whatever the level, so that any level can reuse any block; ISA-L is told the level's own size.
     */
    private static final class Memory extends MemoryPool.Block {
        final MemorySegment stream;
        final MemorySegment levelBuf;
        final MemorySegment in;
        final MemorySegment out;

        Memory() {
            boolean ok = false;
            try {
                stream = arena.allocate(STREAM_SIZE + 4096, 64); // slack past 2.30's size: a guard, not a contract
                levelBuf = arena.allocate(LEVEL_BUF_SIZES[3], 64);
                in = arena.allocate(NativeDeflateInput.CHUNK, 64);
                out = arena.allocate(OUT_CHUNK, 64);
                ok = true;
            } finally {
                if (!ok) {
                    arena.close();
                }
            }
        }
    }

    private static final MemoryPool<Memory> POOL = new MemoryPool<>();

    /** Idle blocks in the pool (for tests, as IsalInflateEngine's). */
    static int pooled() {
        return POOL.size();
    }

    IsalDeflateEngine(int level) {
        this(checkLevel(level), acquire());
    }

    private IsalDeflateEngine(int level, Memory m) {
        super(m.stream, m.in, NativeEngines.IsalDeflate.SET_DICT, "isal_deflate_set_dict");
        this.level = level;
        release = POOL.lease(this, m);
        levelBuf = m.levelBuf;
        out = m.out;
        prepare();
    }

    private static int checkLevel(int level) {
        if (level < 1 || level > 3) {
            throw new IllegalArgumentException("ISA-L deflate level outside 1..3: " + level);
        }
        return level;
    }

    /** Pooled or new memory, its stream fully initialised: nothing of a previous stream survives it. */
    private static Memory acquire() {
        Memory m = POOL.poll();
        if (m == null) {
            m = new Memory();
        }
        boolean ok = false;
        try {
            NativeEngines.call(NativeEngines.IsalDeflate.INIT, m.stream);
            ok = true;
        } finally {
            if (!ok) {
                m.arena.close();
            }
        }
        return m;
    }

    private void prepare() {
        stream.set(ValueLayout.JAVA_INT, LEVEL, level);
        stream.set(ValueLayout.JAVA_INT, LEVEL_BUF_SIZE, LEVEL_BUF_SIZES[level]); // the level's, not the block's
        stream.set(ValueLayout.ADDRESS, LEVEL_BUF, levelBuf);
        stream.set(ValueLayout.JAVA_SHORT, GZIP_FLAG, (short) 0);
        stream.set(ValueLayout.JAVA_SHORT, END_OF_STREAM, (short) 0);
        input.clear();
        finishing = false;
    }

    @Override
    public int deflate(byte[] b, int off, int len, int flush) {
        Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        int mode = flush == SYNC_FLUSH ? 1 : flush == FULL_FLUSH ? 2 : 0; // ISA-L's SYNC_FLUSH, FULL_FLUSH, NO_FLUSH
        int produced = 0;
        while (produced < len && !finished()) {
            boolean lastChunk = input.refill();
            int room = Math.min(len - produced, OUT_CHUNK);
            int before = availIn();
            stream.set(ValueLayout.ADDRESS, NEXT_OUT, out);
            stream.set(ValueLayout.JAVA_INT, AVAIL_OUT, room);
            stream.set(ValueLayout.JAVA_SHORT, FLUSH, (short) (lastChunk ? mode : 0));
            stream.set(ValueLayout.JAVA_SHORT, END_OF_STREAM, (short) (finishing && lastChunk ? 1 : 0));
            int ret = NativeEngines.call(NativeEngines.IsalDeflate.DEFLATE, stream);
            int left = stream.get(ValueLayout.JAVA_INT, AVAIL_OUT);
            int p = room - left;
            if (ret != COMP_OK || p < 0 || p > room || availIn() > before) {
                throw new IllegalStateException("isal_deflate returned " + ret + " (wrote " + p + " of " + room
                        + ")");
            }
            MemorySegment.copy(out, ValueLayout.JAVA_BYTE, 0, b, off + produced, p);
            produced += p;
            if (lastChunk && availIn() == 0 && left > 0 && !finishing) {
                break; // all input taken and, for sync/full flush, the flush completed with room to spare
            }
            if (p == 0 && availIn() == before) {
                break; // no progress: never spin
            }
        }
        return produced;
    }

    @Override
    public boolean finished() {
        return stream.get(ValueLayout.JAVA_INT, STATE) == ZSTATE_END;
    }

    @Override
    public void reset() {
        checkOpen();
        NativeEngines.call(NativeEngines.IsalDeflate.RESET, stream);
        prepare();
    }

    @Override
    void free() {
        release.clean();
    }
}
