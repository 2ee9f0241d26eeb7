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
    private int writeCalls;
    private int flushCount;
    private int closeCount;

    @Override
    public void write(int b) throws IOException {
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
