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
 * is served from the buffer with no lock and no call to the source; a bulk read of at least the buffer's size (or
 * of 8 KiB, whichever is smaller), with the buffer empty and no mark set, goes straight to the source into the
 * caller's array.
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
     * <p>Chosen by {@code BufferSizeBench} in sluice-bench (docs/benchmarks/io.md): reading a 64 MiB page-cached
     * file in 64-byte pieces, a 64 KiB buffer took 10% (JDK 17) and 6% (JDK 25) less CPU than an 8 KiB one (an
     * eighth of the system calls); 256 KiB was no better and 1 MiB was worse (the buffer no longer fits the cache).
     * The buffer is allocated at the first refill, and {@link dev.sluice.file.FastFiles} sizes it down for small
     * files, so the larger default costs nothing where it cannot help.
     */
    public static final int DEFAULT_BUFFER_SIZE;

    /**
     * With an empty buffer and no mark, a read of at least this many bytes (or of the whole buffer's size, if that
     * is smaller) goes straight to the source. Copying 8 KiB pieces through a 64 KiB buffer costs a third copy of
     * every byte and, for a file under 64 KiB, a zeroed buffer the reads never needed; reading 8 KiB at a time from
     * the source costs no more than reading 64 KiB and copying it out (BufferSizeBench, chunk=8192).
     */
    static final int DIRECT_READ_THRESHOLD = 8192;

    /** The built-in default, before any {@code sluice.io.bufferSize} override. */
    static final int DEFAULT_SIZE_BUILT_IN = 64 * 1024;

    static {
        DEFAULT_BUFFER_SIZE = Defaults.intProperty("sluice.io.bufferSize", DEFAULT_SIZE_BUILT_IN);
    }

    /** The source; null once closed, and {@link #buf} is then empty: a non-empty buffer means an open stream. */
    private InputStream in;

    /** Shared by every stream until its first refill: a stream that only ever bypasses never allocates. */
    private static final byte[] UNALLOCATED = new byte[0];

    /**
     * The buffer; {@link #UNALLOCATED} until the first refill and again once closed; may grow to honour a mark.
     * Unread data is {@code buf[pos..buf.length)}: the data is kept right-aligned, ending at the array's end, so
     * that {@link #read()} needs one comparison, {@code pos < buf.length}, which is also the array's own bounds
     * check (the JIT folds the two). A refill that returns less than the free space moves its bytes to the end.
     */
    private byte[] buf;

    /** The buffer's size once allocated: the constructor's, or more after a mark made it grow. */
    private int capacity;

    /** True when no size was given: then the buffer is never made larger than the file it reads. */
    private final boolean fitToFile;

    /** Index of the next byte to read; always in the range {@code shift} through {@code buf.length}. */
    private int pos;

    /**
     * How far the data was moved right to end at {@code buf.length}: the bytes before {@code shift} hold nothing.
     * Index {@code i} of {@code BufferedInputStream}'s layout, whose refill and mark policy this class follows
     * exactly, is {@code i + shift} here.
     */
    private int shift;

    /** Index of the marked byte, or -1 when no mark is set; always in the range {@code shift} through {@code pos}. */
    private int markpos = -1;

    /** The readlimit of the last {@link #mark(int)}. */
    private int marklimit;

    /**
     * Creates a stream over {@code in} with a buffer of {@link #DEFAULT_BUFFER_SIZE} bytes, or less when {@code in}
     * reads a regular file smaller than that (a {@link java.io.FileInputStream} or a
     * {@link dev.sluice.file.FastFiles} stream): allocating 64 KiB to read 16 bytes would cost more than the read.
     *
     * @throws NullPointerException if {@code in} is null
     */
    public FastBufferedInputStream(InputStream in) {
        this(in, DEFAULT_BUFFER_SIZE, true);
    }

    /**
     * Creates a stream over {@code in} with a buffer of {@code bufferSize} bytes.
     *
     * @throws NullPointerException if {@code in} is null
     * @throws IllegalArgumentException if {@code bufferSize <= 0}
     */
    public FastBufferedInputStream(InputStream in, int bufferSize) {
        this(in, bufferSize, false);
    }

    private FastBufferedInputStream(InputStream in, int bufferSize, boolean fitToFile) {
        this.fitToFile = fitToFile;
        this.in = Checks.notNull(in, "in");
        this.capacity = Checks.positive(bufferSize, "bufferSize");
        // Allocated at the first refill, not here: opening a small file and reading it with one large read (the
        // usual readAllBytes or 8 KiB-array loop) then costs no zeroed buffer at all.
        this.buf = UNALLOCATED;
    }

    /** The size of the buffer in bytes (larger than the constructor's after a mark made it grow). */
    public int bufferSize() {
        return capacity;
    }

    private InputStream source() throws IOException {
        InputStream i = in;
        if (i == null) {
            throw Checks.streamClosed();
        }
        return i;
    }

    /**
     * Refills the (empty) buffer, keeping the marked bytes. Same policy as {@code BufferedInputStream.fill()}, so the
     * mark survives exactly as long as it would there: drop it only once more than readlimit bytes were read and
     * the buffer is full; otherwise slide the marked bytes to the front or grow the buffer up to readlimit. The
     * policy runs on {@code BufferedInputStream}'s left-aligned layout (the marked bytes are moved back to it
     * first, which costs nothing without a mark), and the result is right-aligned again.
     */
    private void fill() throws IOException {
        InputStream src = source();
        byte[] buffer = buf;
        if (buffer.length == 0) {
            if (fitToFile) {
                // Asked here, not at construction: a stream read only in large pieces never pays the fstat.
                capacity = FileBacked.bufferSizeFor(src, capacity);
            }
            buffer = new byte[capacity];
            buf = buffer;
            pos = capacity;
            shift = capacity;
            if (markpos >= 0) {
                markpos = capacity; // marked before anything was buffered: the mark is at the next byte
            }
        }
        // BufferedInputStream's view: its pos and count (equal, the buffer being empty) and markpos.
        int p = pos - shift;
        int mark = markpos;
        if (mark >= 0) {
            mark -= shift;
            if (shift > 0) {
                System.arraycopy(buffer, mark + shift, buffer, mark, p - mark);
            }
        }
        if (mark < 0) {
            p = 0;
        } else if (p >= buffer.length) {
            if (mark > 0) {
                int sz = p - mark;
                System.arraycopy(buffer, mark, buffer, 0, sz);
                p = sz;
                mark = 0;
            } else if (buffer.length >= marklimit) {
                mark = -1;
                p = 0;
            } else {
                int nsz = (int) Math.min(Math.max((long) p * 2, 1), marklimit);
                nsz = Math.min(nsz, Integer.MAX_VALUE - 8);
                if (nsz <= p) {
                    throw new OutOfMemoryError("Required array size too large");
                }
                buffer = Arrays.copyOf(buffer, nsz);
                buf = buffer;
                capacity = nsz;
            }
        }
        int count = p;
        int n;
        try {
            n = src.read(buffer, p, buffer.length - p);
        } catch (IOException | RuntimeException | Error e) {
            align(buffer, p, p, mark); // consistent again, so that a caller may go on after the failure
            throw e;
        }
        if (n > 0) {
            count = n + p;
        }
        align(buffer, p, count, mark);
    }

    /**
     * Moves {@code BufferedInputStream}'s layout (next byte {@code p}, data up to {@code count}, mark {@code mark}) to
     * this class's right-aligned one, and sets {@link #pos}, {@link #shift} and {@link #markpos}.
     */
    private void align(byte[] buffer, int p, int count, int mark) {
        int sh = buffer.length - count;
        if (sh > 0) {
            int from = mark >= 0 ? mark : p;
            System.arraycopy(buffer, from, buffer, from + sh, count - from);
        }
        shift = sh;
        pos = p + sh;
        markpos = mark < 0 ? -1 : mark + sh;
    }

    /**
     * Reads one byte, from the buffer when it holds one: no lock, no call to the source.
     *
     * @return the byte, 0 to 255, or -1 at the end of the stream
     * @throws IOException if the source fails or this stream is closed
     */
    @Override
    public int read() throws IOException {
        // Written for the caller's loop, into which C2 inlines this method. The fast path is one comparison, which is
        // also the bounds check (unread data always ends at buf.length). The common refill (buffer allocated, no
        // mark) is inline too and calls nothing but the source: when a call in the inlined code is given this
        // stream, as a receiver or an argument (a readSlow() or fill() of its own), C2 keeps the caller's loop
        // variables in stack slots for the whole loop and reloads them for every byte (ByteAtATimeBench and the
        // generated code, docs/benchmarks/io.md, 2026-11-25). Closed (buf is then empty), not yet allocated or
        // marked: fill(), whose policy is BufferedInputStream's.
        byte[] b = buf;
        int p = pos;
        if (p >= b.length) {
            if (b.length == 0 || markpos >= 0) {
                fill();
                b = buf;
                p = pos;
                if (p >= b.length) {
                    return -1;
                }
            } else {
                // fill() without a mark: read into the whole buffer from index 0, then right-align what came. Until
                // the source returns, the buffer is empty with shift == length, as fill() leaves it if the read throws.
                int len = b.length;
                shift = len;
                int n = in.read(b, 0, len);
                if (n <= 0) {
                    return -1;
                }
                p = len - n;
                if (p > 0) {
                    System.arraycopy(b, 0, b, p, n);
                }
                shift = p;
            }
        }
        pos = p + 1;
        return Byte.toUnsignedInt(b[p]);
    }

    /**
     * Reads up to {@code len} bytes into {@code b} at {@code off}. Returns the buffered bytes if there are any,
     * without blocking for more; otherwise reads from the source once, straight into {@code b} when
     * {@code len} is at least the buffer's size or 8 KiB and no mark is set (no point copying through the buffer).
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
        int avail = buf.length - pos;
        if (avail <= 0) {
            if (len >= Math.min(capacity, DIRECT_READ_THRESHOLD) && markpos < 0) {
                return src.read(b, off, len);
            }
            fill();
            avail = buf.length - pos;
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
        long avail = buf.length - pos;
        if (avail <= 0) {
            if (markpos < 0) {
                return src.skip(n);
            }
            fill();
            avail = buf.length - pos;
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
        int n = buf.length - pos;
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
        int buffered = buf.length - pos;
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
        pos = buf.length;
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
        if (markpos >= 0) {
            return super.transferTo(out); // through read(), so that the mark keeps its bytes
        }
        long total = 0;
        int buffered = buf.length - pos;
        if (buffered > 0) {
            out.write(buf, pos, buffered);
            pos = buf.length;
            total = buffered;
        }
        // The buffer is empty and unmarked: the rest comes straight from the source, in the kernel when both ends
        // are files.
        return total + Streams.copy(src, out);
    }

    /** Closes the source, the first time only; later calls do nothing. */
    @Override
    public void close() throws IOException {
        InputStream src = in;
        if (src == null) {
            return;
        }
        in = null;
        buf = UNALLOCATED;
        pos = 0;
        shift = 0;
        markpos = -1;
        src.close();
    }
}
