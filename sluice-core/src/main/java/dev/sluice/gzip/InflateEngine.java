package dev.sluice.gzip;

import java.util.zip.DataFormatException;

/**
 * The seam between the gzip framing (headers, trailers, CRC, members) and the raw-deflate decoder, so that a native
 * backend (ISA-L through the foreign-function API) can replace {@link JdkInflateEngine} without touching the public
 * classes. Mirrors the subset of {@link java.util.zip.Inflater} that {@link GzipInputStream} uses; one instance
 * decodes one raw deflate stream (RFC 1951, no zlib wrapper) at a time and is not thread-safe.
 */
interface InflateEngine {

    /** Sets the next input; the engine may keep a reference to {@code b} until {@link #needsInput()}. */
    void setInput(byte[] b, int off, int len);

    /**
     * Decodes into {@code b[off..off+len)}, returning the number of bytes written (0 when more input is needed or the
     * stream has ended).
     */
    int inflate(byte[] b, int off, int len) throws DataFormatException;

    /** True once the final deflate block has been decoded. */
    boolean finished();

    /** True when every byte given to {@link #setInput} has been consumed. */
    boolean needsInput();

    /** The number of input bytes given to {@link #setInput} that were not consumed (the bytes after the end). */
    int remaining();

    /** Prepares for a new raw deflate stream, keeping native resources. */
    void reset();

    /** Frees native resources; the engine cannot be used afterwards. Safe to call more than once. */
    void end();

    /** The engine every stream uses unless told otherwise. */
    static InflateEngine create() {
        InflateEngine e = GzipEngines.inflater();
        return e != null ? e : new JdkInflateEngine();
    }
}
