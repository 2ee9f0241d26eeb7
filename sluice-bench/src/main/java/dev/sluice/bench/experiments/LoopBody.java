package dev.sluice.bench.experiments;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;

/**
 * The bodies of the inner loops the experiments share ({@link Loops} dispatches to them). The quick harness loads a
 * fresh copy of this class for every case ({@link Loops#isolated()}) and runs the byte-at-a-time loops in it, so that
 * the JIT profiles each case's {@code read()} and {@code write(int)} calls on their own: one shared copy would see
 * every variant's stream class there and compile a megamorphic call per byte, slower for all and by how much
 * depending on the order the variants ran in, which is what made E1's ratio move between forks. A user's loop sees
 * one stream class; so does each copy. No lambdas or nested classes here: a hidden copy has no nest.
 */
final class LoopBody implements Loops.Body {
    LoopBody() {}

    /** Reads {@code in} one byte at a time with {@code read()}; closes it. */
    @Override
    public long byteAtATime(InputStream in) throws IOException {
        long sum = 0;
        try (in) {
            int b;
            while ((b = in.read()) >= 0) {
                sum += b;
            }
        }
        return sum;
    }

    /** Reads {@code in} into an array of {@code arraySize}, adding up every byte; closes it. */
    @Override
    public long sumBytes(InputStream in, int arraySize) throws IOException {
        byte[] buf = new byte[arraySize];
        long sum = 0;
        try (in) {
            int n;
            while ((n = in.read(buf, 0, buf.length)) >= 0) {
                for (int i = 0; i < n; i++) {
                    sum += buf[i] & 0xff;
                }
            }
        }
        return sum;
    }

    /** Reads {@code in} into a char array of 8 KiB, adding up every char; closes it. */
    @Override
    public long sumChars(Reader in) throws IOException {
        char[] buf = new char[8192];
        long sum = 0;
        try (in) {
            int n;
            while ((n = in.read(buf, 0, buf.length)) >= 0) {
                for (int i = 0; i < n; i++) {
                    sum += buf[i];
                }
            }
        }
        return sum;
    }

    /** Copies one byte at a time with {@code read()} and {@code write(int)}; closes both. Returns the byte sum. */
    @Override
    public long copyByteAtATime(InputStream in, OutputStream out) throws IOException {
        long sum = 0;
        try (in; out) {
            int b;
            while ((b = in.read()) >= 0) {
                out.write(b);
                sum += b;
            }
        }
        return sum;
    }

    /** Writes {@code count} bytes one at a time with {@code write(int)}; closes the stream. Returns their sum. */
    @Override
    public long writeByteAtATime(OutputStream out, long count) throws IOException {
        long sum = 0;
        try (out) {
            for (long i = 0; i < count; i++) {
                int b = (int) (i * 31 + (i >>> 9)) & 0xff;
                out.write(b);
                sum += b;
            }
        }
        return sum;
    }

    /** The classic read/write loop with one array of {@code size}; closes both. Returns bytes copied. */
    @Override
    public long copyLoop(InputStream in, OutputStream out, int size) throws IOException {
        byte[] buf = new byte[size];
        long total = 0;
        try (in; out) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                total += n;
            }
        }
        return total;
    }

    /** Compares two streams with two arrays of {@code size}; closes both. Returns 1 if equal, 0 if not. */
    @Override
    public long equalsLoop(InputStream a, InputStream b, int size) throws IOException {
        byte[] x = new byte[size];
        byte[] y = new byte[size];
        try (a; b) {
            while (true) {
                int n = a.readNBytes(x, 0, size);
                int m = b.readNBytes(y, 0, size);
                if (n != m || !java.util.Arrays.equals(x, 0, n, y, 0, m)) {
                    return 0;
                }
                if (n < size) {
                    return 1;
                }
            }
        }
    }

    /**
     * Reads {@code in} in pieces of {@code piece} bytes, adding up every byte and asking {@code available()} after
     * each piece (experiment E6); closes it.
     */
    @Override
    public long poll(InputStream in, int piece) throws IOException {
        byte[] buf = new byte[piece];
        long sum = 0;
        long polls = 0;
        try (in) {
            int n;
            while ((n = in.read(buf, 0, piece)) >= 0) {
                for (int i = 0; i < n; i++) {
                    sum += buf[i] & 0xff;
                }
                polls += in.available() > 0 ? 1 : 0;
            }
        }
        // The polls feed the result so the calls stay, without changing the sum the variants agree on.
        return polls < 0 ? -1 : sum;
    }

    /** Reads {@code in} into an array of {@code arraySize} and nothing else (no per-byte work); closes it. */
    @Override
    public long drain(InputStream in, int arraySize) throws IOException {
        byte[] buf = new byte[arraySize];
        long total = 0;
        try (in) {
            int n;
            while ((n = in.read(buf, 0, buf.length)) >= 0) {
                total += n;
            }
        }
        return total;
    }

    /**
     * The loop of source A's available() test: while {@code available()} is not 0, {@code read(buf)} into an array of
     * {@code piece} bytes, and nothing else; closes the stream. Returns the bytes read.
     */
    @Override
    public long readWhileAvailable(InputStream in, int piece) throws IOException {
        byte[] buf = new byte[piece];
        long total = 0;
        try (in) {
            while (in.available() != 0) {
                int n = in.read(buf);
                if (n < 0) {
                    break;
                }
                total += n;
            }
        }
        return total;
    }
}
