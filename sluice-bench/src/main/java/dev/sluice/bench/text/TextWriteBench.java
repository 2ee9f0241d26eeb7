package dev.sluice.bench.text;

import dev.sluice.bench.CpuClock;
import dev.sluice.bench.CpuTime;
import dev.sluice.text.FastWriter;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
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
 * Encoding throughput: the first 13 MB of a corpus, as lines (Strings) held in memory, written line by line as
 * UTF-8 to a sink that counts bytes, so the score is the writer's own cost. FastWriter against
 * BufferedWriter(OutputStreamWriter) (what Files.newBufferedWriter builds) and a bare OutputStreamWriter.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class TextWriteBench {
    @Param({"java", "ja"})
    public String corpus;

    List<String> lines;

    @Setup
    public void setup() throws IOException {
        String all = new String(Files.readAllBytes(TextCorpus.prefix(corpus, 13_000_000)), StandardCharsets.UTF_8);
        lines = all.lines().toList();
    }

    /** Counts what it is given; the count is the benchmark's result. */
    static final class CountingSink extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len + b[off];
        }
    }

    private long writeAll(Writer w, CountingSink sink) throws IOException {
        try (w) {
            for (String line : lines) {
                w.write(line);
                w.write('\n');
            }
        }
        return sink.count;
    }

    @Benchmark
    public long sluice(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        CountingSink sink = new CountingSink();
        return CpuClock.stop(cpu, writeAll(FastWriter.of(sink, StandardCharsets.UTF_8), sink));
    }

    @Benchmark
    public long bufferedWriter(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        CountingSink sink = new CountingSink();
        return CpuClock.stop(cpu, writeAll(new BufferedWriter(new OutputStreamWriter(sink, StandardCharsets.UTF_8)), sink));
    }

    @Benchmark
    public long outputStreamWriter(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        CountingSink sink = new CountingSink();
        return CpuClock.stop(cpu, writeAll(new OutputStreamWriter(sink, StandardCharsets.UTF_8), sink));
    }
}
