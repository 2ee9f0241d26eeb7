package dev.sluice.hadoop;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;

/**
 * What the codec's split streams share: argument and closed checks, the one-byte read, and a close that runs once.
 * A subclass decodes in {@link #readSome} and frees what it holds in {@link #release}; closing also closes the
 * stream given to the constructor. Not thread-safe.
 */
abstract class SplitStream extends SplitCompressionInputStream {

    /** read()'s one-byte array, made once rather than on every call. */
    private final byte[] one = new byte[1];
    private boolean closed;

    SplitStream(InputStream in, long start, long end) throws IOException {
        super(in, start, end);
    }

    @Override
    public final int read() throws IOException {
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public final int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, Objects.requireNonNull(b, "b").length);
        if (closed) {
            throw new IOException("Stream closed");
        }
        return len == 0 ? 0 : readSome(b, off, len);
    }

    /** Reads 1 to {@code len} (> 0) bytes into {@code b[off..]}, or returns -1 at the end; arguments checked. */
    abstract int readSome(byte[] b, int off, int len) throws IOException;

    /** Frees what the subclass holds, before the underlying stream is closed; called once. */
    void release() throws IOException {}

    @Override
    public final void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            release();
        } finally {
            super.close();
        }
    }
}
