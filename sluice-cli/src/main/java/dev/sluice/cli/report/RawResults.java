package dev.sluice.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Sample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the raw measurements the experiments' runner (sluice-bench's QuickRunner) writes, one file per fork, and
 * pools them: per case the variant, param, bytes per operation and every sample of every fork.
 *
 * @param forks the planned forks (every case ran in each)
 * @param extraForks the forks of extra looks, which ran only the cells of the claims they name ({@link AdaptiveRounds})
 * @param warmupNanos how long the runner warms a case up (-1 under JMH)
 */
record RawResults(String scale, String harness, int reps, int forks, int extraForks, long warmupNanos, String jvm,
                  String reads, List<String> sources, String rule, List<ExperimentReport> experiments) {

    static final String FORMAT = "sluice-raw-results/3";

    static RawResults read(List<Path> files) throws IOException {
        ObjectMapper m = new ObjectMapper();
        JsonNode first = null;
        // experiment id -> case key -> (template node, samples, error)
        Map<String, JsonNode> expNodes = new LinkedHashMap<>();
        Map<String, Map<String, JsonNode>> caseNodes = new LinkedHashMap<>();
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        int extra = 0;
        for (Path file : files) {
            JsonNode root = m.readTree(file.toFile());
            if (root == null || !FORMAT.equals(root.path("format").asText())) {
                throw new IOException(file + ": not raw results of format " + FORMAT);
            }
            first = first == null ? root : first;
            extra += root.has("claims") ? 1 : 0;
            for (JsonNode e : root.path("experiments")) {
                String id = e.path("id").asText();
                expNodes.putIfAbsent(id, e);
                Map<String, JsonNode> cases = caseNodes.computeIfAbsent(id, k -> new LinkedHashMap<>());
                for (JsonNode c : e.path("cases")) {
                    String key = id + "\u0000" + c.path("variant").asText() + "\u0000" + c.path("param").asText();
                    cases.putIfAbsent(key, c);
                    List<Sample> s = samples.computeIfAbsent(key, k -> new ArrayList<>());
                    s.addAll(samples(c.path("samples")));
                    if (c.has("error")) {
                        errors.putIfAbsent(key, c.get("error").asText());
                    }
                }
            }
        }
        if (first == null) {
            throw new IOException("no raw results");
        }
        List<ExperimentReport> experiments = new ArrayList<>();
        for (Map.Entry<String, JsonNode> en : expNodes.entrySet()) {
            JsonNode e = en.getValue();
            List<Result> results = new ArrayList<>();
            for (Map.Entry<String, JsonNode> c : caseNodes.get(en.getKey()).entrySet()) {
                JsonNode n = c.getValue();
                // A case that failed in one fork but was measured in others keeps its samples.
                results.add(Result.of(n.path("variant").asText(), n.path("param").asText(), n.path("bytesPerOp").asLong(),
                        n.path("reference").asBoolean(), n.path("wholeProcess").asBoolean(), samples.get(c.getKey()),
                        errors.get(c.getKey())));
            }
            experiments.add(new ExperimentReport(e.path("id").asText(), e.path("title").asText(),
                    e.path("claim").asText(), claims(m, e), advice(m, e), results, List.of()));
        }
        return new RawResults(first.path("scale").asText(), first.path("harness").asText(), first.path("reps").asInt(),
                files.size() - extra, extra, first.path("warmupNanos").asLong(-1), first.path("jvm").asText(), first.path("reads").asText("page-cached"),
                jsonStrings(first.path("sources")), first.path("rule").asText(), experiments);
    }

    /** The samples of a raw results or results.json array; counters a sample lacks read -1 (not measured). */
    static List<Sample> samples(JsonNode array) {
        List<Sample> s = new ArrayList<>();
        for (JsonNode x : array) {
            s.add(new Sample(x.path("fork").asInt(), x.path("round").asInt(), x.path("order").asInt(),
                    x.path("nanos").asLong(), x.path("bytes").asLong(), Math.max(1, x.path("ops").asLong(1)),
                    x.path("cpuNanos").asLong(-1), x.path("allocatedBytes").asLong(-1), x.path("gcCount").asLong(-1),
                    x.path("gcMillis").asLong(-1), x.hasNonNull("retainedBytes") ? x.get("retainedBytes").asLong() : null));
        }
        return s;
    }

    /** The claims an experiment node declares (raw results or results.json). */
    static List<Report.ClaimSpec> claims(ObjectMapper m, JsonNode experiment) throws IOException {
        List<Report.ClaimSpec> out = new ArrayList<>();
        for (JsonNode c : experiment.path("claims")) {
            out.add(m.treeToValue(c, Report.ClaimSpec.class));
        }
        return out;
    }

    /** The advice an experiment node declares. */
    static List<Report.AdviceSpec> advice(ObjectMapper m, JsonNode experiment) throws IOException {
        List<Report.AdviceSpec> out = new ArrayList<>();
        for (JsonNode c : experiment.path("advice")) {
            out.add(m.treeToValue(c, Report.AdviceSpec.class));
        }
        return out;
    }

    private static List<String> jsonStrings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(s -> out.add(s.asText()));
        return out;
    }
}
