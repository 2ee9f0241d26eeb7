package dev.sluice.bench.experiments;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One like-for-like comparison that {@code sluice report} turns into a recommendation, declared beside the cases it
 * ranks, so that the CLI names no variant itself. The candidates are ranked over the params (geometric mean of their
 * median speeds); the CLI's rule decides whether the winner is recommended or "no measurable difference here".
 *
 * @param basis the comparison, as the report names it
 * @param advice what to do, with {@code %s} for the winner ("To read gzip use %s")
 * @param params the cells the candidates are ranked over (each candidate is measured at every one)
 * @param candidates the variants compared
 * @param defaultChoice the variant that is what a user gets without choosing (named when it ties), or null
 * @param property the {@code sluice.*} system property the comparison sweeps, or null for advice on code
 * @param sizes for a property: each candidate's value in bytes, in the order of {@code candidates}; else empty
 */
public record Advice(String basis, String advice, List<String> params, List<String> candidates, String defaultChoice,
                     String property, List<Long> sizes) {

    static Advice code(String basis, String advice, List<String> params, List<String> candidates, String defaultChoice) {
        return new Advice(basis, advice, params, candidates, defaultChoice, null, List.of());
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("basis", basis);
        m.put("advice", advice);
        m.put("params", params);
        m.put("candidates", candidates);
        m.put("defaultChoice", defaultChoice);
        m.put("property", property);
        m.put("sizes", sizes);
        return m;
    }
}
