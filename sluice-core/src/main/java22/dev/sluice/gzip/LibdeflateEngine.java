package dev.sluice.gzip;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * {@link DeflateEngine} on libdeflate's whole-buffer compressor (libdeflate.so.0), for one-shot members only
 * ({@link GzipEngines#memberDeflater}): libdeflate cannot stream, so the engine takes the member's whole input in
 * one {@link #setInput}, compresses it at the first {@link #deflate} after {@link #finish()}, and hands the result out
 * over as many calls as the caller's buffer needs. A second setInput before {@link #reset()}, a dictionary or a flush
 * mode other than NO_FLUSH throw {@link IllegalStateException}; before finish() deflate writes nothing. Levels 1..12
 * are libdeflate's (its 6 compresses like zlib's 6). Native memory: the compressor and two growable blocks, freed by
 * {@link #end()}, or by the garbage collector's cleaner if the engine is dropped unended. Not thread-safe.
 */
final class LibdeflateEngine implements DeflateEngine {
    private final MemorySegment compressor;
    private final NativeBuffer in = new NativeBuffer();
    private final NativeBuffer out = new NativeBuffer();
    private boolean ended;
    /** Frees once: from {@link #end()}, or from the cleaner if this engine is dropped unended. */
    private final Cleaner.Cleanable release;

    /** Frees the compressor and both blocks. A class, not a lambda: linking the first lambda costs start-up. */
    private static final class Free implements Runnable {
        private final MemorySegment compressor;
        private final NativeBuffer in;
        private final NativeBuffer out;

        Free(MemorySegment compressor, NativeBuffer in, NativeBuffer out) {
            this.compressor = compressor;
            this.in = in;
            this.out = out;
        }

        @Override
        public void run() {
            try {
                NativeEngines.Libdeflate.FREE_COMPRESSOR.invokeExact(compressor);
            } catch (Throwable t) {
                throw NativeEngines.rethrow(t);
            } finally {
                in.close();
                out.close();
            }
        }
    }

    /** Direct input, compressed where it is (no copy into {@link #in}); null for array input. */
    private ByteBuffer direct;
    private byte[] input;
    private int inOff;
    private int inLen;
    private boolean hasInput;
    private boolean finishing;
    /** Compressed bytes not yet handed out: out[outPos, outLim); outLim < 0 until compressed. */
    private long outPos;
    private long outLim = -1;

    LibdeflateEngine(int level) {
        if (level < 1 || level > 12) {
            throw new IllegalArgumentException("libdeflate level outside 1..12: " + level);
        }
        MemorySegment c;
        try {
            c = (MemorySegment) NativeEngines.Libdeflate.ALLOC_COMPRESSOR.invokeExact(level);
        } catch (Throwable t) {
            throw NativeEngines.rethrow(t);
        }
        if (c.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("libdeflate_alloc_compressor(" + level + ") returned NULL");
        }
        compressor = c;
        release = MemoryPool.Cleaning.CLEANER.register(this, new Free(c, in, out));
    }

    @Override
    public void setInput(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        if (hasInput) {
            throw new IllegalStateException("libdeflate compresses whole members: one setInput per reset");
        }
        input = b;
        inOff = off;
        inLen = len;
        hasInput = true;
    }

    /** A direct buffer is compressed where it is; any other goes through an array. */
    @Override
    public void setInput(ByteBuffer b) {
        checkOpen();
        if (!b.isDirect()) {
            DeflateEngine.super.setInput(b);
            return;
        }
        if (hasInput) {
            throw new IllegalStateException("libdeflate compresses whole members: one setInput per reset");
        }
        direct = b;
        input = null;
        inOff = 0;
        inLen = b.remaining();
        hasInput = true;
    }

    @Override
    public void setDictionary(byte[] b, int off, int len) {
        throw new IllegalStateException("libdeflate members have no dictionary");
    }

    @Override
    public int deflate(byte[] b, int off, int len, int flush) {
        Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        if (flush != NO_FLUSH) {
            throw new IllegalStateException("libdeflate cannot flush (flush mode " + flush + ")");
        }
        if (!finishing) {
            return 0; // the whole member is compressed at once, after finish()
        }
        if (outLim < 0) {
            compress();
        }
        int n = (int) Math.min(len, outLim - outPos);
        MemorySegment.copy(out.atLeast(0), ValueLayout.JAVA_BYTE, outPos, b, off, n);
        outPos += n;
        return n;
    }

    private void compress() {
        MemorySegment src;
        if (direct != null) {
            src = MemorySegment.ofBuffer(direct); // exactly [position, limit): inLen bytes
        } else {
            src = in.atLeast(inLen);
            MemorySegment.copy(input, inOff, src, ValueLayout.JAVA_BYTE, 0, inLen);
        }
        try {
            long bound = (long) NativeEngines.Libdeflate.COMPRESS_BOUND.invokeExact(compressor, (long) inLen);
            MemorySegment dst = out.atLeast(bound);
            long n = (long) NativeEngines.Libdeflate.COMPRESS.invokeExact(compressor, src, (long) inLen, dst,
                    dst.byteSize());
            if (n <= 0 || n > dst.byteSize()) {
                throw new IllegalStateException("libdeflate_deflate_compress returned " + n + " for " + inLen
                        + " bytes");
            }
            outPos = 0;
            outLim = n;
        } catch (Throwable t) {
            throw NativeEngines.rethrow(t);
        }
    }

    @Override
    public void finish() {
        finishing = true;
        if (!hasInput) {
            input = new byte[0];
            inOff = 0;
            inLen = 0;
            hasInput = true;
        }
    }

    @Override
    public boolean finished() {
        return outLim >= 0 && outPos == outLim;
    }

    /** True once the member's input was given: the engine holds on to it (by reference) until compressing. */
    @Override
    public boolean needsInput() {
        return true;
    }

    @Override
    public void reset() {
        checkOpen();
        input = null;
        direct = null;
        inLen = 0;
        hasInput = false;
        finishing = false;
        outPos = 0;
        outLim = -1;
    }

    @Override
    public void end() {
        if (!ended) {
            ended = true;
            input = null;
            direct = null;
            release.clean();
        }
    }

    private void checkOpen() {
        if (ended) {
            throw new IllegalStateException("deflate engine already ended");
        }
    }
}
