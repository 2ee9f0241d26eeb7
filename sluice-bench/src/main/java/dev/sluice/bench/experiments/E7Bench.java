package dev.sluice.bench.experiments;

import org.openjdk.jmh.annotations.Param;

/** JMH for {@link E7CopyCompare}: copy and compare strategies. */
public class E7Bench extends ExperimentBench {
    /** Which case; the default is the headline comparison, {@code sluice report --full} runs them all. */
    @Param({"copy/loop-4-kib", "copy/loop-8-kib", "copy/files-copy", "contentequals/loop-8-kib", "contentequals/files-mismatch"})
    public String caseKey;

    @Override
    String experimentId() {
        return "E7";
    }

    @Override
    String caseKey() {
        return caseKey;
    }
}
