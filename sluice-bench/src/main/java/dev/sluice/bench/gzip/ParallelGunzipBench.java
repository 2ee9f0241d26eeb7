package dev.sluice.bench.gzip;

import dev.sluice.gzip.GzipIndex;
import dev.sluice.gzip.GzipInputStream;
import dev.sluice.gzip.GzipOutputStream;
import dev.sluice.gzip.ParallelGzipOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * Decoding the first 64 MiB of the JDK-source tar held in memory, with {@link GzipInputStream} on {@link #threads}
 * threads (1: the caller's thread only, as for any gzip without an index), in one of two layouts ({@link #format}):
 * written by {@link ParallelGzipOutputStream} as independent members ({@code INDEPENDENT_MEMBERS}: Sluice's 1 MiB
 * members; {@code BGZF}), or as one plain member at level 6 ({@link GzipOutputStream}, zlib) decoded through its
 * {@link GzipIndex} ({@code PLAIN_INDEXED}: checkpoints every 1 MiB; with one thread the index is not used, so that
 * is the one-thread path). Reading 256 KiB at a time into an array ({@link #gunzip}), or with {@code transferTo} as
 * {@code sluice gunzip} does. Each returns what it counted, so the JIT keeps the work.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ParallelGunzipBench {
    static final int SIZE = 64 << 20;

    @Param({"1", "2"})
    public int threads;

    @Param({"INDEPENDENT_MEMBERS", "PLAIN_INDEXED"})
    public String format;

    private byte[] gz;
    /** For PLAIN_INDEXED: the index of {@link #gz}; else null. */
    private GzipIndex index;
    private final byte[] buf = new byte[256 * 1024];

    @Setup(Level.Trial)
    public void setup() throws IOException {
        byte[] data = new byte[SIZE];
        try (InputStream in = Files.newInputStream(GzipCorpus.tar())) {
            if (in.readNBytes(data, 0, SIZE) != SIZE) {
                throw new IOException("corpus shorter than " + SIZE);
            }
        }
        ByteArrayOutputStream sink = new ByteArrayOutputStream(SIZE / 4);
        if (format.equals("PLAIN_INDEXED")) {
            try (GzipOutputStream out = new GzipOutputStream(sink)) { // zlib -6: block edges at any bit, as gzip
                out.write(data);
            }
            gz = sink.toByteArray();
            Path file = Files.createTempFile("sluice-parallel-gunzip", ".gz");
            try {
                Files.write(file, gz);
                index = GzipIndex.build(file);
            } finally {
                Files.delete(file);
            }
            return;
        }
        try (ParallelGzipOutputStream out = ParallelGzipOutputStream.builder()
                .format(ParallelGzipOutputStream.Format.valueOf(format)).build(sink)) {
            out.write(data);
        }
        gz = sink.toByteArray();
    }

    private GzipInputStream open() {
        return GzipInputStream.builder().threads(threads).index(index).build(new ByteArrayInputStream(gz));
    }

    @Benchmark
    public long gunzip() throws IOException {
        long total = 0;
        try (GzipInputStream in = open()) {
            for (int n; (n = in.read(buf, 0, buf.length)) >= 0; ) {
                total += n + buf[0];
            }
        }
        return total;
    }

    /** As {@code sluice gunzip} decodes: {@link GzipInputStream#transferTo} into a sink that counts. */
    @Benchmark
    public long transferTo() throws IOException {
        ParallelGzipBench.CountingSink sink = new ParallelGzipBench.CountingSink();
        try (GzipInputStream in = open()) {
            return in.transferTo(sink) + sink.count;
        }
    }
}
