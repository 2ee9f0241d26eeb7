package dev.sluice.bench.text;

import dev.sluice.bench.CpuClock;
import dev.sluice.bench.CpuTime;
import dev.sluice.file.FastFiles;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
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
 * Decoding throughput: a whole corpus read with read(char[8192]) through each reader. "java" is ASCII-heavy Java
 * source (the JDK's own ASCII fast paths make it fast already), "ja" is Japanese man pages (37% non-ASCII chars),
 * both UTF-8. Score: ms per corpus; the doc turns it into MB/s and ratios.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class TextReadBench {
    @Param({"java", "ja"})
    public String corpus;

    Path file;
    final char[] buf = new char[8192];
    static final Charset UTF8 = StandardCharsets.UTF_8;

    @Setup
    public void setup() throws IOException {
        file = TextCorpus.get(corpus);
    }

    private long drain(Reader r) throws IOException {
        return TextCorpus.drain(r, buf);
    }

    @Benchmark
    public long sluice(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        return CpuClock.stop(cpu, drain(FastFiles.newReader(file, UTF8)));
    }

    @Benchmark
    public long channelsNewReader(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        return CpuClock.stop(cpu, drain(Channels.newReader(FileChannel.open(file), UTF8)));
    }

    @Benchmark
    public long filesNewBufferedReader(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        return CpuClock.stop(cpu, drain(Files.newBufferedReader(file, UTF8)));
    }

    @Benchmark
    public long inputStreamReader(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        return CpuClock.stop(cpu, drain(new InputStreamReader(new FileInputStream(file.toFile()), UTF8)));
    }
}
