package dev.sluice.bench.experiments;

import org.openjdk.jmh.annotations.Param;

/** JMH for {@link E4Readers}: readers on Latin-1 and Japanese text. */
public class E4Bench extends ExperimentBench {
    /** Which case; the default is the headline comparison, {@code sluice report --full} runs them all. */
    @Param({"japanese-500-kb/inputstreamreader-fileinputstream", "japanese-500-kb/files-newbufferedreader", "japanese-500-kb/channels-newreader"})
    public String caseKey;

    @Override
    String experimentId() {
        return "E4";
    }

    @Override
    String caseKey() {
        return caseKey;
    }
}
