package dev.sluice.bench.experiments;

import java.io.IOException;
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
 * The JMH side of an experiment: runs one of its cases (the {@code caseKey} parameter, e.g.
 * {@code read/jdk-buffered-stream}) exactly as the quick runner does. Subclasses name the experiment and list a
 * few headline cases as the parameter's default; {@code sluice report --full} runs every case. Data is made at
 * setup in {@code -Dsluice.bench.dataDir} (default: {@code java.io.tmpdir}/sluice-experiments) and read once
 * before measuring, so these are page-cached reads. One op = one whole workload; MB/s = bytes / time per op.
 *
 * <pre>java -jar benchmarks.jar E1Bench -p caseKey=read/jdk-buffered-stream,read/sluice-fastbuffered-stream</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class ExperimentBench {
    static final String DATA_DIR = "sluice.bench.dataDir";
    static final String USER_DATA = "sluice.bench.userData";

    /** Data size: tiny, quick or full (see {@link Scale}). */
    @Param("quick")
    public String scale;

    private Workload workload;

    abstract String experimentId();

    abstract String caseKey();

    @Setup
    public void setup() throws IOException {
        Path dir = Path.of(System.getProperty(DATA_DIR, System.getProperty("java.io.tmpdir") + "/sluice-experiments"));
        String user = System.getProperty(USER_DATA);
        Corpus corpus = new Corpus(dir, Scale.of(scale), user == null ? null : Path.of(user));
        workload = find(Experiments.byId(experimentId()), corpus, caseKey()).workload();
    }

    static Case find(Experiment e, Corpus corpus, String key) throws IOException {
        for (Case c : e.cases(corpus)) {
            if (c.key().equals(key)) {
                return c;
            }
        }
        throw new IllegalArgumentException(e.id() + " has no case " + key);
    }

    @Benchmark
    public long run() throws IOException {
        return workload.run();
    }
}
