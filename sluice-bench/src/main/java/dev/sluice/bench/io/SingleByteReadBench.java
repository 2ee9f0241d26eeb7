package dev.sluice.bench.io;

import dev.sluice.file.FastFiles;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.commons.io.input.UnsynchronizedBufferedInputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * E1 (input side) and E6: read a 64 MiB page-cached file one byte at a time with {@code read()}, adding up the
 * bytes, through each buffered stream. {@code available} = every 512 bytes the loop also calls {@code available()},
 * as the classic test did. One op = the whole file; MB/s = 64 MiB / (ms/op).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SingleByteReadBench {

    static final long SIZE = 64L << 20;

    /** Whether the loop calls available() once per 512 bytes (E6). */
    @Param({"false", "true"})
    public boolean available;

    Path file;

    @Setup
    public void setup() throws IOException {
        file = BenchData.randomFile(SIZE);
    }

    private long drain(InputStream in) throws IOException {
        long sum = 0;
        try (in) {
            if (available) {
                int b;
                int i = 0;
                while ((b = in.read()) >= 0) {
                    sum += b;
                    if ((++i & 511) == 0) {
                        sum += in.available();
                    }
                }
            } else {
                int b;
                while ((b = in.read()) >= 0) {
                    sum += b;
                }
            }
        }
        return sum;
    }

    @Benchmark
    public long jdkBufferedInputStream() throws IOException {
        return drain(new BufferedInputStream(new FileInputStream(file.toFile()), 8192));
    }

    @Benchmark
    public long jdkBufferedInputStream64k() throws IOException {
        return drain(new BufferedInputStream(new FileInputStream(file.toFile()), 65536));
    }

    @Benchmark
    public long commonsIoUnsynchronized() throws IOException {
        return drain(new UnsynchronizedBufferedInputStream.Builder()
                .setInputStream(new FileInputStream(file.toFile())).setBufferSize(8192).get());
    }

    @Benchmark
    public long fastutilFastBuffered() throws IOException {
        return drain(new it.unimi.dsi.fastutil.io.FastBufferedInputStream(new FileInputStream(file.toFile())));
    }

    @Benchmark
    public long okioBufferedSource() throws IOException {
        return drain(okio.Okio.buffer(okio.Okio.source(file)).inputStream());
    }

    @Benchmark
    public long sluiceFastFiles() throws IOException {
        return drain(FastFiles.newInputStream(file));
    }

    @Benchmark
    public long sluiceOverFileInputStream() throws IOException {
        return drain(new dev.sluice.io.FastBufferedInputStream(new FileInputStream(file.toFile())));
    }
}
