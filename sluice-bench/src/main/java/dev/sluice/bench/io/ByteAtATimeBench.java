package dev.sluice.bench.io;

import dev.sluice.io.FastBufferedInputStream;
import dev.sluice.io.FastBufferedOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * E1's byte-at-a-time loops against the two references issue 20 holds Sluice to: a minimal stream (a 64 KiB array,
 * {@code pos < lim}, no mark, no closed check: the floor for any buffered {@code read()}) and fastutil's
 * FastBufferedInputStream/OutputStream. A 64 MiB page-cached file read through {@code FileInputStream}; every buffer
 * is 64 KiB unless the name says 8k (fastutil's default, which the report's E1 gives every class that takes a size).
 * {@code copy*} reads with {@code read()} and writes each byte with {@code write(int)} into a buffered stream over a
 * sink that drops the bytes, so that the score is the loop and the two streams, not a file system's write path. JMH
 * runs each method in JVMs of its own, so every call site sees one stream class, as in a user's loop. One op = the
 * whole file.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
public class ByteAtATimeBench {

    static final long SIZE = 64L << 20;
    static final int BUFFER = 64 * 1024;

    Path file;

    @Setup
    public void setup() throws IOException {
        file = BenchData.randomFile(SIZE);
    }

    private InputStream source() throws IOException {
        return new FileInputStream(file.toFile());
    }

    static long read(InputStream in) throws IOException {
        long sum = 0;
        try (in) {
            int b;
            while ((b = in.read()) >= 0) {
                sum += b;
            }
        }
        return sum;
    }

    static long copy(InputStream in, OutputStream out) throws IOException {
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

    @Benchmark
    public long readMinimal() throws IOException {
        return read(new MinimalInputStream(source()));
    }

    @Benchmark
    public long readSluice() throws IOException {
        return read(new FastBufferedInputStream(source(), BUFFER));
    }

    @Benchmark
    public long readFastutil() throws IOException {
        return read(new it.unimi.dsi.fastutil.io.FastBufferedInputStream(source(), BUFFER));
    }

    /** Sluice with fastutil's 8 KiB default, beside {@link #readFastutil8k}: the report's E1 buffer size. */
    @Benchmark
    public long readSluice8k() throws IOException {
        return read(new FastBufferedInputStream(source(), 8192));
    }

    @Benchmark
    public long readFastutil8k() throws IOException {
        return read(new it.unimi.dsi.fastutil.io.FastBufferedInputStream(source()));
    }

    @Benchmark
    public long copyMinimal() throws IOException {
        return copy(new MinimalInputStream(source()), new MinimalOutputStream(new DropSink()));
    }

    @Benchmark
    public long copySluice() throws IOException {
        return copy(new FastBufferedInputStream(source(), BUFFER),
                new FastBufferedOutputStream(new DropSink(), BUFFER));
    }

    @Benchmark
    public long copyFastutil() throws IOException {
        return copy(new it.unimi.dsi.fastutil.io.FastBufferedInputStream(source(), BUFFER),
                new it.unimi.dsi.fastutil.io.FastBufferedOutputStream(new DropSink(), BUFFER));
    }

    @Benchmark
    public long copyFastutil8k() throws IOException {
        return copy(new it.unimi.dsi.fastutil.io.FastBufferedInputStream(source()),
                new it.unimi.dsi.fastutil.io.FastBufferedOutputStream(new DropSink()));
    }

    /** Sluice with 8 KiB buffers on both sides, like for like with {@link #copyFastutil8k}. */
    @Benchmark
    public long copySluice8k() throws IOException {
        return copy(new FastBufferedInputStream(source(), 8192), new FastBufferedOutputStream(new DropSink(), 8192));
    }

    /** The floor for a buffered {@code read()}: no mark, no closed check, nothing but the array and two ints. */
    static final class MinimalInputStream extends InputStream {
        private final InputStream in;
        private final byte[] buf = new byte[BUFFER];
        private int pos;
        private int lim;

        MinimalInputStream(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            if (pos < lim) {
                return buf[pos++] & 0xFF;
            }
            int n = in.read(buf, 0, buf.length);
            if (n <= 0) {
                return -1;
            }
            pos = 1;
            lim = n;
            return buf[0] & 0xFF;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** The write side's floor: an array and a count, flushed when full and at close. */
    static final class MinimalOutputStream extends OutputStream {
        private final OutputStream out;
        private final byte[] buf = new byte[BUFFER];
        private int count;

        MinimalOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            if (count == buf.length) {
                out.write(buf, 0, count);
                count = 0;
            }
            buf[count++] = (byte) b;
        }

        @Override
        public void close() throws IOException {
            out.write(buf, 0, count);
            out.close();
        }
    }

    /** A sink that keeps nothing but reads one byte of each write, so the writes cannot be dropped as dead code. */
    static final class DropSink extends OutputStream {
        long seen;

        @Override
        public void write(int b) {
            seen += b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            seen += len + b[off];
        }
    }
}
