package dev.sluice.bench.io;

import dev.sluice.file.FastFiles;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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
 * Bulk reads of a 256 MiB page-cached file into a 64 KiB array (for the direct-buffer variant, a 64 KiB direct
 * buffer: the floor, since the kernel copies straight into it). One op = the whole file.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BulkReadBench {

    static final long SIZE = 256L << 20;

    Path file;
    final byte[] array = new byte[64 * 1024];
    ByteBuffer direct;

    @Setup
    public void setup() throws IOException {
        file = BenchData.randomFile(SIZE);
        direct = ByteBuffer.allocateDirect(64 * 1024);
    }

    private long drain(InputStream in) throws IOException {
        return BenchData.drain(in, array);
    }

    @Benchmark
    public long fileChannelDirectBuffer() throws IOException {
        long total = 0;
        try (FileChannel ch = FileChannel.open(file)) {
            ByteBuffer b = direct;
            int n;
            while ((n = ch.read(b.clear())) >= 0) {
                total += n + b.get(0);
            }
        }
        return total;
    }

    @Benchmark
    public long fileInputStream() throws IOException {
        return drain(new FileInputStream(file.toFile()));
    }

    @Benchmark
    public long sluiceFastFiles() throws IOException {
        return drain(FastFiles.newInputStream(file));
    }

    @Benchmark
    public long sluiceUnbuffered() throws IOException {
        return drain(FastFiles.newUnbufferedInputStream(file));
    }
}
