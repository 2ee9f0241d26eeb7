package dev.sluice.bench.copy;

import com.google.common.io.ByteStreams;
import dev.sluice.file.FastFiles;
import dev.sluice.io.Streams;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import org.apache.commons.io.IOUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * E7, copy: a 256 MiB page-cached file copied to another file on the same file system, one op = the whole file.
 * Stream copies run between a {@code FileInputStream} and a {@code FileOutputStream} (what a caller of
 * {@code IOUtils.copy} usually has); path copies compare {@code FastFiles.copy} with {@code Files.copy}. Every op
 * first deletes the previous target and then writes 256 MiB of new page cache into a new file: truncating an
 * existing file instead (what {@code new FileOutputStream} does) or renaming over one makes ext4 start writing the
 * new data back at once (its {@code auto_da_alloc} heuristic), which would measure the disk rather than the copy.
 * {@link #sluiceFilesCopyOverExisting} shows that cost, which every safe replace-by-rename pays on ext4.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class StreamCopyBench {

    static final long SIZE = 256L << 20;

    Path source;
    Path target;

    @Setup
    public void setup() throws IOException {
        source = CopyData.randomFile("copy-256m.bin", SIZE);
        target = CopyData.dir().resolve("copy-target.bin");
    }

    @TearDown
    public void tearDown() throws IOException {
        Files.deleteIfExists(target);
    }

    static long loop(InputStream in, OutputStream out, int size) throws IOException {
        byte[] buf = new byte[size];
        long total = 0;
        int n;
        while ((n = in.read(buf)) >= 0) {
            out.write(buf, 0, n);
            total += n;
        }
        return total;
    }

    @Benchmark
    public long loop4k() throws IOException {
        Files.deleteIfExists(target);
        try (InputStream in = new FileInputStream(source.toFile());
             OutputStream out = new FileOutputStream(target.toFile())) {
            return loop(in, out, 4096);
        }
    }

    @Benchmark
    public long loop8k() throws IOException {
        Files.deleteIfExists(target);
        try (InputStream in = new FileInputStream(source.toFile());
             OutputStream out = new FileOutputStream(target.toFile())) {
            return loop(in, out, 8192);
        }
    }

    @Benchmark
    public long loop64k() throws IOException {
        Files.deleteIfExists(target);
        try (InputStream in = new FileInputStream(source.toFile());
             OutputStream out = new FileOutputStream(target.toFile())) {
            return loop(in, out, 65536);
        }
    }

    @Benchmark
    public long commonsIoCopy() throws IOException {
        Files.deleteIfExists(target);
        try (InputStream in = new FileInputStream(source.toFile());
             OutputStream out = new FileOutputStream(target.toFile())) {
            return IOUtils.copyLarge(in, out); // what IOUtils.copy calls, minus its int overflow check
        }
    }

    @Benchmark
    public long guavaCopy() throws IOException {
        Files.deleteIfExists(target);
        try (InputStream in = new FileInputStream(source.toFile());
             OutputStream out = new FileOutputStream(target.toFile())) {
            return ByteStreams.copy(in, out);
        }
    }

    @Benchmark
    public long jdkTransferTo() throws IOException {
        Files.deleteIfExists(target);
        try (InputStream in = new FileInputStream(source.toFile());
             OutputStream out = new FileOutputStream(target.toFile())) {
            return in.transferTo(out);
        }
    }

    @Benchmark
    public long sluiceStreamsCopy() throws IOException {
        Files.deleteIfExists(target);
        try (InputStream in = new FileInputStream(source.toFile());
             OutputStream out = new FileOutputStream(target.toFile())) {
            return Streams.copy(in, out);
        }
    }

    @Benchmark
    public long jdkFilesCopy() throws IOException {
        Files.deleteIfExists(target);
        Files.copy(source, target);
        return Files.size(target);
    }

    @Benchmark
    public long sluiceFilesCopy() throws IOException {
        Files.deleteIfExists(target);
        FastFiles.copy(source, target);
        return Files.size(target);
    }

    /** Replacing an existing 256 MiB target by rename: ext4 starts writing the new file back before the rename. */
    @Benchmark
    public long sluiceFilesCopyOverExisting() throws IOException {
        FastFiles.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        return Files.size(target);
    }

    /** {@code Files.copy} over an existing target: it deletes the target first, then copies. */
    @Benchmark
    public long jdkFilesCopyOverExisting() throws IOException {
        Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        return Files.size(target);
    }
}
