package dev.sluice.bench.experiments;

import org.openjdk.jmh.annotations.Param;

/** JMH for {@link E5Gzip}: gzip decompression strategies and input buffer sweep. */
public class E5Bench extends ExperimentBench {
    /** Which case; the default is the headline comparison, {@code sluice report --full} runs them all. */
    @Param({"strategies/gzipinputstream-512-b-default", "strategies/gzipinputstream-over-bufferedinputstream", "strategies/gzipinputstream-64-kib-buffer"})
    public String caseKey;

    @Override
    String experimentId() {
        return "E5";
    }

    @Override
    String caseKey() {
        return caseKey;
    }
}
