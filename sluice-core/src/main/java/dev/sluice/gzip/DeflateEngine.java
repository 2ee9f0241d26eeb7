package dev.sluice.gzip;

import java.nio.ByteBuffer;

/**
 * The seam between the gzip framing and the raw-deflate encoder, so that a native backend can replace
 * {@link JdkDeflateEngine} without touching {@link GzipOutputStream} or {@link ParallelGzipOutputStream}; which
 * engine a writer gets is {@link GzipEngines}' choice, among those {@link Engine} registers. Mirrors the
 * subset of {@link java.util.zip.Deflater} those classes use; one instance encodes one raw deflate stream (RFC 1951)
 * at a time and is not thread-safe.
 */
interface DeflateEngine {

    /** Flush mode: compress as much as is best for the ratio (zlib's {@code Z_NO_FLUSH}). */
    int NO_FLUSH = java.util.zip.Deflater.NO_FLUSH;
    /** Flush mode: end with an empty stored block so that everything so far can be decoded ({@code Z_SYNC_FLUSH}). */
    int SYNC_FLUSH = java.util.zip.Deflater.SYNC_FLUSH;
    /** Flush mode: as {@link #SYNC_FLUSH}, and forget the history, so decoding can restart here ({@code Z_FULL_FLUSH}). */
    int FULL_FLUSH = java.util.zip.Deflater.FULL_FLUSH;

    /** Sets the next input; the engine keeps a reference to {@code b} until {@link #needsInput()}. */
    void setInput(byte[] b, int off, int len);

    /**
     * Sets the next input: {@code b}'s bytes between its position and limit, read where they are (a native engine
     * reads a direct buffer without copying it); the engine keeps a reference to {@code b} until
     * {@link #needsInput()} and never moves its position or limit, so the caller must not change those bytes
     * meanwhile. This default hands a heap buffer's array to {@link #setInput(byte[], int, int)} as it is, and copies
     * any other buffer into a new array.
     */
    default void setInput(ByteBuffer b) {
        if (b.hasArray()) {
            setInput(b.array(), b.arrayOffset() + b.position(), b.remaining());
        } else {
            setInput(copy(b), 0, b.remaining());
        }
    }

    /** Primes the history with {@code b[off..off+len)} (at most the last 32 KiB count); call right after reset. */
    void setDictionary(byte[] b, int off, int len);

    /**
     * As {@link #setDictionary(byte[], int, int)}, with {@code b}'s bytes between its position and limit (whose
     * position and limit stay as they are). This default passes a heap buffer's array as it is and copies any other.
     */
    default void setDictionary(ByteBuffer b) {
        if (b.hasArray()) {
            setDictionary(b.array(), b.arrayOffset() + b.position(), b.remaining());
        } else {
            setDictionary(copy(b), 0, b.remaining());
        }
    }

    /** {@code b}'s bytes between its position and limit in a new array; b's position and limit stay as they are. */
    private static byte[] copy(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.get(b.position(), a);
        return a;
    }

    /** Compresses into {@code b[off..off+len)} with the given flush mode and returns the number of bytes written. */
    int deflate(byte[] b, int off, int len, int flush);

    /** Announces the end of input: the following {@link #deflate} calls write the final block. */
    void finish();

    /** True once the final block has been written completely. */
    boolean finished();

    /** True when every byte given to {@link #setInput} has been consumed. */
    boolean needsInput();

    /** Prepares for a new raw deflate stream, keeping native resources and the level and strategy. */
    void reset();

    /** Frees native resources; the engine cannot be used afterwards. Safe to call more than once. */
    void end();
}
