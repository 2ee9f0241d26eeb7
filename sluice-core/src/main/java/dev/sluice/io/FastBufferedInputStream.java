package dev.sluice.io;

import dev.sluice.internal.Checks;
import dev.sluice.internal.Defaults;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A buffered input stream without locks: a drop-in replacement for {@link java.io.BufferedInputStream} for the
 * common case where one thread reads a stream.
 *
 * <p><b>Buffered:</b> yes, {@link #DEFAULT_BUFFER_SIZE} bytes unless the constructor says otherwise. {@link #read()}
 * is served from the buffer with no lock and no call to the source; a bulk read of at least the buffer's size, with
 * the buffer empty and no mark set, goes straight to the source into the caller's array.
 *
 * <p><b>Thread-safe:</b> no. One thread at a time, or the caller's own locking. {@code BufferedInputStream} pays a
 * monitor on every call (java.io returned to {@code synchronized} in JDK 24); that lock, not the buffering, is what
 * makes single-byte reads slow there.
 *
 * <p><b>available():</b> constant time while the buffer holds data: it returns the buffered count and asks the
 * source only when the buffer is empty. ({@code BufferedInputStream} asks the source every time, which for a file is
 * an {@code fstat} and an {@code lseek}.)
 *
 * <p><b>mark/reset:</b> supported, with {@code BufferedInputStream}'s readlimit semantics: after
 * {@code mark(readlimit)}, {@code reset()} succeeds as long as no more than {@code readlimit} bytes have been read;
 * beyond that the mark may be dropped, and {@code reset()} then throws {@code IOException("Resetting to invalid
 * mark")}. The buffer grows up to {@code readlimit} to honour a mark.
 *
 * <p><b>transferTo:</b> when the source is file-backed ({@link java.io.FileInputStream}, or a stream from
 * {@link dev.sluice.file.FastFiles}) and so is the target (also through a {@link FastBufferedOutputStream}), the
 * bytes move with {@link java.nio.channels.FileChannel#transferTo} inside the kernel.
 *
 * <p><b>Closing:</b> {@link #close()} closes the source, once; closing again does nothing. Every other call after
 * close throws {@code IOException("Stream closed")}.
 *
 * <p><b>Bad input:</b> a null source or array gets {@link NullPointerException}; a bad range gets
 * {@link IndexOutOfBoundsException}; a buffer size of zero or less gets {@link IllegalArgumentException} naming it.
 * Exceptions from the source pass through unchanged.
 */
public final class FastBufferedInputStream extends InputStream {

    /**
     * The buffer size when none is given: {@value #DEFAULT_SIZE_BUILT_IN} bytes, or the system property
     * {@code sluice.io.bufferSize} (bytes, or with a {@code k}/{@code m} suffix).
     *
     * <p>Chosen by {@code BufferSizeBench} in sluice-bench (docs/benchmarks/io.md): reading a page-cached file in
     * 8-byte to 1 KiB pieces, 64 KiB buffers beat 8 KiB buffers by about a quarter on JDK 17 and 25 (fewer system
     * calls), and larger buffers gain nothing measurable while costing more to allocate for small files.
     */
    public static final int DEFAULT_BUFFER_SIZE;

    /** The built-in default, before any {@code sluice.io.bufferSize} override. */
    static final int DEFAULT_SIZE_BUILT_IN = 64 * 1024;

    static {
        DEFAULT_BUFFER_SIZE = Defaults.intProperty("sluice.io.bufferSize", DEFAULT_SIZE_BUILT_IN);
    }

    /** The source; null once closed. */
    private InputStream in;

    /** The buffer; null once closed. Valid data is {@code buf[pos..count)}; may grow to honour a mark. */
    private byte[] buf;

    /** Index of the next byte to read; always in the range 0 through {@code count}. */
    private int pos;

    /** One past the last valid byte of {@code buf}; always in the range 0 through {@code buf.length}. */
    private int count;

    /** Index of the marked byte, or -1 when no mark is set; always at most {@code pos}. */
    private int markpos = -1;

    /** The readlimit of the last {@link #mark(int)}. */
    private int marklimit;

    /** Creates a stream over {@code in} with a buffer of {@link #DEFAULT_BUFFER_SIZE} bytes. */
    public FastBufferedInputStream(InputStream in) {
        this(in, DEFAULT_BUFFER_SIZE);
    }

    /**
     * Creates a stream over {@code in} with a buffer of {@code bufferSize} bytes.
     *
     * @throws NullPointerException if {@code in} is null
     * @throws IllegalArgumentException if {@code bufferSize <= 0}
     */
    public FastBufferedInputStream(InputStream in, int bufferSize) {
        this.in = Checks.notNull(in, "in");
        this.buf = new byte[Checks.positive(bufferSize, "bufferSize")];
    }

    /** The size of the buffer in bytes (larger than the constructor's after a mark made it grow). */
    public int bufferSize() {
        byte[] b = buf;
        return b == null ? 0 : b.length;
    }

    private InputStream source() throws IOException {
        InputStream i = in;
        if (i == null) {
            throw Checks.streamClosed();
        }
        return i;
    }

    /**
     * Refills the buffer, keeping the marked bytes. Same policy as {@code BufferedInputStream.fill()}, so the
     * mark survives exactly as long as it would there: drop it only once more than readlimit bytes were read and
     * the buffer is full; otherwise slide the marked bytes to the front or grow the buffer up to readlimit.
     */
    private void fill() throws IOException {
        InputStream src = source();
        byte[] buffer = buf;
        if (markpos < 0) {
            pos = 0;
        } else if (pos >= buffer.length) {
            if (markpos > 0) {
                int sz = pos - markpos;
                System.arraycopy(buffer, markpos, buffer, 0, sz);
                pos = sz;
                markpos = 0;
            } else if (buffer.length >= marklimit) {
                markpos = -1;
                pos = 0;
            } else {
                int nsz = (int) Math.min(Math.max((long) pos * 2, 1), marklimit);
                nsz = Math.min(nsz, Integer.MAX_VALUE - 8);
                if (nsz <= pos) {
                    throw new OutOfMemoryError("Required array size too large");
                }
                buffer = Arrays.copyOf(buffer, nsz);
                buf = buffer;
            }
        }
        count = pos;
        int n = src.read(buffer, pos, buffer.length - pos);
        if (n > 0) {
            count = n + pos;
        }
    }

    /**
     * Reads one byte, from the buffer when it holds one: no lock, no call to the source.
     *
     * @return the byte, 0 to 255, or -1 at the end of the stream
     * @throws IOException if the source fails or this stream is closed
     */
    @Override
    public int read() throws IOException {
        // Hot path kept tiny so the JIT inlines it into the caller's loop. After close, pos == count == 0, so a
        // closed stream always takes the slow path, which throws.
        if (pos < count) {
            return buf[pos++] & 0xFF;
        }
        return readSlow();
    }

    private int readSlow() throws IOException {
        fill();
        if (pos >= count) {
            return -1;
        }
        return buf[pos++] & 0xFF;
    }

    /**
     * Reads up to {@code len} bytes into {@code b} at {@code off}. Returns the buffered bytes if there are any,
     * without blocking for more; otherwise reads from the source once, straight into {@code b} when
     * {@code len} is at least the buffer's size and no mark is set (no point copying through the buffer).
     *
     * @return the number of bytes read, at least 1 when {@code len > 0}, or -1 at the end of the stream
     * @throws NullPointerException if {@code b} is null
     * @throws IndexOutOfBoundsException if {@code off} and {@code len} are not a range of {@code b}
     * @throws IOException if the source fails or this stream is closed
     */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Checks.notNull(b, "b");
        Checks.checkRange(b.length, off, len);
        InputStream src = source();
        if (len == 0) {
            return 0;
        }
        int avail = count - pos;
        if (avail <= 0) {
            if (len >= buf.length && markpos < 0) {
                return src.read(b, off, len);
            }
            fill();
            avail = count - pos;
            if (avail <= 0) {
                return -1;
            }
        }
        int n = Math.min(avail, len);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
    }

    /**
     * Skips up to {@code n} bytes, as {@code BufferedInputStream} does: bytes in the buffer first; with an empty
     * buffer and no mark, the source's own {@code skip}.
     *
     * @return the number of bytes skipped, 0 if {@code n <= 0}
     * @throws IOException if the source fails or this stream is closed
     */
    @Override
    public long skip(long n) throws IOException {
        InputStream src = source();
        if (n <= 0) {
            return 0;
        }
        long avail = count - pos;
        if (avail <= 0) {
            if (markpos < 0) {
                return src.skip(n);
            }
            fill();
            avail = count - pos;
            if (avail <= 0) {
                return 0;
            }
        }
        long skipped = Math.min(avail, n);
        pos += (int) skipped;
        return skipped;
    }

    /**
     * Returns the number of buffered bytes if there are any (constant time), else the source's estimate.
     *
     * @throws IOException if the source fails or this stream is closed
     */
    @Override
    public int available() throws IOException {
        InputStream src = source();
        int n = count - pos;
        return n > 0 ? n : src.available();
    }

    /**
     * Marks the current position; see the class comment for the readlimit rules. Does nothing once closed.
     */
    @Override
    public void mark(int readlimit) {
        marklimit = readlimit;
        markpos = pos;
    }

    /**
     * Returns to the last mark.
     *
     * @throws IOException {@code "Resetting to invalid mark"} if no mark is set or it was dropped, or
     *     {@code "Stream closed"}
     */
    @Override
    public void reset() throws IOException {
        source();
        if (markpos < 0) {
            throw new IOException("Resetting to invalid mark");
        }
        pos = markpos;
    }

    /** Returns true: this stream supports {@link #mark(int)} and {@link #reset()}. */
    @Override
    public boolean markSupported() {
        return true;
    }

    /**
     * Reads the rest of the stream: the buffered bytes, then the source's own {@code readAllBytes} (which for a
     * file-backed Sluice stream allocates the array once, at the file's size).
     *
     * @throws OutOfMemoryError if the rest does not fit in an array
     * @throws IOException if the source fails or this stream is closed
     */
    @Override
    public byte[] readAllBytes() throws IOException {
        InputStream src = source();
        if (markpos >= 0) {
            return super.readAllBytes(); // through read(), so that the mark keeps its bytes
        }
        int buffered = count - pos;
        byte[] rest = src.readAllBytes();
        if (buffered <= 0) {
            return rest;
        }
        if ((long) buffered + rest.length > Integer.MAX_VALUE - 8) {
            throw new OutOfMemoryError("Required array size too large");
        }
        byte[] all = new byte[buffered + rest.length];
        System.arraycopy(buf, pos, all, 0, buffered);
        System.arraycopy(rest, 0, all, buffered, rest.length);
        pos = count;
        return all;
    }

    /**
     * Writes the rest of this stream to {@code out} and returns the number of bytes written. With a file-backed
     * source and target and no mark set, the bytes after the buffered ones move inside the kernel; otherwise they
     * go through this stream's buffer. Does not close or flush {@code out} (it does flush a
     * {@link FastBufferedOutputStream} before handing it bytes behind its back, which keeps the order).
     *
     * @throws NullPointerException if {@code out} is null
     * @throws IOException if reading or writing fails, or this stream is closed
     */
    @Override
    public long transferTo(OutputStream out) throws IOException {
        Checks.notNull(out, "out");
        InputStream src = source();
        long total = 0;
        if (markpos < 0) {
            int buffered = count - pos;
            if (buffered > 0) {
                out.write(buf, pos, buffered);
                pos = count;
                total += buffered;
            }
            total += FileBacked.transfer(src, out);
        }
        // What is left (all of it when a mark is set, since the marked bytes must stay in the buffer; for a file,
        // nothing, or what procfs-style files do not report in their size) goes through an ordinary read loop.
        byte[] chunk = new byte[Math.max(8192, Math.min(buf.length, 64 * 1024))];
        int n;
        while ((n = read(chunk, 0, chunk.length)) > 0) {
            out.write(chunk, 0, n);
            total += n;
        }
        return total;
    }

    /** Closes the source, the first time only; later calls do nothing. */
    @Override
    public void close() throws IOException {
        InputStream src = in;
        if (src == null) {
            return;
        }
        in = null;
        buf = null;
        pos = 0;
        count = 0;
        markpos = -1;
        src.close();
    }
}
