package dev.sluice.cli.report;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;

/**
 * What {@code sluice report} found: the machine, every measured case with its spread, a verdict per classic claim,
 * and recommendations. Serialized as results.json (schema: {@code results.schema.json} beside this class).
 *
 * @param schemaVersion version of results.schema.json this document follows
 * @param generated ISO-8601 UTC time the report was written
 * @param command the command line that produced it
 * @param estimate true for the quick harness (one JVM, short repetitions), false for JMH
 */
public record Report(int schemaVersion, String generated, String command, boolean estimate, Environment environment,
                     List<String> dataSources, List<ExperimentReport> experiments,
                     List<Recommendation> recommendations, List<JdkColumn> byJdk) {

    public Report(int schemaVersion, String generated, String command, boolean estimate, Environment environment,
                  List<String> dataSources, List<ExperimentReport> experiments, List<Recommendation> recommendations) {
        this(schemaVersion, generated, command, estimate, environment, dataSources, experiments, recommendations, null);
    }

    /** This report with the verdicts of every JDK measured beside it (--jdk, --all-jdks). */
    public Report withByJdk(List<JdkColumn> columns) {
        return new Report(schemaVersion, generated, command, estimate, environment, dataSources, experiments,
                recommendations, columns);
    }

    /**
     * One JDK's verdicts, for the side-by-side table of a run on several JDKs.
     *
     * @param jdk the JDK's vendor and version
     * @param directory where its own full report is, relative to this one ("." for this one)
     */
    public record JdkColumn(String jdk, String directory, List<JdkVerdict> verdicts) {
        public static JdkColumn of(String jdk, String directory, Report r) {
            List<JdkVerdict> vs = new java.util.ArrayList<>();
            for (ExperimentReport e : r.experiments()) {
                for (Verdict v : e.verdicts()) {
                    vs.add(new JdkVerdict(e.id(), v.claim(), v.outcome(), v.measured(), v.ci(), v.reads()));
                }
            }
            return new JdkColumn(jdk, directory, vs);
        }
    }

    /** One verdict in a {@link JdkColumn}. */
    public record JdkVerdict(String experiment, String claim, Outcome outcome, Double measured, double[] ci,
                             String reads) {}

    /** 2: every sample kept, intervals on verdicts and results, recommendations with a choice. See results.schema.json. */
    public static final int SCHEMA_VERSION = 2;

    /**
     * The facts every table and chart states.
     *
     * @param reads "page-cached" for every experiment here (files are read once before measuring)
     * @param harness what measured: the quick in-process estimate or JMH
     * @param scale data sizes: tiny, quick or full
     * @param repetitions paired rounds per case in each fork
     * @param forks JVM forks the rounds ran in
     * @param jvm the measuring JVM's version, flags, GC and heap, as it reported them
     */
    public record Environment(String jdk, String os, String cpu, int cores, String fileSystem, String reads,
                              String harness, String scale, int repetitions, int forks, String jvm) {

        /** One line for captions: "JDK …; Linux …; CPU … (2 cores); ext4 (…); page-cached reads; quick estimate". */
        public String caption() {
            return "JDK " + jdk + " · " + os + " · " + cpu + " (" + cores + " cores) · file system " + fileSystem
                    + " · " + reads + " reads · " + harness + ", " + forks + " forks × " + repetitions + " rounds";
        }
    }

    /** min, median and max of one quantity over the repetitions. */
    public record Stats(double min, double median, double max) {
        static Stats of(double[] values) {
            double[] v = values.clone();
            Arrays.sort(v);
            int n = v.length;
            double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
            return new Stats(round(v[0]), round(median), round(v[n - 1]));
        }

        /** Four significant digits: the spread of a measurement here is far wider than that. */
        static double round(double x) {
            if (x == 0 || Double.isNaN(x) || Double.isInfinite(x)) {
                return x;
            }
            return new java.math.BigDecimal(x).round(new java.math.MathContext(4)).doubleValue();
        }
    }

    /**
     * One timed repetition of a case: in paired round {@code round} of JVM fork {@code fork}, run as the
     * {@code order}-th variant of its comparison, {@code ops} operations moved {@code bytes} bytes in {@code nanos}.
     */
    public record Sample(int fork, int round, int order, long nanos, long bytes, long ops) {
        /** MB/s (10^6 bytes per second). */
        public double mbPerSec() {
            return bytes * 1e3 / nanos;
        }
    }

    /**
     * One measured case.
     *
     * @param forks the JVM forks it has samples from
     * @param mbPerSec throughput in MB/s (10^6 bytes per second); min/median/max over every sample
     * @param mbPerSecCi 95% bootstrap interval of the median MB/s (forks resampled, then rounds within them)
     * @param nanosPerOp time of one operation; min/median/max over every sample
     * @param samples every timed repetition, so that anyone can re-analyse the run
     * @param error why the case has no numbers (it threw), or null
     */
    public record Result(String variant, String param, long bytesPerOp, int forks, Stats mbPerSec, double[] mbPerSecCi,
                         Stats nanosPerOp, List<Sample> samples, String error, Change baseline) {

        Result withBaseline(Change change) {
            return new Result(variant, param, bytesPerOp, forks, mbPerSec, mbPerSecCi, nanosPerOp, samples, error,
                    change);
        }

        static Result of(String variant, String param, long bytes, List<Sample> samples, String error) {
            if (samples == null || samples.isEmpty()) {
                return new Result(variant, param, bytes, 0, null, null, null, List.of(),
                        error == null ? "no measurement" : error, null);
            }
            double[] mbs = new double[samples.size()];
            double[] nanos = new double[samples.size()];
            for (int i = 0; i < mbs.length; i++) {
                Sample s = samples.get(i);
                mbs[i] = s.mbPerSec();
                nanos[i] = (double) s.nanos() / s.ops();
            }
            Bootstrap.Estimate ci = Bootstrap.estimate(java.util.Collections.singletonList(Paired.grid(samples)), Bootstrap.RESAMPLES, Bootstrap.SEED);
            return new Result(variant, param, bytes, (int) samples.stream().mapToInt(Sample::fork).distinct().count(),
                    Stats.of(mbs), new double[] {Stats.round(ci.lo()), Stats.round(ci.hi())}, Stats.of(nanos),
                    List.copyOf(samples), null, null);
        }

        public boolean measured() {
            return mbPerSec != null;
        }
    }

    /**
     * This run against a baseline run (--baseline), as criterion reports it.
     *
     * @param change improved / regressed / no change: where the interval of the ratio lies against 1
     * @param ratio this run's median speed over the baseline's
     * @param ci its 95% interval (each run resampled on its own: the runs are not paired)
     */
    public record Change(String change, double ratio, double[] ci) {}

    /** How a classic claim fared on this machine. */
    public enum Outcome {
        HELD("held"), DID_NOT_HOLD("did not hold"), INCONCLUSIVE("inconclusive");

        private final String text;

        Outcome(String text) {
            this.text = text;
        }

        @JsonValue
        public String text() {
            return text;
        }
    }

    /**
     * The verdict on one claim, by the one rule of {@link Verdicts#RULE}.
     *
     * @param claim the claim in one line
     * @param claimed what the folklore said, e.g. "~3x"
     * @param claimedRatio the claim as a ratio (1 for "as fast as")
     * @param threshold the ratio the whole interval must clear for "held"
     * @param measured the measured ratio (median of paired per-round ratios), or null when not measured
     * @param ci its 95% bootstrap interval {@code [lo, hi]}, or null
     * @param reads page-cached or cold
     * @param rule how the ratio is formed and judged
     * @param summary one sentence: "claimed ~3x, measured 4.6x [4.3, 4.9]"
     */
    public record Verdict(String claim, Outcome outcome, String claimed, double claimedRatio, double threshold,
                          Double measured, double[] ci, String reads, String rule, String summary) {}

    public record ExperimentReport(String id, String title, String claim, List<Result> results,
                                   List<Verdict> verdicts) {}

    /**
     * A setting or strategy that won here, or "no measurable difference here".
     *
     * @param property the {@code sluice.*} system property that applies it, or null for a code-level advice
     * @param value the property's value, or null
     * @param jvmFlag e.g. {@code -Dsluice.io.bufferSize=1048576}, or null (always null when the advice is to keep the
     *     default)
     * @param choice the variant or value recommended, or {@link Recommendations#NO_DIFFERENCE}
     * @param advice what to do, in one sentence
     * @param ratio the winner's speed over the runner-up's (or over the default, for a property)
     * @param ci its 95% bootstrap interval
     * @param basis the experiment and the like-for-like comparison it rests on
     */
    public record Recommendation(String property, String value, String jvmFlag, String choice, String advice,
                                 Double ratio, double[] ci, String basis) {}
}
