package dev.sluice.bench.experiments;

import org.openjdk.jmh.annotations.Param;

/** JMH for {@link E6Available}: available() polled while reading. */
public class E6Bench extends ExperimentBench {
    /** Which case; the default is the headline comparison, {@code sluice report --full} runs them all. */
    @Param({"source-a-s-loop-read-buf-while-available-0-64-kib-buffers/jdk-bufferedinputstream-512-b-pieces", "source-a-s-loop-read-buf-while-available-0-64-kib-buffers/bufferedinputstream-o-1-available-512-b-pieces"})
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
