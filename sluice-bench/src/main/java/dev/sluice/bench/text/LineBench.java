package dev.sluice.bench.text;

import dev.sluice.bench.CpuClock;
import dev.sluice.bench.CpuTime;
import dev.sluice.text.FastReader;
import dev.sluice.file.FastFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * Line iteration over a whole corpus: BufferedReader.readLine (Files.newBufferedReader) against FastReader's
 * readLine (a String per line) and forEachLine (one reused CharSequence). Every variant folds each line's length and
 * last char into the result, so no variant can skip looking at the line.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class LineBench {
    @Param({"java", "ja"})
    public String corpus;

    Path file;

    @Setup
    public void setup() throws IOException {
        file = TextCorpus.get(corpus);
    }

    private static long fold(CharSequence line) {
        int n = line.length();
        return n == 0 ? 1 : n + line.charAt(n - 1);
    }

    /** The source of lines both readLine variants share: BufferedReader::readLine or FastReader::readLine. */
    interface Lines {
        String readLine() throws IOException;
    }

    private static long sumLines(Lines r) throws IOException {
        long sum = 0;
        String line;
        while ((line = r.readLine()) != null) {
            sum += fold(line);
        }
        return sum;
    }

    @Benchmark
    public long bufferedReaderReadLine(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return CpuClock.stop(cpu, sumLines(r::readLine));
        }
    }

    @Benchmark
    public long sluiceReadLine(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        try (FastReader r = FastFiles.newReader(file, StandardCharsets.UTF_8)) {
            return CpuClock.stop(cpu, sumLines(r::readLine));
        }
    }

    @Benchmark
    public long sluiceForEachLine(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        long[] sum = {0};
        FastFiles.forEachLine(file, StandardCharsets.UTF_8, line -> sum[0] += fold(line));
        return CpuClock.stop(cpu, sum[0]);
    }
}
