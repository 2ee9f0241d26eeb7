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
                     List<Recommendation> recommendations) {

    public static final int SCHEMA_VERSION = 1;

    /**
     * The facts every table and chart states.
     *
     * @param reads "page-cached" for every experiment here (files are read once before measuring)
     * @param harness what measured: the quick in-process estimate or JMH
     * @param scale data sizes: tiny, quick or full
     * @param repetitions measured repetitions per case (the spread is over these)
     */
    public record Environment(String jdk, String os, String cpu, int cores, String fileSystem, String reads,
                              String harness, String scale, int repetitions) {

        /** One line for captions: "JDK …; Linux …; CPU … (2 cores); ext4 (…); page-cached reads; quick estimate". */
        public String caption() {
            return "JDK " + jdk + " · " + os + " · " + cpu + " (" + cores + " cores) · file system " + fileSystem
                    + " · " + reads + " reads · " + harness + ", " + repetitions + " repetitions";
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
     * One measured case.
     *
     * @param mbPerSec throughput in MB/s (10^6 bytes per second); min/median/max over repetitions
     * @param nanosPerOp time of one operation; min/median/max over repetitions
     * @param error why the case has no numbers (it threw), or null
     */
    public record Result(String variant, String param, long bytesPerOp, int samples, Stats mbPerSec, Stats nanosPerOp,
                         String error) {

        static Result of(String variant, String param, long bytes, double[] nanos, String error) {
            if (nanos == null || nanos.length == 0) {
                return new Result(variant, param, bytes, 0, null, null, error == null ? "no measurement" : error);
            }
            double[] mbs = new double[nanos.length];
            for (int i = 0; i < nanos.length; i++) {
                mbs[i] = bytes * 1e3 / nanos[i];   // bytes per ns = GB/s; times 1000 = MB/s
            }
            return new Result(variant, param, bytes, nanos.length, Stats.of(mbs), Stats.of(nanos), null);
        }

        public boolean measured() {
            return mbPerSec != null;
        }
    }

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
     * The verdict on one claim.
     *
     * @param claim the claim in one line
     * @param claimed what the folklore said, e.g. "3x"
     * @param measured the measured ratio the verdict rests on, or null when inconclusive
     * @param rule the threshold the measured value was held to
     * @param summary one sentence: by how much it held or did not
     */
    public record Verdict(String claim, Outcome outcome, String claimed, Double measured, String rule, String summary) {}

    public record ExperimentReport(String id, String title, String claim, List<Result> results,
                                   List<Verdict> verdicts) {}

    /**
     * A setting or strategy that won here.
     *
     * @param property the {@code sluice.*} system property that applies it, or null for a code-level advice
     * @param value the property's value, or null
     * @param jvmFlag e.g. {@code -Dsluice.io.bufferSize=65536}, or null
     * @param advice what to do, in one sentence
     * @param marginPercent how much better it was than the next choice or the default, in percent
     * @param basis the experiment and cases it rests on
     */
    public record Recommendation(String property, String value, String jvmFlag, String advice, Double marginPercent,
                                 String basis) {}
}
