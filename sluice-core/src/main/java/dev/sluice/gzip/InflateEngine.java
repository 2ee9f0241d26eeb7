package dev.sluice.gzip;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

/**
 * The seam between the gzip framing (headers, trailers, CRC, members) and the raw-deflate decoder, so that a native
 * backend (ISA-L through the foreign-function API) can replace {@link JdkInflateEngine} without touching the public
 * classes ({@link GzipEngines} chooses among those {@link Engine} registers). Mirrors the subset of
 * {@link java.util.zip.Inflater} that {@link GzipInputStream} uses; one instance decodes one raw deflate stream
 * (RFC 1951, no zlib wrapper) at a time and is not thread-safe.
 */
interface InflateEngine {

    /** Sets the next input; the engine may keep a reference to {@code b} until {@link #needsInput()}. */
    void setInput(byte[] b, int off, int len);

    /**
     * Decodes into {@code b[off..off+len)}, returning the number of bytes written (0 when more input is needed or the
     * stream has ended).
     */
    int inflate(byte[] b, int off, int len) throws DataFormatException;

    /**
     * Decodes into {@code dst} between its position and limit, advancing its position past the bytes written, and
     * returns their number (0 as for {@link #inflate(byte[], int, int)}). Into a direct buffer, a native decoder
     * writes there itself, so that the bytes are never copied on their way from the decoder to a channel; this
     * default goes through {@link #inflate(byte[], int, int)} (and an array of its own for a direct buffer).
     */
    default int inflate(java.nio.ByteBuffer dst) throws DataFormatException {
        if (dst.hasArray()) {
            int n = inflate(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
            dst.position(dst.position() + n);
            return n;
        }
        byte[] b = new byte[Math.min(dst.remaining(), 64 * 1024)];
        int n = inflate(b, 0, b.length);
        dst.put(b, 0, n);
        return n;
    }

    /** True if {@link #inflateView} works: the engine decodes into memory of its own that the caller may read. */
    default boolean hasViews() {
        return false;
    }

    /**
     * Like {@link #inflate(byte[], int, int)}, but instead of copying the decoded bytes into the caller's array,
     * returns them where the engine decoded them: a read-only buffer holding at most {@code len} new bytes between
     * its position and limit (none when {@code inflate} would return 0), valid until the next call on this engine.
     * Only when {@link #hasViews()}; saves a copy of every byte when they go on to a channel.
     */
    default ByteBuffer inflateView(int len) throws DataFormatException {
        throw new UnsupportedOperationException("this engine decodes into the caller's arrays only");
    }

    /**
     * Sets the 32 KiB (or fewer) bytes that precede the deflate data to come, which its matches may refer to: the
     * window of an index checkpoint. Only after {@link #reset()} (or on a new engine) and before the first
     * {@link #setInput}; {@code len} at most {@link #MAX_DICTIONARY}.
     */
    void setDictionary(byte[] b, int off, int len);

    /** Deflate's window: the longest dictionary {@link #setDictionary} takes. */
    int MAX_DICTIONARY = 32 * 1024;

    /**
     * True if {@link #crc()} works: the engine computes the CRC32 of its output while it decodes it (ISA-L), so that
     * the caller need not pass over the output a second time. False (the default) for the JDK's zlib, whose callers
     * keep a {@link java.util.zip.CRC32} of their own.
     */
    default boolean computesCrc() {
        return false;
    }

    /**
     * The CRC32 (gzip's) of every byte decoded since the last {@link #reset()} (a dictionary is not output), as an
     * unsigned value; bytes decoded but not yet handed out count, so it is the CRC32 of what the caller received once
     * {@link #finished()}. Only when {@link #computesCrc()}.
     */
    default long crc() {
        throw new UnsupportedOperationException("this engine computes no CRC32");
    }

    /** True once the final deflate block has been decoded. */
    boolean finished();

    /** True when every byte given to {@link #setInput} has been consumed. */
    boolean needsInput();

    /**
     * The number of input bytes not consumed (the bytes after the end). May exceed the last {@link #setInput}'s
     * length by up to {@link GzipInputStream#KEEP} bytes, which the caller must then still hold in front of that
     * input: bytes of earlier input that a decoder's bit buffer had loaded but did not use.
     */
    int remaining();

    /** Prepares for a new raw deflate stream, keeping native resources. */
    void reset();

    /** Frees native resources; the engine cannot be used afterwards. Safe to call more than once. */
    void end();
}
