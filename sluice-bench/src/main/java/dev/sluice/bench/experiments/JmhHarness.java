package dev.sluice.bench.experiments;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Utils;

/**
 * Measures one case with JMH: the experiment's benchmark class (e.g. {@code E1Bench}) with {@code caseKey} set to
 * the case, one fork, warm-up and measurement iterations of one second. Returns each measurement iteration's score
 * as nanoseconds per operation, so the report shows JMH's spread the same way as the quick harness's.
 * JMH's own log goes to {@code jmh.log} in the data directory, its JSON results to {@code jmh/} there.
 */
final class JmhHarness {
    private JmhHarness() {}

    static final int WARMUP_ITERATIONS = 3;
    static final int MEASUREMENT_ITERATIONS = 5;

    static String version() {
        String v = Utils.class.getPackage().getImplementationVersion();
        return v == null ? "1.37" : v;
    }

    static double[] nanosPerOp(Experiment e, Case c, Corpus corpus) throws IOException {
        String bench = ExperimentBench.class.getPackageName() + "." + e.id() + "Bench";
        java.nio.file.Path results = java.nio.file.Files.createDirectories(corpus.dir().resolve("jmh"));
        List<String> jvmArgs = new ArrayList<>(List.of("-Xms1g", "-Xmx1g", "--enable-native-access=ALL-UNNAMED",
                "-D" + ExperimentBench.DATA_DIR + "=" + corpus.dir().toAbsolutePath()));
        jvmArgs.addAll(Sink.DONT_INLINE); // E3's sum measured as in the quick harness
        String user = System.getProperty(ExperimentBench.USER_DATA);
        if (user != null) {
            jvmArgs.add("-D" + ExperimentBench.USER_DATA + "=" + user);
        }
        Options opt = new OptionsBuilder()
                .include("^" + Pattern.quote(bench) + "\\.run$")
                .param("caseKey", c.key())
                .param("scale", corpus.scale().name())
                .forks(1)
                .warmupIterations(WARMUP_ITERATIONS)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(MEASUREMENT_ITERATIONS)
                .measurementTime(TimeValue.seconds(1))
                .jvmArgsAppend(jvmArgs.toArray(new String[0]))
                .output(corpus.dir().resolve("jmh.log").toString())
                .resultFormat(org.openjdk.jmh.results.format.ResultFormatType.JSON)
                .result(results.resolve(e.id() + "-" + c.key().replace('/', '_') + ".json").toString())
                .build();
        Collection<RunResult> runs = runWaitingForLock(opt, e, c);
        List<Double> samples = new ArrayList<>();
        for (RunResult run : runs) {
            for (BenchmarkResult br : run.getBenchmarkResults()) {
                for (IterationResult ir : br.getIterationResults()) {
                    samples.add(toNanos(ir.getPrimaryResult().getScore(), ir.getScoreUnit()));
                }
            }
        }
        if (samples.isEmpty()) {
            throw new IOException("JMH returned no results for " + e.id() + " " + c.key() + " (see jmh.log)");
        }
        return samples.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** How long to wait for another JMH run on this machine (JMH's /tmp/jmh.lock) before measuring beside it. */
    static final long LOCK_WAIT_NANOS = 120_000_000_000L;

    /** Set once JMH's lock was ignored, so the report can say that another JMH run shared the machine. */
    static volatile boolean lockIgnored;

    private static Collection<RunResult> runWaitingForLock(Options opt, Experiment e, Case c) throws IOException {
        long start = System.nanoTime();
        while (true) {
            try {
                return new Runner(opt).run();
            } catch (RunnerException ex) {
                String msg = String.valueOf(ex.getMessage());
                if (!msg.contains("JMH lock") || lockIgnored) {
                    throw new IOException("JMH failed on " + e.id() + " " + c.key() + ": " + msg, ex);
                }
                if (System.nanoTime() - start > LOCK_WAIT_NANOS) {
                    // Another JMH run holds the lock for long: measure anyway and say so in the report.
                    System.setProperty("jmh.ignoreLock", "true");
                    lockIgnored = true;
                    continue;
                }
                try {
                    Thread.sleep(2000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for another JMH run", ie);
                }
            }
        }
    }

    static double toNanos(double score, String unit) {
        switch (unit) {
            case "ns/op": return score;
            case "us/op": return score * 1e3;
            case "ms/op": return score * 1e6;
            case "s/op": return score * 1e9;
            default: throw new IllegalStateException("unexpected JMH unit " + unit);
        }
    }
}
