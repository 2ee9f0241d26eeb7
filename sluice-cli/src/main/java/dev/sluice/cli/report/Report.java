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
                     List<String> dataSources, String rule, List<ExperimentReport> experiments,
                     List<Recommendation> recommendations, List<JdkColumn> byJdk) {

    public Report(int schemaVersion, String generated, String command, boolean estimate, Environment environment,
                  List<String> dataSources, String rule, List<ExperimentReport> experiments,
                  List<Recommendation> recommendations) {
        this(schemaVersion, generated, command, estimate, environment, dataSources, rule, experiments, recommendations,
                null);
    }

    /** This report with the verdicts of every JDK measured beside it (--jdk, --all-jdks). */
    public Report withByJdk(List<JdkColumn> columns) {
        return new Report(schemaVersion, generated, command, estimate, environment, dataSources, rule, experiments,
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
                    vs.add(new JdkVerdict(v.id(), e.id(), v.claim(), v.metric(), v.outcome(), v.measured(), v.ci(),
                            v.reads()));
                }
            }
            return new JdkColumn(jdk, directory, vs);
        }
    }

    /** One verdict in a {@link JdkColumn}. */
    public record JdkVerdict(String id, String experiment, String claim, String metric, Outcome outcome,
                             Double measured, double[] ci, String reads) {}

    /**
     * 4: a fourth outcome, "not judged here" (a claim about disks in a page-cached run); per verdict the looks taken
     * (adaptive rounds), the interval's level and, where a claim did not hold, its cause; the run's rounds budget.
     * 3: the 27 claims declared in the results (experiments[].claims), a verdict per claim id with its metric, CPU
     * time and allocation in every sample. 2: every sample kept, intervals on verdicts and results, recommendations
     * with a choice. See results.schema.json.
     */
    public static final int SCHEMA_VERSION = 4;

    /**
     * The facts every table and chart states.
     *
     * @param reads "page-cached" for every experiment here (files are read once before measuring)
     * @param harness what measured: the quick in-process estimate or JMH
     * @param scale data sizes: tiny, quick or full
     * @param repetitions paired rounds per case in each fork
     * @param forks JVM forks the rounds ran in
     * @param jvm the measuring JVM's version, flags, GC and heap, as it reported them
     * @param rounds the adaptive rounds' budget and what the run spent, or null where none could be taken (--full,
     *     --reanalyse of an older report)
     */
    public record Environment(String jdk, String os, String cpu, int cores, String fileSystem, String reads,
                              String harness, String scale, int repetitions, int forks, String jvm, Rounds rounds) {

        /** One line for captions: "JDK …; Linux …; CPU … (2 cores); ext4 (…); page-cached reads; quick estimate". */
        public String caption() {
            return "JDK " + jdk + " · " + os + " · " + cpu + " (" + cores + " cores) · file system " + fileSystem
                    + " · " + reads + " reads · " + harness + ", " + forks + " forks × " + repetitions + " rounds";
        }
    }

    /**
     * The adaptive rounds of a run ({@link AdaptiveRounds}): claims whose interval straddled their threshold after the
     * planned forks got extra forks of their own cells while the run stayed within its budget.
     *
     * @param budgetSeconds the most the whole run may take for extra forks to be started (0: none are taken)
     * @param elapsedSeconds how long the measuring took, extra forks included
     * @param extraForks the extra forks taken (each one more look at the claims still straddling)
     * @param rule the rule, as the page states it
     */
    public record Rounds(int budgetSeconds, double elapsedSeconds, int extraForks, String rule) {}

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
     * {@code order}-th variant of its comparison, {@code ops} operations moved {@code bytes} bytes in {@code nanos},
     * using {@code cpuNanos} of CPU time (the calling thread's user + system; the process's for a case with threads of
     * its own) and allocating {@code allocatedBytes}; -1 where not measured (JMH, or a schema-2 baseline). The JVM's
     * collectors ran {@code gcCount} times for {@code gcMillis} ms meanwhile; a memory case also says how much heap
     * its open streams retained.
     */
    public record Sample(int fork, int round, int order, long nanos, long bytes, long ops, long cpuNanos,
                         long allocatedBytes, long gcCount, long gcMillis,
                         @com.fasterxml.jackson.annotation.JsonInclude(
                                 com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Long retainedBytes) {
        /** A sample that measured time only. */
        public Sample(int fork, int round, int order, long nanos, long bytes, long ops) {
            this(fork, round, order, nanos, bytes, ops, -1, -1, -1, -1, null);
        }

        /** MB/s (10^6 bytes per second). */
        public double mbPerSec() {
            return bytes * 1e3 / nanos;
        }

        /** This sample's cost on {@code metric} per byte moved, or NaN where it was not measured. */
        public double costPerByte(String metric) {
            double v;
            switch (metric) {
                case "time": v = nanos; break;
                case "cpu": v = cpuNanos; break;
                case "allocation": v = allocatedBytes; break;
                case "memory": v = retainedBytes == null ? -1 : retainedBytes; break;
                default: throw new IllegalArgumentException("unknown metric: " + metric);
            }
            return v < 0 || bytes <= 0 ? Double.NaN : v / bytes;
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
    public record Result(String variant, String param, long bytesPerOp, boolean reference, boolean wholeProcess,
                         int forks, Stats mbPerSec, double[] mbPerSecCi, Stats nanosPerOp, Stats cpuNanosPerOp,
                         Stats allocatedBytesPerOp, List<Sample> samples, String error, Change baseline) {

        /**
         * This result with only the samples of forks below {@code forks}, for judging one look of a claim; its other
         * statistics are left as they were (judging reads the samples only).
         */
        Result limitedTo(int forks) {
            if (samples.stream().allMatch(s -> s.fork() < forks)) {
                return this;
            }
            List<Sample> kept = samples.stream().filter(s -> s.fork() < forks).toList();
            return new Result(variant, param, bytesPerOp, reference, wholeProcess,
                    (int) kept.stream().mapToInt(Sample::fork).distinct().count(), kept.isEmpty() ? null : mbPerSec,
                    mbPerSecCi, nanosPerOp, cpuNanosPerOp, allocatedBytesPerOp, kept, error, baseline);
        }

        Result withBaseline(Change change) {
            return new Result(variant, param, bytesPerOp, reference, wholeProcess, forks, mbPerSec, mbPerSecCi,
                    nanosPerOp, cpuNanosPerOp, allocatedBytesPerOp, samples, error, change);
        }

        static Result of(String variant, String param, long bytes, List<Sample> samples, String error) {
            return of(variant, param, bytes, false, false, samples, error);
        }

        static Result of(String variant, String param, long bytes, boolean reference, boolean wholeProcess,
                         List<Sample> samples, String error) {
            if (samples == null || samples.isEmpty()) {
                return new Result(variant, param, bytes, reference, wholeProcess, 0, null, null, null, null, null,
                        List.of(), error == null ? "no measurement" : error, null);
            }
            double[] mbs = new double[samples.size()];
            double[] nanos = new double[samples.size()];
            for (int i = 0; i < mbs.length; i++) {
                Sample s = samples.get(i);
                mbs[i] = s.mbPerSec();
                nanos[i] = (double) s.nanos() / s.ops();
            }
            Bootstrap.Estimate ci = Bootstrap.estimate(java.util.Collections.singletonList(Paired.grid(samples)), Bootstrap.RESAMPLES, Bootstrap.SEED);
            return new Result(variant, param, bytes, reference, wholeProcess,
                    (int) samples.stream().mapToInt(Sample::fork).distinct().count(), Stats.of(mbs),
                    new double[] {Stats.round(ci.lo()), Stats.round(ci.hi())}, Stats.of(nanos),
                    perOp(samples, Sample::cpuNanos), perOp(samples, Sample::allocatedBytes), List.copyOf(samples), null,
                    null);
        }

        /** min/median/max per operation of a counter every sample has, or null where one was not measured. */
        private static Stats perOp(List<Sample> samples, java.util.function.ToLongFunction<Sample> counter) {
            double[] v = new double[samples.size()];
            for (int i = 0; i < v.length; i++) {
                long c = counter.applyAsLong(samples.get(i));
                if (c < 0) {
                    return null;
                }
                v[i] = (double) c / samples.get(i).ops();
            }
            return Stats.of(v);
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

    /**
     * How a classic claim fared on this machine. {@code NOT_JUDGED}: a claim about disks in a run whose reads were
     * page-cached; nothing is measured for it (rerun with --cold).
     */
    public enum Outcome {
        HELD("held"), DID_NOT_HOLD("did not hold"), INCONCLUSIVE("inconclusive"), NOT_JUDGED("not judged here");

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
     * The verdict on one claim, by the one rule (the report's {@code rule}).
     *
     * @param id the claim's fixed id, C01-C27
     * @param source the article's letter, A-E
     * @param metric time, cpu, allocation or memory
     * @param claim the claim in one line
     * @param claimed what the folklore said, e.g. "~3x"
     * @param claimedRatio the claim as a ratio (1 for "as fast as")
     * @param threshold the ratio the whole interval must clear for "held"
     * @param upper for an "equivalent" claim, the upper end of the band the interval must stay under; else null
     * @param measured the measured ratio (median of paired per-round ratios), or null when not measured
     * @param ci its bootstrap interval {@code [lo, hi]} at {@code level}, or null
     * @param reads page-cached or cold: how this run read its files
     * @param rule how the ratio is formed and judged
     * @param summary one sentence: "claimed ~3x, measured 4.6x [4.3, 4.9]"
     * @param setup the article's set-up and ours
     * @param also the second, labelled measurement beside the claim, or null
     * @param notes further numbers (collections per 10^4 operations, retained heap per stream)
     * @param missing cells the claim names that have no measurement (should be empty)
     * @param looks how many times the claim's interval was judged: 1 for the planned forks, one more per extra fork
     *     its cells got because the interval straddled the threshold ({@link AdaptiveRounds})
     * @param level the confidence level of {@code ci}: 0.981 at every look (AdaptiveRounds.LOOK_ALPHA)
     * @param cause for a claim that did not hold, the documented JDK or OS change behind it with its sources, or
     *     {@link Cause#UNKNOWN}; null for any other outcome
     */
    public record Verdict(String id, String source, String claim, String metric, Outcome outcome, String claimed,
                          double claimedRatio, double threshold, Double upper, Double measured, double[] ci,
                          String reads, String rule, String summary, String setup, Also also, List<String> notes,
                          List<String> missing, int looks, double level, Cause cause) {}

    /**
     * Why a claim no longer holds: a documented change, with the addresses that document it (declared with the
     * claims in sluice-bench's {@code Causes}), or "cause unknown".
     */
    public record Cause(String text, List<String> sources) {
        public static final Cause UNKNOWN = new Cause("cause unknown", List.of());
    }

    /** A second, labelled measurement beside a claim, with where it would land by the same rule. */
    public record Also(String label, String metric, Outcome outcome, double threshold, Double upper, Double measured,
                       double[] ci) {}

    /**
     * @param claims the claims judged from this experiment, as sluice-bench declares them
     * @param advice the like-for-like comparisons that back recommendations, as sluice-bench declares them
     */
    public record ExperimentReport(String id, String title, String claim, List<ClaimSpec> claims,
                                   List<AdviceSpec> advice, List<Result> results, List<Verdict> verdicts) {
        ExperimentReport withVerdicts(List<Verdict> v) {
            return new ExperimentReport(id, title, claim, claims, advice, results, v);
        }

        ExperimentReport withResults(List<Result> r) {
            return new ExperimentReport(id, title, claim, claims, advice, r, verdicts);
        }
    }

    /** One measured cell a claim names. */
    public record Cell(String variant, String param) {}

    /** One comparison of a claim: side A against side B (and C for "diminishing"), each the best of its cells. */
    public record Pair(List<Cell> a, List<Cell> b, List<Cell> c) {
        public Pair {
            c = c == null ? List.of() : c;
        }
    }

    /** A second measurement declared with a claim. */
    public record AlsoSpec(String label, String rule, double k, double threshold, Double upper, String metric,
                           List<Pair> pairs) {}

    /** A claim as sluice-bench declares it (dev.sluice.bench.experiments.Claim). */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
    public record ClaimSpec(String id, String source, String sourceTitle, String sourceYear, String wording,
                            String claimed, String rule, double k, double threshold, Double upper, String metric,
                            String setup, boolean cold, List<Pair> pairs, AlsoSpec also, Cause cause) {}

    /** A comparison that backs advice, as sluice-bench declares it (dev.sluice.bench.experiments.Advice). */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
    public record AdviceSpec(String basis, String advice, List<String> params, List<String> candidates,
                             String defaultChoice, String property, List<Long> sizes) {}

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
