package dev.sluice.file;

import dev.sluice.internal.ChannelBacked;
import dev.sluice.internal.Checks;
import dev.sluice.io.Streams;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * An unbuffered input stream over a {@link FileChannel} it owns. Unlike {@code Channels.newInputStream} it takes no
 * lock and knows the file's size, so {@code available}, {@code skip} and {@code readAllBytes} cost a system call or
 * two instead of a read loop. Not thread-safe.
 */
final class ChannelInputStream extends InputStream implements ChannelBacked {
    private final FileChannel ch;
    private boolean closed;

    /** For {@link #read()}: unbuffered single-byte reads are slow anyway, but need not allocate. */
    private byte[] single;

    ChannelInputStream(FileChannel ch) {
        this.ch = ch;
    }

    @Override
    public FileChannel channel() {
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
        try {
            return ch.read(ByteBuffer.wrap(b, off, len));
        } catch (ClosedChannelException e) {
            throw closedUnderneath(e);
        }
    }

    /** The channel was closed by someone else (or by an interrupt): report it as the stream being closed. */
    private static IOException closedUnderneath(ClosedChannelException e) {
        IOException io = Checks.streamClosed();
        io.initCause(e);
        return io;
    }

    @Override
    public long skip(long n) throws IOException {
        ensureOpen();
        if (n <= 0) {
            return 0;
        }
        long pos = ch.position();
        long size = ch.size();
        long skipped = Math.min(n, Math.max(0, size - pos));
        ch.position(pos + skipped);
        return skipped;
    }

    @Override
    public int available() throws IOException {
        ensureOpen();
        long left = ch.size() - ch.position();
        return (int) Math.max(0, Math.min(left, Integer.MAX_VALUE));
    }

    @Override
    public byte[] readAllBytes() throws IOException {
        ensureOpen();
        long left = ch.size() - ch.position();
        if (left > Integer.MAX_VALUE - 8) {
            throw new OutOfMemoryError("Required array size too large");
        }
        if (left <= 0) {
            return super.readAllBytes(); // size unknown (procfs) or at the end: the generic loop is right for both
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

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            ch.close();
        }
    }
}
