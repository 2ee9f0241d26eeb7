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
 * E4, the classic small-file reader test: open a page-cached text file, read it all through a reader with
 * read(char[8192]), close it. Latin-1 text (Western European man pages in ISO-8859-1) and Japanese text (UTF-8), 16 B
 * to 5 MB, the four JDK strategies beside Sluice. The classic finding: Channels.newReader fastest, 30-40% ahead of
 * InputStreamReader(FileInputStream) on small files.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class SmallFileReaderBench {
    @Param({"latin1", "ja"})
    public String text;

    @Param({"16", "4096", "32768", "500000", "5000000"})
    public int size;

    Path file;
    Charset cs;
    final char[] buf = new char[8192];

    @Setup
    public void setup() throws IOException {
        file = TextCorpus.prefix(text, size);
        cs = text.equals("latin1") ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8;
    }

    private long drain(Reader r) throws IOException {
        return TextCorpus.drain(r, buf);
    }

    @Benchmark
    public long inputStreamReaderFileInputStream(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        return CpuClock.stop(cpu, drain(new InputStreamReader(new FileInputStream(file.toFile()), cs)));
    }

    @Benchmark
    public long inputStreamReaderFilesNewInputStream(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        return CpuClock.stop(cpu, drain(new InputStreamReader(Files.newInputStream(file), cs)));
    }

    @Benchmark
    public long filesNewBufferedReader(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        return CpuClock.stop(cpu, drain(Files.newBufferedReader(file, cs)));
    }

    @Benchmark
    public long channelsNewReader(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        return CpuClock.stop(cpu, drain(Channels.newReader(FileChannel.open(file), cs)));
    }

    @Benchmark
    public long sluice(CpuTime cpu) throws IOException {
        CpuClock.start(cpu);
        return CpuClock.stop(cpu, drain(FastFiles.newReader(file, cs)));
    }
}
