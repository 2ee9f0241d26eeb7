package dev.sluice.bench.experiments;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * One experiment: the claims it tests and the cases that test them. Each subclass lists its variants as named
 * lambdas over the prepared data, declares its claims ({@link Claim}: ids, wording, sides, k, metric) and the
 * like-for-like comparisons that back advice ({@link Advice}), naming the same variants; the CLI judges from these
 * declarations alone. The quick runner and the JMH benchmark of the experiment both run these same workloads.
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

    /** What the experiment puts on trial, in one sentence. */
    public final String claim() {
        return claim;
    }

    /** The cases of this experiment at the corpus's scale; data files are made on first use and reused. */
    public abstract List<Case> cases(Corpus corpus) throws IOException;

    /** The claims judged from this experiment's cases at this scale (their cells name its cases). */
    public abstract List<Claim> claims(Scale scale);

    /**
     * Paired rounds per fork of the comparison at {@code param} (one experiment at one param) in a page-cached quick
     * run: the scale's {@link Scale#reps} unless the experiment plans more for a comparison whose claims need them. A
     * plan is a sample-size calculation from earlier runs' spread, stated where it is made (docs/design/report.md,
     * "Rounds planned from earlier runs' spread"); it never looks at the run being measured.
     */
    public int rounds(String param, Scale scale) {
        return scale.reps();
    }

    /**
     * Paired rounds per fork, in a page-cached quick run, for a claim that compares one cell with one other cell of
     * the same comparison, by claim id: after the comparison's {@link #rounds} with every variant, its two cells go
     * on alone in paired rounds (numbered on, the order alternating) until the claim has this many. A plan for a
     * claim whose spread is round noise and whose estimate lies near an edge, where rounds of the comparison's other
     * variants would cost time and tell the claim nothing; stated where it is made (docs/design/report.md, "Rounds
     * of a claim's own"); it never looks at the run being measured.
     */
    public Map<String, Integer> claimRounds(Scale scale) {
        return Map.of();
    }

    /** The comparisons at this scale that back recommendations. */
    public List<Advice> advice(Scale scale) {
        return List.of();
    }
}
