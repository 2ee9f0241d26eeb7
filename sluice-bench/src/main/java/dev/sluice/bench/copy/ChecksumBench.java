package dev.sluice.bench.copy;

import dev.sluice.file.FastFiles;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
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
 * Checksums of the 256 MiB page-cached file of {@link StreamCopyBench}: {@code FastFiles.checksum} (direct buffer,
 * {@code Checksum.update(ByteBuffer)}) against the usual loop over a {@code FileInputStream} and an 8 KiB array.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
public class ChecksumBench {

    Path file;

    @Setup
    public void setup() throws IOException {
        file = CopyData.randomFile("copy-256m.bin", StreamCopyBench.SIZE);
    }

    private long arrayLoop(Checksum c) throws IOException {
        byte[] buf = new byte[8192];
        try (InputStream in = new FileInputStream(file.toFile())) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                c.update(buf, 0, n);
            }
        }
        return c.getValue();
    }

    @Benchmark
    public long crc32cArrayLoop8k() throws IOException {
        return arrayLoop(new CRC32C());
    }

    @Benchmark
    public long crc32cSluice() throws IOException {
        return FastFiles.checksum(file, new CRC32C());
    }

    @Benchmark
    public long crc32ArrayLoop8k() throws IOException {
        return arrayLoop(new CRC32());
    }

    @Benchmark
    public long crc32Sluice() throws IOException {
        return FastFiles.checksum(file, new CRC32());
    }

    @Benchmark
    public long adler32ArrayLoop8k() throws IOException {
        return arrayLoop(new Adler32());
    }

    @Benchmark
    public long adler32Sluice() throws IOException {
        return FastFiles.checksum(file, new Adler32());
    }
}
