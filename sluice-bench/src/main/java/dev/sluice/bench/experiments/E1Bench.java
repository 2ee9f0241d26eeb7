package dev.sluice.bench.experiments;

import org.openjdk.jmh.annotations.Param;

/** JMH for {@link E1ByteAtATime}: byte-at-a-time read, write and copy through buffered streams. */
public class E1Bench extends ExperimentBench {
    /** Which case; the default is the headline comparison, {@code sluice report --full} runs them all. */
    @Param({"read/jdk-buffered-stream", "read/commons-io-unsynchronizedbufferedinputstream", "read/plain-8-kib-array", "read/sluice-fastbuffered-stream", "copy/jdk-buffered-stream", "copy/sluice-fastbuffered-stream"})
    public String caseKey;

    @Override
    String experimentId() {
        return "E1";
    }

    @Override
    String caseKey() {
        return caseKey;
    }
}
