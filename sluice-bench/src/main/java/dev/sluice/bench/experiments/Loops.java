package dev.sluice.bench.experiments;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;

/** The inner loops the experiments share: each touches every byte or char and returns a sum of them. */
final class Loops {
    private Loops() {}

    /** Reads {@code in} one byte at a time with {@code read()}; closes it. */
    static long byteAtATime(InputStream in) throws IOException {
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
    static long sumBytes(InputStream in, int arraySize) throws IOException {
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
    static long sumChars(Reader in) throws IOException {
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
    static long copyByteAtATime(InputStream in, OutputStream out) throws IOException {
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
    static long writeByteAtATime(OutputStream out, long count) throws IOException {
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
    static long copyLoop(InputStream in, OutputStream out, int size) throws IOException {
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
    static long equalsLoop(InputStream a, InputStream b, int size) throws IOException {
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

    static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        if (bytes >= 1_000_000 && bytes % 1_000_000 == 0) {
            return (bytes / 1_000_000) + " MB";
        }
        if (bytes >= 1000 && bytes % 1000 == 0) {
            return (bytes / 1000) + " KB";
        }
        return bytes + " B";
    }
}
