package dev.sluice.bench.text;

import dev.sluice.file.FastFiles;
import java.io.IOException;
import java.io.Reader;
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
 * The text a program reads first, in a fresh JVM (issue 34): the first {@link #READS} whole reads of a corpus, each a
 * new reader drained with read(char[8192]), timed once per fork and with no warm-up, so that the score includes the
 * interpreter, C1 and the wait for C2. One fork is one fresh JVM: run it with several forks and take the median.
 * Nothing else in the fork decodes text before it (JMH's own harness reads its benchmark list, a few KB). "ja" is the
 * Japanese man pages (TextCorpus), "java" the first 11 MB of the JDK's Java sources. Score: ms for all five reads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(3)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class FirstReadsBench {
    static final int READS = 5;
    static final int JAVA_SIZE = 11_000_000;

    @Param({"ja", "java"})
    public String corpus;

    Path file;
    final char[] buf = new char[8192];

    @Setup
    public void setup() throws IOException {
        file = corpus.equals("java") ? TextCorpus.prefix("java", JAVA_SIZE) : TextCorpus.get(corpus);
    }

    @Benchmark
    public long sluice() throws IOException {
        return reads(SLUICE);
    }

    @Benchmark
    public long filesNewBufferedReader() throws IOException {
        return reads(JDK);
    }

    /** Opens a reader of a file. */
    interface Opener {
        Reader open(Path p) throws IOException;
    }

    // Linked when the state is made, before the timed call: a lambda's first linkage is not the readers' cost.
    static final Opener SLUICE = p -> FastFiles.newReader(p, StandardCharsets.UTF_8);
    static final Opener JDK = p -> Files.newBufferedReader(p, StandardCharsets.UTF_8);

    /** READS whole reads of the file, each through a new reader; a sum of what they read. */
    private long reads(Opener opener) throws IOException {
        long sum = 0;
        for (int i = 0; i < READS; i++) {
            sum += TextCorpus.drain(opener.open(file), buf);
        }
        return sum;
    }
}
