package dev.sluice.bench.gzip;

import dev.sluice.gzip.GzipInputStream;
import dev.sluice.gzip.GzipOutputStream;
import dev.sluice.gzip.ParallelGzipOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
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
 * Many small gzip streams, as an HTTP client or a message consumer decodes them: one stream of {@link #size} bytes
 * of text (compressed by the JDK at level 6, held in memory) opened, read to the end with {@code readAllBytes} and
 * closed per operation, by {@link GzipInputStream} and by the JDK's {@link GZIPInputStream}; and the same text
 * compressed into one stream ({@code write*}). What a stream costs to
 * set up (buffers, the decoder and its native memory) decides this, not decoding speed. Run the native engines with
 * {@code -jvmArgsAppend --enable-native-access=ALL-UNNAMED}.
 *
 * <p>The {@code *Bgzf} methods decode the same text as a BGZF file (blocks of 65,280 bytes and the end-of-file
 * block, as {@code bgzip} writes it): its members are independent, so {@link GzipInputStream} could hand them to
 * workers. {@code sluiceBgzfWorkers} forks with {@code -Dsluice.gzip.parallelAfter=0} (as a prepended argument: a
 * command line's {@code -jvmArgsAppend} replaces the annotation's), so it does from the first member, as before
 * {@code GzipInputStream.PARALLEL_AFTER}; {@code sluiceBgzf} runs the default.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SmallGzipBench {
    /** Uncompressed bytes per stream. */
    @Param({"1000", "16000"})
    public int size;

    private byte[] gz;
    private byte[] bgzf;
    private byte[] text;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < size; i++) {
            text.append("{\"id\":").append(i).append(",\"name\":\"item ").append(i * 7919 % 1000)
                    .append("\",\"tags\":[\"a\",\"b\"]}\n");
        }
        this.text = text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(this.text);
        }
        gz = bytes.toByteArray();
        bytes.reset();
        try (OutputStream out = ParallelGzipOutputStream.builder().format(ParallelGzipOutputStream.Format.BGZF)
                .threads(1).build(bytes)) {
            out.write(this.text);
        }
        bgzf = bytes.toByteArray();
    }

    @Benchmark
    public int sluice() throws IOException {
        try (InputStream in = new GzipInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes().length;
        }
    }

    @Benchmark
    public int jdk() throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes().length;
        }
    }

    /** The text as a small BGZF file, default settings: its members are decoded on the caller's thread. */
    @Benchmark
    public int sluiceBgzf() throws IOException {
        try (InputStream in = new GzipInputStream(new ByteArrayInputStream(bgzf))) {
            return in.readAllBytes().length;
        }
    }

    /** The same with every independent member on workers from the first byte (before PARALLEL_AFTER). */
    @Benchmark
    @Fork(value = 2, jvmArgsPrepend = "-Dsluice.gzip.parallelAfter=0", jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
    public int sluiceBgzfWorkers() throws IOException {
        return sluiceBgzf();
    }

    /** The JDK's {@link GZIPInputStream} over the BGZF file (it reads concatenated members). */
    @Benchmark
    public int jdkBgzf() throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bgzf))) {
            return in.readAllBytes().length;
        }
    }

    /** Compressing one stream at the default level 6: {@link GzipOutputStream} (zlib for one member). */
    @Benchmark
    public int writeSluice() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream(gz.length + 64);
        try (OutputStream out = new GzipOutputStream(sink)) {
            out.write(text);
        }
        return sink.size();
    }

    /** The same with the JDK's {@link GZIPOutputStream} (level 6). */
    @Benchmark
    public int writeJdk() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream(gz.length + 64);
        try (OutputStream out = new GZIPOutputStream(sink)) {
            out.write(text);
        }
        return sink.size();
    }

    /** Level 1: ISA-L where the native engines are in use, else zlib. */
    @Benchmark
    public int writeSluiceLevel1() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream(gz.length + 64);
        try (OutputStream out = GzipOutputStream.builder().level(1).build(sink)) {
            out.write(text);
        }
        return sink.size();
    }
}
