package dev.sluice.bench.experiments;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One claim of the folklore, declared once, beside the cases that test it: its fixed id ({@code C01}…), the source
 * article, the wording, what the article claimed, the rule and the number it is judged by, the metric, and the cells
 * whose samples form it. {@code sluice report} carries it into results.json and judges it from this declaration
 * alone: no claim text or variant name is written again in the CLI.
 *
 * <p>A claim is "A beats B by k on {@code metric}": its ratio, per paired round, is B's cost over A's (time, CPU time,
 * allocated or retained bytes, each per byte moved), so above 1 means A is better. A side is the best of its cells
 * (the lowest median cost); a claim over several comparisons ({@link Pair}s, e.g. one per file size) takes the
 * geometric mean of their ratios. A {@link Rule#DIMINISHING} pair also has a side C, and its ratio is
 * (B / A) / (A / C): A's gain over B divided by C's gain over A.
 *
 * @param id the fixed id, C01–C27
 * @param source the article it comes from
 * @param wording the claim, as A over B, in one sentence
 * @param claimed what the article claimed, as the report shows it ("8.1x", "as fast", "faster")
 * @param rule how the interval is judged
 * @param k the claimed ratio (the article's own number where it gives one; see {@link Rule})
 * @param metric time, cpu, allocation or memory
 * @param setup the article's set-up and ours, side by side, in one sentence
 * @param pairs the comparisons whose ratios form the claim
 * @param cold true for claims about disks: judged only on reads that left the page cache ({@code --cold}), "not
 *     judged here" otherwise
 * @param also a second, labelled measurement shown beside the verdict (a more realistic set-up, or the other half of
 *     the claim), never the one judged; or null
 */
public record Claim(String id, Source source, String wording, String claimed, Rule rule, double k, Metric metric,
                    String setup, List<Pair> pairs, boolean cold, Also also) {

    /** The five articles. */
    public enum Source {
        A("Vorontsov: BufferedInputStream and GZIPInputStream: when not to buffer, buffer sizes, available()",
                "c. 2013 (Java 6 and 7)"),
        B("Busting the buffered streams myth: byte-at-a-time copies and synchronized streams", "2010"),
        C("FileInputStream's finalizer versus FileChannel and Files.newInputStream, and readers (JMH)",
                "c. 2017 (Java 8, notes on 9)"),
        D("Optimal BufferedInputStream buffer and destination array sizes on a fast SSD", "c. 2009"),
        E("Commons IO IO-650: IOUtils' default buffer from 4 KiB to 8 KiB", "2020");

        public final String title;
        public final String year;

        Source(String title, String year) {
            this.title = title;
            this.year = year;
        }
    }

    /** What a claim's ratio is made of. */
    public enum Metric {
        TIME("time"), CPU("cpu"), ALLOCATION("allocation"), MEMORY("memory");

        public final String json;

        Metric(String json) {
            this.json = json;
        }
    }

    /**
     * The one rule, in four shapes (stated in docs/design/report.md and in every verdict).
     * <ul>
     *   <li>{@code BETTER}: "faster", "less CPU", "more GC", "k times": held when the whole 95% interval is at or
     *       above t = 1 + (k − 1) / 2 (half the claimed advantage), did not hold when it is all below t. An
     *       unquantified "faster"/"less"/"more" counts as k = 1.1; "far" or "clearly" faster as k = 1.25.</li>
     *   <li>{@code NOT_WORSE}: "as fast" where A being better would only strengthen the claim ("no need to buffer",
     *       "gives nothing", "safe"): held when the whole interval is at or above 1 / 1.1, did not hold when it is
     *       all below.</li>
     *   <li>{@code EQUIVALENT}: "as fast" both ways ("equivalent", "as if it ignored the calls"): held when the
     *       whole interval lies in the band [1 / 1.1, 1.1], did not hold when it lies wholly outside it.</li>
     *   <li>{@code DIMINISHING}: "the gains diminish": {@code BETTER} with k = 1.1 on (B / A) / (A / C).</li>
     * </ul>
     */
    public enum Rule { BETTER, NOT_WORSE, EQUIVALENT, DIMINISHING }

    /** The practical-equivalence band of "as fast": within 10% either way. */
    public static final double BAND = 1.10;

    /** k of an unquantified "faster", "less", "more GC". */
    public static final double FASTER = 1.1;

    /** k of "far faster", "clearly faster". */
    public static final double FAR_FASTER = 1.25;

    /** The rule as the report states it, once for every claim. */
    public static final String RULE_TEXT = "Each claim is \"A beats B by k\" on its metric (time, CPU time, allocated "
            + "or retained bytes, per byte moved); the measured ratio is B's cost over A's, per paired round (median "
            + "over rounds, geometric mean over the claim's comparisons), with a bootstrap interval (98.1%: see the rounds rule). \"k times\", "
            + "\"faster\", \"less\", \"more GC\": held when the whole interval is at or above t = 1 + (k - 1) / 2 "
            + "(half the claimed advantage), did not hold when it is all below t; an unquantified \"faster\" counts as "
            + "k = " + FASTER + ", \"far\"/\"clearly faster\" as k = " + FAR_FASTER + ". \"As fast\" where A being "
            + "better only strengthens the claim: t = 1/" + BAND + ". \"As fast\" both ways (\"equivalent\"): held "
            + "when the whole interval lies in [1/" + BAND + ", " + BAND + "], did not hold when it lies wholly outside. "
            + "\"Diminishing\": (B/A) / (A/C) judged as \"faster\". Inconclusive here otherwise.";

    /** The lower threshold of a rule: what the whole interval must reach for "held". */
    static double threshold(Rule rule, double k) {
        switch (rule) {
            case NOT_WORSE:
            case EQUIVALENT:
                return 1 / BAND;
            default:
                return 1 + (k - 1) / 2;
        }
    }

    /** One measured cell: a variant at a param. */
    public record Cell(String variant, String param) {}

    /** One comparison: side A against side B (and C, for {@link Rule#DIMINISHING}); each side the best of its cells. */
    public record Pair(List<Cell> a, List<Cell> b, List<Cell> c) {
        public Pair(List<Cell> a, List<Cell> b) {
            this(a, b, List.of());
        }
    }

    /** A second, labelled measurement: never judged for the claim, shown beside it with where it would land. */
    public record Also(String label, Rule rule, double k, Metric metric, List<Pair> pairs) {}

    /** Every cell the claim names, for the check that each one ran. */
    public List<Cell> cells() {
        List<Cell> all = new ArrayList<>();
        for (List<Pair> ps : also == null ? List.of(pairs) : List.of(pairs, also.pairs())) {
            for (Pair p : ps) {
                all.addAll(p.a());
                all.addAll(p.b());
                all.addAll(p.c());
            }
        }
        return all;
    }

    /** The claim as the raw results carry it. */
    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("source", source.name());
        m.put("sourceTitle", source.title);
        m.put("sourceYear", source.year);
        m.put("wording", wording);
        m.put("claimed", claimed);
        m.put("rule", rule.name());
        m.put("k", k);
        m.put("threshold", threshold(rule, k));
        m.put("upper", rule == Rule.EQUIVALENT ? BAND : null);
        m.put("metric", metric.json);
        m.put("setup", setup);
        m.put("cold", cold);
        Causes.Cause cause = Causes.of(id);
        if (cause != null) {
            m.put("cause", cause.toJson());
        }
        m.put("pairs", pairsJson(pairs));
        if (also != null) {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("label", also.label());
            a.put("rule", also.rule().name());
            a.put("k", also.k());
            a.put("threshold", threshold(also.rule(), also.k()));
            a.put("upper", also.rule() == Rule.EQUIVALENT ? BAND : null);
            a.put("metric", also.metric().json);
            a.put("pairs", pairsJson(also.pairs()));
            m.put("also", a);
        }
        return m;
    }

    private static List<Object> pairsJson(List<Pair> pairs) {
        List<Object> out = new ArrayList<>();
        for (Pair p : pairs) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("a", p.a());
            m.put("b", p.b());
            if (!p.c().isEmpty()) {
                m.put("c", p.c());
            }
            out.add(m);
        }
        return out;
    }

    // Builders for the experiments' declarations ----------------------------------------------------------------

    /** Variant {@code v} at each of {@code params}. */
    static List<Cell> at(String v, String... params) {
        List<Cell> out = new ArrayList<>();
        for (String p : params) {
            out.add(new Cell(v, p));
        }
        return out;
    }

    /** Each variant at {@code param}. */
    static List<Cell> each(String param, List<String> variants) {
        List<Cell> out = new ArrayList<>();
        for (String v : variants) {
            out.add(new Cell(v, param));
        }
        return out;
    }

    /** One pair per param: A's variants against B's at that param. */
    static List<Pair> perParam(List<String> params, List<String> a, List<String> b) {
        List<Pair> out = new ArrayList<>();
        for (String p : params) {
            out.add(new Pair(each(p, a), each(p, b)));
        }
        return out;
    }

    /** The cases' variants at {@code param} matching {@code which}, in case order. */
    static List<String> variants(List<Case> cases, String param, Predicate<String> which) {
        List<String> out = new ArrayList<>();
        for (Case c : cases) {
            if (c.param().equals(param) && which.test(c.variant()) && !out.contains(c.variant())) {
                out.add(c.variant());
            }
        }
        return out;
    }
}
