package dev.sluice.testing;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;

/**
 * An in-memory source that behaves as badly as the {@link InputStream} contract allows: reads that return fewer
 * bytes than asked (one at a time, or a random amount), an {@code available()} that lies, a failure after a chosen
 * number of bytes. "Random prime, unlikely to match any internal chunk size" applies to the sizes tests pick.
 */
public final class HostileInputStream extends InputStream {
    /** How reads are cut short. */
    public enum Mode { FULL, ONE_BYTE, RANDOM_SHORT }

    private final byte[] data;
    private final Mode mode;
    private final Random random;
    private final boolean lyingAvailable;
    private final long failAt;
    private int pos;
    private int closeCount;
    private int availableCalls;

    /**
     * @param failAt the offset at which reads throw {@link IOException} ("injected failure"), or -1 for never
     */
    public HostileInputStream(byte[] data, Mode mode, long seed, boolean lyingAvailable, long failAt) {
        this.data = data;
        this.mode = mode;
        this.random = new Random(seed);
        this.lyingAvailable = lyingAvailable;
        this.failAt = failAt;
    }

    public static HostileInputStream of(byte[] data, Mode mode, long seed) {
        return new HostileInputStream(data, mode, seed, false, -1);
    }

    private void checkFail() throws IOException {
        if (failAt >= 0 && pos >= failAt) {
            throw new InjectedIOException("injected failure at offset " + pos);
        }
    }

    @Override
    public int read() throws IOException {
        checkFail();
        return pos < data.length ? data[pos++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        checkFail();
        if (pos >= data.length) {
            return -1;
        }
        int n = Math.min(len, data.length - pos);
        if (failAt >= 0) {
            n = (int) Math.min(n, failAt - pos);
        }
        switch (mode) {
            case ONE_BYTE -> n = 1;
            case RANDOM_SHORT -> n = 1 + random.nextInt(n);
            default -> { }
        }
        System.arraycopy(data, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        checkFail();
        if (n <= 0) {
            return 0;
        }
        long k = Math.min(n, data.length - pos);
        if (mode != Mode.FULL && k > 0) {
            k = 1 + random.nextInt((int) Math.min(k, Integer.MAX_VALUE));
        }
        pos += (int) k;
        return k;
    }

    @Override
    public int available() {
        availableCalls++;
        if (lyingAvailable) {
            return random.nextBoolean() ? 0 : random.nextInt(1 << 20);
        }
        return data.length - pos;
    }

    @Override
    public void close() {
        closeCount++;
    }

    public int closeCount() {
        return closeCount;
    }

    public int availableCalls() {
        return availableCalls;
    }

    public int position() {
        return pos;
    }

    @Override
    public String toString() {
        return "HostileInputStream[" + mode + (lyingAvailable ? ", lying available" : "") + ", failAt=" + failAt
                + ", size=" + data.length + "] " + Arrays.hashCode(data);
    }

    /** The failure a {@link HostileInputStream} or {@link HostileOutputStream} injects. */
    public static final class InjectedIOException extends IOException {
        private static final long serialVersionUID = 1L;

        public InjectedIOException(String message) {
            super(message);
        }
    }
}
