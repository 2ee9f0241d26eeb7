package dev.sluice.io;

import dev.sluice.internal.Checks;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A buffered output stream without locks: a drop-in replacement for {@link java.io.BufferedOutputStream} for the
 * common case where one thread writes a stream.
 *
 * <p><b>Buffered:</b> yes, {@link FastBufferedInputStream#DEFAULT_BUFFER_SIZE} bytes unless the constructor says
 * otherwise (same default and same {@code sluice.io.bufferSize} property as the input side). {@link #write(int)}
 * stores into the buffer with no lock. A write of at least the buffer's size flushes the buffer and then goes
 * straight to the sink, without copying.
 *
 * <p><b>Thread-safe:</b> no. One thread at a time, or the caller's own locking.
 *
 * <p><b>Flushing and closing:</b> {@link #flush()} writes the buffer to the sink and flushes the sink.
 * {@link #close()} flushes, then closes the sink exactly once, even when the flush throws (the close's own failure
 * is then added as suppressed); closing again does nothing. Any write or flush after close throws
 * {@code IOException("Stream closed")}. If the sink throws during a write, the unwritten bytes stay buffered, as in
 * {@code BufferedOutputStream}.
 *
 * <p><b>Bad input:</b> a null sink or array gets {@link NullPointerException}; a bad range gets
 * {@link IndexOutOfBoundsException}; a buffer size of zero or less gets {@link IllegalArgumentException} naming it.
 */
public final class FastBufferedOutputStream extends OutputStream {

    /** The sink; null once closed. */
    private OutputStream out;

    /** Shared by every stream until its first buffered write: large writes alone never allocate. */
    private static final byte[] UNALLOCATED = new byte[0];

    /**
     * The buffer; bytes {@code buf[0..count)} wait to be written. {@link #UNALLOCATED} until first needed and again
     * once closed, so that the one comparison in {@link #write(int)}, {@code count < buf.length}, is at once the
     * array's bounds check (the JIT folds the two), the test for a full buffer, and the test for a closed stream or a
     * buffer not yet allocated (both send the write to the slow path, which throws or allocates).
     */
    private byte[] buf = UNALLOCATED;

    /** The buffer's size, as given to the constructor. */
    private final int capacity;

    /** The number of buffered bytes; always in the range 0 through {@code buf.length}. */
    private int count;

    /** Creates a stream over {@code out} with a buffer of {@link FastBufferedInputStream#DEFAULT_BUFFER_SIZE} bytes. */
    public FastBufferedOutputStream(OutputStream out) {
        this(out, FastBufferedInputStream.DEFAULT_BUFFER_SIZE);
    }

    /**
     * Creates a stream over {@code out} with a buffer of {@code bufferSize} bytes.
     *
     * @throws NullPointerException if {@code out} is null
     * @throws IllegalArgumentException if {@code bufferSize <= 0}
     */
    public FastBufferedOutputStream(OutputStream out, int bufferSize) {
        this.out = Checks.notNull(out, "out");
        this.capacity = Checks.positive(bufferSize, "bufferSize");
    }

    /** The size of the buffer in bytes. */
    public int bufferSize() {
        return capacity;
    }

    private byte[] buffer() {
        byte[] b = buf;
        if (b.length == 0) {
            b = new byte[capacity];
            buf = b;
        }
        return b;
    }

    private OutputStream sink() throws IOException {
        OutputStream o = out;
        if (o == null) {
            throw Checks.streamClosed();
        }
        return o;
    }

    private void flushBuffer(OutputStream sink) throws IOException {
        if (count > 0) {
            sink.write(buf, 0, count);
            count = 0; // only after the sink took the bytes: a failed write keeps them buffered
        }
    }

    /**
     * Writes one byte into the buffer, flushing the buffer first if it is full.
     *
     * @throws IOException if the sink fails or this stream is closed
     */
    @Override
    public void write(int b) throws IOException {
        // Written for the caller's loop, into which C2 inlines this method. The fast path is one comparison, which is
        // also the array's bounds check. The slow path is inline and calls only the sink: a call given this stream
        // (a writeSlow() of its own) made C2 keep the caller's loop variables in stack slots for the whole loop
        // (ByteAtATimeBench and the generated code, docs/benchmarks/io.md, 2026-11-25).
        byte[] buffer = buf;
        int c = count;
        if (c >= buffer.length) {
            OutputStream sink = out;
            if (sink == null) {
                throw Checks.streamClosed();
            }
            if (buffer.length == 0) {
                buffer = new byte[capacity];
                buf = buffer;
            } else {
                sink.write(buffer, 0, c);
                count = 0; // only after the sink took the bytes: a failed write keeps them buffered
            }
            c = 0;
        }
        buffer[c] = (byte) b;
        count = c + 1;
    }

    /**
     * Writes {@code len} bytes of {@code b} from {@code off}: into the buffer if they fit, else after flushing it;
     * a write at least as large as the buffer goes straight to the sink.
     *
     * @throws NullPointerException if {@code b} is null
     * @throws IndexOutOfBoundsException if {@code off} and {@code len} are not a range of {@code b}
     * @throws IOException if the sink fails or this stream is closed
     */
    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Checks.notNull(b, "b");
        Checks.checkRange(b.length, off, len);
        OutputStream sink = sink();
        if (len >= capacity) {
            // Copying into the buffer would only split one large write into several: write it as it is.
            flushBuffer(sink);
            sink.write(b, off, len);
            return;
        }
        byte[] buffer = buffer();
        if (len > buffer.length - count) {
            flushBuffer(sink);
        }
        System.arraycopy(b, off, buffer, count, len);
        count += len;
    }

    /**
     * Writes the buffered bytes to the sink and flushes the sink.
     *
     * @throws IOException if the sink fails or this stream is closed
     */
    @Override
    public void flush() throws IOException {
        OutputStream sink = sink();
        flushBuffer(sink);
        sink.flush();
    }

    /**
     * Writes out the buffer and returns the sink, for callers in this package that then write to the sink
     * directly (in-kernel copies). The sink is not flushed: only this stream's own bytes must go first.
     */
    OutputStream drainForDirectWrite() throws IOException {
        OutputStream sink = sink();
        flushBuffer(sink);
        return sink;
    }

    /**
     * Flushes, then closes the sink, the first time only; later calls do nothing. The sink is closed even if the
     * flush fails.
     */
    @Override
    public void close() throws IOException {
        OutputStream sink = out;
        if (sink == null) {
            return;
        }
        out = null;
        byte[] buffer = buf;
        int n = count;
        buf = UNALLOCATED; // from now on every write takes the slow path, which throws
        count = 0;
        Throwable failure = null;
        try {
            if (n > 0) {
                sink.write(buffer, 0, n);
            }
            sink.flush();
        } catch (Throwable t) {
            failure = t;
        }
        try {
            sink.close();
        } catch (Throwable t) {
            if (failure == null) {
                failure = t;
            } else if (failure != t) {
                failure.addSuppressed(t);
            }
        }
        if (failure != null) {
            throwUnchecked(failure);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void throwUnchecked(Throwable t) throws T {
        throw (T) t;
    }
}
