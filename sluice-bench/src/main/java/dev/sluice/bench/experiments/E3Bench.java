package dev.sluice.bench.experiments;

import org.openjdk.jmh.annotations.Param;

/** JMH for {@link E3OpenStrategies}: open strategies across file sizes. */
public class E3Bench extends ExperimentBench {
    /** Which case; the default is the headline comparison, {@code sluice report --full} runs them all. */
    @Param({"file-4-kib/fileinputstream", "file-4-kib/filechannel-open-channels-newinputstream", "file-4-kib/sluice-fastfiles-newinputstream"})
    public String caseKey;

    @Override
    String experimentId() {
        return "E3";
    }

    @Override
    String caseKey() {
        return caseKey;
    }
}
