package dev.sluice.bench.experiments;

import org.openjdk.jmh.annotations.Param;

/** JMH for {@link E2BufferSweep}: buffer size x destination array size. */
public class E2Bench extends ExperimentBench {
    /** Which case; the default is the headline comparison, {@code sluice report --full} runs them all. */
    @Param({"array-8-b/jdk-buffer-2-kib", "array-8-b/jdk-buffer-64-kib", "array-512-b/jdk-buffer-2-kib", "array-512-b/jdk-buffer-64-kib"})
    public String caseKey;

    @Override
    String experimentId() {
        return "E2";
    }

    @Override
    String caseKey() {
        return caseKey;
    }
}
