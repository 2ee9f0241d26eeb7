package dev.sluice.bench.io;

import dev.sluice.file.FastFiles;
import java.io.FileInputStream;
import java.io.IOException;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Chooses {@code ReadAheadBuffers.SIZE}: open a page-cached 5 MB file, read it all into an 8 KiB array, close it.
 * {@code readAhead} reads {@code aheadSize} bytes per system call into one reused direct buffer and copies 8 KiB
 * pieces out (what the unbuffered Sluice stream does, with the size as a parameter); beside it
 * {@code FileInputStream} (one system call per 8 KiB) and the Sluice stream itself at its default size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ReadAheadBench {

    @Param({"65536", "131072", "262144", "524288", "1048576"})
    public int aheadSize;

    Path file;
    final byte[] array = new byte[8192];
    ByteBuffer ahead;

    @Setup
    public void setup() throws IOException {
        file = BenchData.randomFile(5_000_000);
        ahead = ByteBuffer.allocateDirect(aheadSize);
    }

    @Benchmark
    public long readAhead() throws IOException {
        long total = 0;
        byte[] a = array;
        try (FileChannel ch = FileChannel.open(file)) {
            ByteBuffer d = ahead;
            d.clear().limit(0);
            while (true) {
                if (!d.hasRemaining()) {
                    d.clear();
                    if (ch.read(d) < 0) {
                        break;
                    }
                    d.flip();
                }
                int n = Math.min(a.length, d.remaining());
                d.get(a, 0, n);
                total += n + a[0];
            }
        }
        return total;
    }

    @Benchmark
    public long fileInputStream() throws IOException {
        return BenchData.drain(new FileInputStream(file.toFile()), array);
    }

    @Benchmark
    public long sluiceUnbuffered() throws IOException {
        return BenchData.drain(FastFiles.newUnbufferedInputStream(file), array);
    }
}
