package dev.sluice.gzip;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

/**
 * {@link InflateEngine} on ISA-L's {@code isal_inflate} (libisal.so.2, raw deflate: {@code crc_flag}
 * ISAL_GZIP_NO_HDR, under which ISA-L parses no header nor trailer but keeps the gzip CRC32 of every byte it writes
 * in {@code crc}, reset to 0 by {@code isal_inflate_reset}: {@link #crc()}), the gzip header and trailer staying in
 * Java. Input is copied into a native block with a short prefix that keeps the
 * previous block's last bytes, because ISA-L hands unused look-ahead bytes back by moving {@code next_in} backwards;
 * output is decoded into a native staging block and copied out, so small reads do not each cost a downcall. Every
 * length passed to C is bounded here. Native memory: ISA-L's state and the two blocks, in one shared arena that
 * {@link #end()} hands to a small pool for the next decoder ({@link MemoryPool}); an arena the pool has no room for
 * is closed. A decoder dropped without {@code end()} hands its memory back when the garbage collector finds it.
 * Not thread-safe.
 */
final class IsalInflateEngine implements InflateEngine {
    // struct inflate_state of ISA-L 2.30 (identical from 2.25 to 2.32; offsets measured with offsetof on x86-64).
    private static final long STATE_SIZE = 87368;
    private static final long NEXT_OUT = 0;
    private static final long AVAIL_OUT = 8;
    private static final long TOTAL_OUT = 12;
    private static final long NEXT_IN = 16;
    private static final long AVAIL_IN = 32;
    private static final long READ_IN_LENGTH = 36;
    private static final long BLOCK_STATE = 21160;
    private static final long CRC_FLAG = 21172;
    private static final long CRC = 21176;
    private static final int ISAL_BLOCK_FINISH = 5;
    /**
     * Raw deflate, and the CRC32 of the output computed as it is written (ISA-L's folding CRC, over bytes still in
     * this core's cache): a separate Java pass over the output cost more than a third of the parallel decode's worker
     * time beside ISA-L's (issue 31).
     */
    private static final int ISAL_GZIP_NO_HDR = 2;

    /** Bytes of the previous input kept before the new input (ISA-L's bit buffer holds at most 8). */
    private static final int PREFIX = 16;
    /** Input copied to C per call; larger inputs are fed in pieces. */
    private static final int IN_CHUNK = 256 * 1024;
    /** Output decoded per call into the staging block. */
    private static final int OUT_CHUNK = 256 * 1024;

    /** The native memory of one decoder, kept between streams in {@link #POOL}. */
    private static final class Memory extends MemoryPool.Block {
        final MemorySegment state;
        final MemorySegment in;
        final MemorySegment out;

