package dev.sluice.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A sink that records what it was given and can fail on demand: its writes, flushes or close throw
 * {@link HostileInputStream.InjectedIOException} while the matching flag is set.
 */
public final class HostileOutputStream extends OutputStream {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    public boolean failWrites;
    public boolean failFlush;
    public boolean failClose;
    /** If not negative: the write that would pass this many bytes stores what fits, then throws (once). */
    public long failAtByte = -1;
    private int writeCalls;
    private int flushCount;
    private int closeCount;

    @Override
    public void write(int b) throws IOException {
        if (failAtByte >= 0) {
            write(new byte[] {(byte) b}, 0, 1);
            return;
        }
        writeCalls++;
        if (failWrites) {
            throw new HostileInputStream.InjectedIOException("injected write failure");
        }
        bytes.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        writeCalls++;
        if (failWrites) {
            throw new HostileInputStream.InjectedIOException("injected write failure");
        }
        if (failAtByte >= 0 && bytes.size() + (long) len > failAtByte) {
            bytes.write(b, off, (int) (failAtByte - bytes.size()));
            failAtByte = -1;
            throw new HostileInputStream.InjectedIOException("injected write failure at byte " + bytes.size());
        }
        bytes.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        flushCount++;
        if (failFlush) {
            throw new HostileInputStream.InjectedIOException("injected flush failure");
        }
    }

    @Override
    public void close() throws IOException {
        closeCount++;
        if (failClose) {
            throw new HostileInputStream.InjectedIOException("injected close failure");
        }
    }

    public byte[] toByteArray() {
        return bytes.toByteArray();
    }

    public int writeCalls() {
        return writeCalls;
    }

    public int flushCount() {
        return flushCount;
    }

    public int closeCount() {
        return closeCount;
    }
}
