package dev.sluice.file;

import dev.sluice.internal.ChannelBacked;
import dev.sluice.internal.Checks;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;

/** An unbuffered output stream over a {@link FileChannel} it owns. No lock; not thread-safe. */
final class ChannelOutputStream extends OutputStream implements ChannelBacked {
    private final FileChannel ch;
    private boolean closed;

    ChannelOutputStream(FileChannel ch) {
        this.ch = ch;
    }

    /**
     * A stream over {@code ch}, typed as an {@code OutputStream}: a caller that passes {@code new
     * ChannelOutputStream(ch)} where an {@code OutputStream} goes makes the bytecode verifier load this class to check
     * the assignment when the caller's class is linked, so FastFiles, which only reads in most programs, calls this.
     */
    static OutputStream of(FileChannel ch) {
        return new ChannelOutputStream(ch);
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
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Checks.notNull(b, "b");
        Checks.checkRange(b.length, off, len);
        ensureOpen();
        ByteBuffer bb = ByteBuffer.wrap(b, off, len);
        try {
            while (bb.hasRemaining()) {
                ch.write(bb);
            }
        } catch (ClosedChannelException e) {
            IOException io = Checks.streamClosed();
            io.initCause(e);
            throw io;
        }
    }

    @Override
    public void flush() throws IOException {
        ensureOpen(); // bytes written to a FileChannel are already in the kernel: nothing to flush
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            ch.close();
        }
    }
}