        Memory() {
            boolean ok = false;
            try {
                state = arena.allocate(STATE_SIZE + 4096, 64); // slack past 2.30's size: a guard, not a contract
                in = arena.allocate(PREFIX + IN_CHUNK, 64);
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

    /** Idle memory in the pool (for tests). */
    static int pooled() {
        return POOL.size();
    }

    /** Hands the memory back once: from {@link #end()}, or from the cleaner if this engine is dropped unended. */
    private final Cleaner.Cleanable release;
    private final MemorySegment state;
    private final MemorySegment in;
    private final MemorySegment out;
    private boolean ended;

    /** Caller's input not yet copied to C: input[inOff, inOff + inLen). */
    private byte[] input;
    private int inOff;
    private int inLen;
    /** Length of the caller's last {@link #setInput}. */
    private int given;
    /** Bytes of the current chunk handed to C (bounds what ISA-L may hand back). */
    private int chunkLen;
    /** Decoded bytes waiting in {@link #out}: out[outPos, outLim). */
    private int outPos;
    private int outLim;
    private boolean streamDone;

    IsalInflateEngine() {
        Memory m = POOL.poll();
        if (m == null) {
            m = new Memory();
        }
        boolean ok = false;
        try {
            // A full init whether the memory is new or pooled: nothing of the previous stream survives it.
            NativeEngines.call(NativeEngines.IsalInflate.INIT, m.state);
            ok = true;
        } finally {
            if (!ok) {
                m.arena.close();
            }
        }
        release = POOL.lease(this, m);
        state = m.state;
        in = m.in;
        out = m.out;
        prepare();
    }

    private void prepare() {
        state.set(ValueLayout.JAVA_INT, CRC_FLAG, ISAL_GZIP_NO_HDR);
        state.set(ValueLayout.ADDRESS, NEXT_IN, in.asSlice(PREFIX));
        state.set(ValueLayout.JAVA_INT, AVAIL_IN, 0);
        input = null;
        inLen = 0;
        given = 0;
        chunkLen = 0;
        outPos = 0;
        outLim = 0;
        streamDone = false;
    }

    @Override
    public void setInput(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        input = b;
        given = len;
        inOff = off;
        inLen = len;
        if (availIn() == 0) {
            feed();
        }
    }

    /** Copies the next chunk of the caller's input to C, keeping the previous chunk's last bytes in front. */
    private void feed() {
        if (chunkLen > 0) {
            int keep = Math.min(PREFIX, chunkLen);
            MemorySegment.copy(in, PREFIX + chunkLen - keep, in, PREFIX - keep, keep);
        }
        int n = Math.min(inLen, IN_CHUNK);
        MemorySegment.copy(input, inOff, in, ValueLayout.JAVA_BYTE, PREFIX, n);
        inOff += n;
        inLen -= n;
        chunkLen = n;
        state.set(ValueLayout.ADDRESS, NEXT_IN, in.asSlice(PREFIX));
        state.set(ValueLayout.JAVA_INT, AVAIL_IN, n);
    }

    /**
     * {@code isal_inflate_set_dict}, which copies the dictionary into the state's history buffer: the bytes go
     * through the input block, which holds no input yet (the first {@link #setInput} overwrites them).
     */
    @Override
    public void setDictionary(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        if (len > MAX_DICTIONARY) {
            throw new IllegalArgumentException("dictionary of " + len + " bytes, at most " + MAX_DICTIONARY);
        }
        if (chunkLen != 0 || inLen != 0 || availIn() != 0) {
            throw new IllegalStateException("setDictionary after input");
        }
        MemorySegment.copy(b, off, in, ValueLayout.JAVA_BYTE, PREFIX, len);
        int ret;
        try {
            ret = (int) NativeEngines.IsalInflate.Dict.SET_DICT.invokeExact(state, in.asSlice(PREFIX), len);
        } catch (Throwable t) {
            throw NativeEngines.rethrow(t);
        }
        if (ret != 0) {
            throw new IllegalStateException("isal_inflate_set_dict returned " + ret);
        }
    }

    @Override
    public int inflate(byte[] b, int off, int len) throws DataFormatException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        if (len == 0) {
            return 0;
        }
        if (outPos == outLim && !streamDone) {
            decode();
        }
        int n = Math.min(len, outLim - outPos);
        MemorySegment.copy(out, ValueLayout.JAVA_BYTE, outPos, b, off, n);
        outPos += n;
        return n;
    }

    /**
     * Into a direct buffer ISA-L decodes straight into {@code dst} ({@code next_out} at its position, {@code avail_out}
     * its remaining bytes: ISA-L keeps its own history, as for the staging block, which each call also reuses from
     * its start); bytes an earlier call left in the staging block go first. Anything else goes through an array.
     */
    @Override
    public int inflate(ByteBuffer dst) throws DataFormatException {
        checkOpen();
        if (!dst.isDirect() || dst.isReadOnly()) {
            return InflateEngine.super.inflate(dst);
        }
        int len = dst.remaining();
        if (len == 0) {
            return 0;
        }
        MemorySegment target = MemorySegment.ofBuffer(dst); // exactly [position, limit): ISA-L gets no more
        int n;
        if (outPos < outLim || streamDone) {
            n = Math.min(len, outLim - outPos);
            MemorySegment.copy(out, outPos, target, 0, n);
            outPos += n;
        } else {
            n = decode(target, len);
        }
        dst.position(dst.position() + n);
        return n;
    }

    @Override
    public boolean hasViews() {
        return true;
    }

    @Override
    public ByteBuffer inflateView(int len) throws DataFormatException {
        checkOpen();
        if (len < 0) {
            throw new IllegalArgumentException("len < 0: " + len);
        }
        if (outPos == outLim && !streamDone) {
            decode();
        }
        int n = Math.min(len, outLim - outPos);
        // Valid until the next call: after end() the memory may serve another decoder (never freed under a view,
        // so a stale one reads wrong bytes, never freed memory). GzipInputStream writes each view out at once.
        ByteBuffer view = out.asSlice(outPos, n).asByteBuffer().asReadOnlyBuffer();
        outPos += n;
        return view;
    }

    /** One or more isal_inflate calls into the staging block, until it holds output, input runs out, or the end. */
    private void decode() throws DataFormatException {
        outPos = 0;
        outLim = 0;
        outLim = decode(out, OUT_CHUNK);
    }

    /**
     * One or more isal_inflate calls into {@code target[0..cap)} ({@code cap} at most its size), until some output,
     * input runs out, or the end; returns the bytes written.
     */
    private int decode(MemorySegment target, int cap) throws DataFormatException {
        if (cap < 0 || cap > target.byteSize()) {
            throw new IndexOutOfBoundsException("cap " + cap + " for " + target.byteSize() + " bytes");
        }
        while (true) {
            if (state.get(ValueLayout.JAVA_INT, TOTAL_OUT) < 0) {
                // total_out is a uint32 that ISA-L checks distances against; past 2 GiB keep it large but unwrapped.
                state.set(ValueLayout.JAVA_INT, TOTAL_OUT, 1 << 30);
            }
            state.set(ValueLayout.ADDRESS, NEXT_OUT, target);
            state.set(ValueLayout.JAVA_INT, AVAIL_OUT, cap);
            int ret = NativeEngines.call(NativeEngines.IsalInflate.INFLATE, state);
            int produced = cap - state.get(ValueLayout.JAVA_INT, AVAIL_OUT);
            if (produced < 0 || produced > cap || availIn() > chunkLen + PREFIX) {
                throw new IllegalStateException("isal_inflate broke its bounds: produced " + produced + ", avail_in "
                        + availIn());
            }
            if (ret < 0) {
                throw new DataFormatException(message(ret));
            }
            if (state.get(ValueLayout.JAVA_INT, BLOCK_STATE) == ISAL_BLOCK_FINISH) {
                streamDone = true;
                return produced;
            }
            if (produced > 0) {
                return produced;
            }
            if (availIn() == 0) {
                if (inLen == 0) {
                    return 0; // needs input
                }
                feed();
            } else {
                return 0; // the caller's stall check sees that nothing moved
            }
        }
    }

    private static String message(int ret) {
        switch (ret) {
            case -1: return "invalid deflate block (ISAL_INVALID_BLOCK)";
            case -2: return "invalid deflate symbol (ISAL_INVALID_SYMBOL)";
            case -3: return "invalid distance too far back (ISAL_INVALID_LOOKBACK)";
            default: return "isal_inflate error " + ret;
        }
    }

    private int availIn() {
        return state.get(ValueLayout.JAVA_INT, AVAIL_IN);
    }

    @Override
    public boolean computesCrc() {
        return true;
    }

    @Override
    public long crc() {
        checkOpen();
        return state.get(ValueLayout.JAVA_INT, CRC) & 0xffffffffL;
    }

    @Override
    public boolean finished() {
        return streamDone && outPos == outLim;
    }

    @Override
    public boolean needsInput() {
        return !streamDone && outPos == outLim && availIn() == 0 && inLen == 0;
    }

    /**
     * Unused input: what C did not take, what was never copied and, at the end, the whole bytes left in ISA-L's bit
     * buffer ({@code read_in_length / 8}; 2.30 does not hand those back). Those may predate the caller's last input by
     * at most 8 bytes, which GzipInputStream keeps ({@link GzipInputStream#KEEP}); the cap guards the contract.
     */
    @Override
    public int remaining() {
        int unused = availIn() + inLen;
        if (streamDone) {
            unused += Math.max(0, state.get(ValueLayout.JAVA_INT, READ_IN_LENGTH)) / 8;
        }
        return Math.min(unused, given + GzipInputStream.KEEP);
    }

    @Override
    public void reset() {
        checkOpen();
        NativeEngines.call(NativeEngines.IsalInflate.RESET, state);
        prepare();
    }

    @Override
    public void end() {
        if (!ended) {
            ended = true;
            input = null;
            release.clean();
        }
    }

    private void checkOpen() {
        if (ended) {
            throw new IllegalStateException("inflate engine already ended");
        }
    }

}
