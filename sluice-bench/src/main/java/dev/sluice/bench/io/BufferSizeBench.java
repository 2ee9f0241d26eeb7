package dev.sluice.bench.io;

import dev.sluice.io.FastBufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * Chooses {@link FastBufferedInputStream#DEFAULT_BUFFER_SIZE}: read a 64 MiB page-cached file through
 * FastBufferedInputStream with each buffer size, in pieces of {@code chunk} bytes (smaller than any buffer here, so
 * every byte goes through the buffer), adding up the bytes. One op = the whole file.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
public class BufferSizeBench {

    @Param({"4096", "8192", "16384", "65536", "262144", "1048576"})
    public int bufferSize;

    @Param({"64", "1024"})
    public int chunk;

    Path file;
    byte[] array;

    @Setup
    public void setup() throws IOException {
        file = BenchData.randomFile(SingleByteReadBench.SIZE);
        array = new byte[chunk];
    }

    @Benchmark
    public long read() throws IOException {
        long sum = 0;
        byte[] a = array;
        try (FastBufferedInputStream in = new FastBufferedInputStream(new FileInputStream(file.toFile()), bufferSize)) {
            int n;
            while ((n = in.read(a, 0, a.length)) >= 0) {
                for (int i = 0; i < n; i++) {
                    sum += a[i];
                }
            }
        }
        return sum;
    }
}
