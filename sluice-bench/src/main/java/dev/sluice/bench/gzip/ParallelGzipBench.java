package dev.sluice.bench.gzip;

import dev.sluice.bench.CpuClock;
import dev.sluice.bench.CpuTime;
import dev.sluice.gzip.GzipOutputStream;
import dev.sluice.gzip.ParallelGzipOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Compressing the first 64 MiB of the JDK-source tar (in memory) at level 6 into a counting sink: one
 * {@link GZIPOutputStream}, one {@link GzipOutputStream}, and {@link ParallelGzipOutputStream} on {@link #threads}
 * threads with {@link #blockSize} blocks. Each method returns the compressed size (also the ratio evidence).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
public class ParallelGzipBench {
    static final int SIZE = 64 << 20;

    @Param({"2"})
    public int threads;

    @Param({"1048576"})
    public int blockSize;

    private byte[] data;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        data = new byte[SIZE];
        try (InputStream in = Files.newInputStream(GzipCorpus.tar())) {
            if (in.readNBytes(data, 0, SIZE) != SIZE) {
                throw new IOException("corpus shorter than " + SIZE);
            }
        }
    }

    /** Counts bytes and drops them: the benchmark measures compression, not a disk. */
    static final class CountingSink extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }

    private long write(OutputStream out, CountingSink sink) throws IOException {
        try (out) {
            for (int i = 0; i < data.length; i += 65536) {
                out.write(data, i, Math.min(65536, data.length - i));
            }
        }
        return sink.count;
    }

    @Benchmark
    public long jdkGZIPOutputStream(CpuTime cpu) throws IOException {
        CpuClock.startProcess(cpu);
        try {
            CountingSink sink = new CountingSink();
            return write(new GZIPOutputStream(sink, 65536), sink);
        } finally {
            CpuClock.stopProcess(cpu);
        }
    }

    @Benchmark
    public long sluiceGzipOutputStream(CpuTime cpu) throws IOException {
        CpuClock.startProcess(cpu);
        try {
            CountingSink sink = new CountingSink();
            return write(new GzipOutputStream(sink), sink);
        } finally {
            CpuClock.stopProcess(cpu);
        }
    }

    @Benchmark
    public long sluiceParallel(CpuTime cpu) throws IOException {
        CpuClock.startProcess(cpu);
        try {
            CountingSink sink = new CountingSink();
            return write(ParallelGzipOutputStream.builder().threads(threads).blockSize(blockSize).build(sink), sink);
        } finally {
            CpuClock.stopProcess(cpu);
        }
    }
}
