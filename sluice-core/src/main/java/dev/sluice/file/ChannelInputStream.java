package dev.sluice.file;

import dev.sluice.internal.ChannelBacked;
import dev.sluice.internal.Checks;
import dev.sluice.internal.ReadAheadBuffers;
import dev.sluice.io.Streams;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * An input stream over a {@link FileChannel} it owns. Unlike {@code Channels.newInputStream} it takes no lock and
 * knows the file's size, so {@code available}, {@code skip} and {@code readAllBytes} cost a system call or two instead
 * of a read loop. Not thread-safe.
 *
 * <p><b>Read-ahead:</b> each {@code read} system call fills a pooled direct buffer of {@link ReadAheadBuffers#SIZE}
 * bytes, which later reads are served from by copying. A read into a heap array through {@link FileChannel} copies
 * through a temporary direct buffer anyway, so this costs no extra copy, and a loop of 8 KiB reads makes one system
 * call per 256 KiB instead of one per 8 KiB (on the VMs measured, the system calls were most of the cost). When the
 * pool is exhausted, reads go straight into the caller's array, one system call each.
 *
 * <p>The channel's position runs ahead of the stream's by the bytes held in the read-ahead buffer. {@link #channel()}
 * gives them back (moves the channel's position back to the stream's) before handing the channel out.
 */
final class ChannelInputStream extends InputStream implements ChannelBacked {
    /** Marks a stream that found the pool exhausted: it reads straight into the caller's arrays. */
    private static final ByteBuffer NO_READ_AHEAD = ByteBuffer.allocate(0);

    private final FileChannel ch;
    private boolean closed;

    /**
     * The read-ahead buffer, in read mode: the bytes from its position to its limit come next in the stream. Null
     * until the first read, {@link #NO_READ_AHEAD} when the pool had none, null again once closed.
     */
    private ByteBuffer ahead;

    /** The thread that took {@link #ahead} from the pool. */
    private Thread owner;

    /**
     * Set once another thread than {@link #owner} has read: then a close cannot know that no read still uses the
     * buffer (a stream handed to a worker and closed by its creator to cancel it), so close drops it instead of
     * pooling it.
     */
    private boolean shared;

    /** For {@link #read()}: unbuffered single-byte reads are slow anyway, but need not allocate. */
    private byte[] single;

    ChannelInputStream(FileChannel ch) {
        this.ch = ch;
    }

    /**
     * The channel, positioned where this stream is: bytes read ahead are given back by moving the channel's
     * position back. Returns null when that is impossible (a pipe cannot seek), so that callers copy through
     * {@link #read} instead.
     */
    @Override
    public FileChannel channel() {
        ByteBuffer a = ahead;
        if (a != null && a.hasRemaining()) {
            try {
                // Only a regular file gives bytes back by seeking: a pipe cannot seek, and a device such as
                // /dev/zero seeks without moving (its position stays 0) and procfs files report size 0.
                long back = ch.position() - a.remaining();
                if (back < 0 || ch.size() <= 0) {
                    return null;
                }
                ch.position(back);
            } catch (IOException notSeekable) {
                return null;
            }
            a.position(a.limit());
        }
        return ch;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw Checks.streamClosed();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = single;
        if (one == null) {
            one = single = new byte[1];
        }
        int n = read(one, 0, 1);
        return n <= 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Checks.notNull(b, "b");
        Checks.checkRange(b.length, off, len);
        ensureOpen();
        if (len == 0) {
            return 0;
        }
        ByteBuffer a = ahead;
        if (a == null) {
            a = takeBuffer();
        } else if (owner != Thread.currentThread() && a != NO_READ_AHEAD) {
            shared = true;
        }
        try {
            if (a == NO_READ_AHEAD) {
                return ch.read(ByteBuffer.wrap(b, off, len));
            }
            if (!a.hasRemaining() && fill(a) < 0) {
                return -1;
            }
        } catch (ClosedChannelException e) {
            dropBuffer();
            throw closedUnderneath(e);
        }
        int n = Math.min(len, a.remaining());
        a.get(b, off, n);
        return n;
    }

    private ByteBuffer takeBuffer() {
        ByteBuffer a = ReadAheadBuffers.take();
        if (a == null) {
            a = NO_READ_AHEAD;
        } else {
            owner = Thread.currentThread();
            a.limit(0); // nothing read ahead yet
        }
        ahead = a;
        return a;
    }

    /** Reads the next bytes into the (empty) read-ahead buffer: at least one, or -1 at the end of the file. */
    private int fill(ByteBuffer a) throws IOException {
        a.clear();
        int n = 0;
        try {
            while (n == 0) { // a FileChannel blocks until it has a byte; the loop only guards against a zero count
                n = ch.read(a);
            }
        } finally {
            a.flip(); // what was read, or nothing if the read failed
        }
        return n;
    }

    /**
     * The channel was closed under a read (by an interrupt, or by another thread while this one read): the buffer
     * this stream holds is dropped rather than pooled, since no one can say whether a read still fills it, and the
     * stream no longer holds one.
     */
    private synchronized void dropBuffer() { // synchronized with close(): the buffer is released once
        ByteBuffer a = ahead;
        if (a != null && a != NO_READ_AHEAD) {
            ahead = null;
            ReadAheadBuffers.release(a, false);
        }
    }

    /** The channel was closed by someone else (or by an interrupt): report it as the stream being closed. */
    private static IOException closedUnderneath(ClosedChannelException e) {
        IOException io = Checks.streamClosed();
        io.initCause(e);
        return io;
    }

    /**
     * The file's bytes after the channel's position (0 when the size is unknown, as for procfs), or -1 when the
     * channel cannot seek (a pipe).
     */
    private long leftInFile() throws IOException {
        try {
            return Math.max(0, ch.size() - ch.position());
        } catch (ClosedChannelException e) {
            throw closedUnderneath(e);
        } catch (IOException notSeekable) {
            return -1;
        }
    }

    /** The bytes read ahead and not yet handed out. */
    private int buffered() {
        ByteBuffer a = ahead;
        return a == null ? 0 : a.remaining();
    }

    /**
     * Skips {@code min(n, bytes left)}: the bytes read ahead first, then by moving the channel's position (never
     * past the end, unlike {@code FileInputStream}). A pipe, which cannot seek, is skipped by reading.
     */
    @Override
    public long skip(long n) throws IOException {
        ensureOpen();
        if (n <= 0) {
            return 0;
        }
        int k = (int) Math.min(n, buffered());
        if (k > 0) {
            ahead.position(ahead.position() + k);
            if (k == n) {
                return k;
            }
        }
        long left = leftInFile();
        if (left < 0) {
            return k + super.skip(n - k); // a pipe: skipped by reading
        }
        long skipped = Math.min(n - k, left);
        try {
            ch.position(ch.position() + skipped);
        } catch (ClosedChannelException e) {
            throw closedUnderneath(e);
        }
        return k + skipped;
    }

    @Override
    public int available() throws IOException {
        ensureOpen();
        int buffered = buffered();
        long left = leftInFile();
        if (left < 0) {
            return buffered; // a pipe: what we hold is all we know of
        }
        return (int) Math.min(buffered + left, Integer.MAX_VALUE);
    }

    @Override
    public byte[] readAllBytes() throws IOException {
        ensureOpen();
        int buffered = buffered();
        long inFile = leftInFile();
        if (inFile < 0) {
            return super.readAllBytes(); // a pipe: no size to go by
        }
        long left = buffered + inFile;
        if (left > Integer.MAX_VALUE - 8) {
            throw new OutOfMemoryError("Required array size too large");
        }
        if (left <= buffered) {
            return super.readAllBytes(); // size unknown (procfs) or nothing left in the file: the generic loop is right
        }
        byte[] all = new byte[(int) left];
        int n = 0;
        while (n < all.length) {
            int r = read(all, n, all.length - n);
            if (r < 0) {
                return Arrays.copyOf(all, n); // truncated while we read
            }
            n += r;
        }
        byte[] more = super.readAllBytes(); // grown while we read: usually empty, one read() call
        if (more.length == 0) {
            return all;
        }
        byte[] grown = Arrays.copyOf(all, Math.addExact(all.length, more.length));
        System.arraycopy(more, 0, grown, all.length, more.length);
        return grown;
    }

    /**
     * Copies the rest of the file to {@code out} through {@link Streams#copy}: inside the kernel when {@code out} is
     * file-backed (also behind a {@code FastBufferedOutputStream}), else through one buffer.
     */
    @Override
    public long transferTo(OutputStream out) throws IOException {
        Checks.notNull(out, "out");
        ensureOpen();
        return Streams.copy(this, out);
    }

    /**
     * Closes the channel, the first time only (also when two threads close at once). The channel is closed first,
     * which waits for a read under way in another thread to leave the kernel; the read-ahead buffer then goes back
     * to the pool only when the closing thread is the only one that ever read this stream. Otherwise a read may still
     * be copying out of it, so it is left to the garbage collector.
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        ByteBuffer a = ahead;
        ahead = null;
        try {
            ch.close();
        } finally {
            if (a != null && a != NO_READ_AHEAD) {
                ReadAheadBuffers.release(a, owner == Thread.currentThread() && !shared);
            }
        }
    }
}
