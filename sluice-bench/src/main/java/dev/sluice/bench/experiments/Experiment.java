package dev.sluice.bench.experiments;

import java.io.IOException;
import java.util.List;

/**
 * One classic Java I/O experiment: the claim it tests and the cases that test it. Each subclass lists its variants
 * as named lambdas over the prepared data, so that adding a strategy (Sluice's, when its branch lands) is one line.
 * The quick runner and the JMH benchmark of the experiment both run these same workloads.
 */
public abstract class Experiment {
    private final String id;
    private final String title;
    private final String claim;

    Experiment(String id, String title, String claim) {
        this.id = id;
        this.title = title;
        this.claim = claim;
    }

    public final String id() {
        return id;
    }

    public final String title() {
        return title;
    }

    /** The folklore being tested, in one sentence, with the source's numbers. */
    public final String claim() {
        return claim;
    }

    /** The cases of this experiment at the corpus's scale; data files are made on first use and reused. */
    public abstract List<Case> cases(Corpus corpus) throws IOException;
}
