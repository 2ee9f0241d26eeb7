package dev.sluice.bench.copy;

import dev.sluice.file.FastFiles;
import dev.sluice.io.Streams;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.commons.io.FileUtils;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * E7, compare: two equal, page-cached 1 GiB files of random bytes (the second made by {@code cp}), compared whole;
 * one op = 2 GiB read. Equal files are the worst case for every method: nothing stops early.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CompareBench {

    static final long SIZE = 1L << 30;

    Path a;
    Path b;

    @Setup
    public void setup() throws IOException {
        a = CopyData.randomFile("a.bin", SIZE);
        b = CopyData.copyOf(a, "b.bin");
    }

    @Benchmark
    public long jdkFilesMismatch() throws IOException {
        return Files.mismatch(a, b);
    }

    @Benchmark
    public long sluiceMismatch() throws IOException {
        return FastFiles.mismatch(a, b);
    }

    /** The same with the second thread switched off, to show what each thread contributes. */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dsluice.compare.parallelThreshold=2000000000"})
    public long sluiceMismatchOneThread() throws IOException {
        return FastFiles.mismatch(a, b);
    }

    @Benchmark
    public boolean sluiceContentEquals() throws IOException {
        return FastFiles.contentEquals(a, b);
    }

    @Benchmark
    public boolean sluiceStreamsContentEquals() throws IOException {
        try (InputStream ia = new FileInputStream(a.toFile()); InputStream ib = new FileInputStream(b.toFile())) {
            return Streams.contentEquals(ia, ib);
        }
    }

    @Benchmark
    public boolean commonsFileUtilsContentEquals() throws IOException {
        return FileUtils.contentEquals(a.toFile(), b.toFile());
    }

    @Benchmark
    public boolean commonsIOUtilsContentEquals() throws IOException {
        try (InputStream ia = new FileInputStream(a.toFile()); InputStream ib = new FileInputStream(b.toFile())) {
            return IOUtils.contentEquals(ia, ib);
        }
    }

    @Benchmark
    public boolean guavaByteSourceContentEquals() throws IOException {
        return com.google.common.io.Files.asByteSource(a.toFile())
                .contentEquals(com.google.common.io.Files.asByteSource(b.toFile()));
    }
}
