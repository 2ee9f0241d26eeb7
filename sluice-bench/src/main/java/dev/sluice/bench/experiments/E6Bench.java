package dev.sluice.bench.experiments;

import org.openjdk.jmh.annotations.Param;

/** JMH for {@link E6Available}: available() polled while reading. */
public class E6Bench extends ExperimentBench {
    /** Which case; the default is the headline comparison, {@code sluice report --full} runs them all. */
    @Param({"every-512-b/jdk-bufferedinputstream", "every-512-b/bufferedinputstream-o-1-available", "every-512-b/sluice-fastbufferedinputstream"})
    public String caseKey;

    @Override
    String experimentId() {
        return "E6";
    }

    @Override
    String caseKey() {
        return caseKey;
    }
}
