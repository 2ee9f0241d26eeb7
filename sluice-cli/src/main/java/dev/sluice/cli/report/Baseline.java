package dev.sluice.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.report.Report.Change;
import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --baseline DIR}: compares every result with the same case (experiment, variant, param) of an earlier
 * report's results.json (schema 2 or later, which keep the samples). The two runs are not paired, so the ratio of their
 * median speeds gets its interval from resampling each run on its own ({@link Bootstrap#ratioOfMedians}); the case
 * <b>improved</b> when the whole interval is above 1, <b>regressed</b> when it is below, and shows <b>no change</b>
 * otherwise.
 */
public final class Baseline {
    private Baseline() {}

    /** The results.json of DIR (or the file itself); IllegalArgumentException naming what is wrong. */
    public static Path file(Path dirOrFile) {
        return file(dirOrFile, "--baseline");
    }

    /** As {@link #file(Path)}, naming {@code option} in the error. */
    public static Path file(Path dirOrFile, String option) {
        Path f = Files.isDirectory(dirOrFile) ? dirOrFile.resolve("results.json") : dirOrFile;
        if (!Files.isRegularFile(f)) {
            throw new IllegalArgumentException(option + " " + dirOrFile + ": no results.json there");
        }
        return f;
    }

    /** The report with each result marked against the baseline's same case, where both were measured. */
    public static Report compare(Report report, Path baselineJson) throws IOException {
        JsonNode root = new ObjectMapper().readTree(baselineJson.toFile());
        if (root == null || root.path("schemaVersion").asInt() < 2 || root.path("schemaVersion").asInt() > Report.SCHEMA_VERSION) {
            throw new IOException("--baseline " + baselineJson + ": not a results.json of schema version 2 to "
                    + Report.SCHEMA_VERSION + " (only those keep the samples)");
        }
        Map<String, List<Sample>> base = new HashMap<>();
        for (JsonNode e : root.path("experiments")) {
            for (JsonNode r : e.path("results")) {
                List<Sample> s = samples(r.path("samples"));
                if (!s.isEmpty()) {
                    base.put(key(e.path("id").asText(), r.path("variant").asText(), r.path("param").asText()), s);
                }
            }
        }
        List<ExperimentReport> out = new ArrayList<>();
        for (ExperimentReport e : report.experiments()) {
            List<Result> rs = new ArrayList<>();
            for (Result r : e.results()) {
                List<Sample> b = base.get(key(e.id(), r.variant(), r.param()));
                rs.add(r.measured() && b != null ? r.withBaseline(change(Paired.grid(r.samples()), Paired.grid(b))) : r);
            }
            out.add(e.withResults(rs));
        }
        return new Report(report.schemaVersion(), report.generated(), report.command(), report.estimate(),
                report.environment(), report.dataSources(), report.rule(), out, report.recommendations(), report.byJdk());
    }

    /** The samples of a results.json (or raw results) array. */
    static List<Sample> samples(JsonNode array) {
        return RawResults.samples(array);
    }

    /**
     * An earlier report re-judged from its samples by this version's rules (--reanalyse): the same environment and
     * samples, fresh intervals, verdicts and recommendations.
     */
    public static Report reanalyse(Path resultsJson, String command) throws IOException {
        JsonNode root = new ObjectMapper().readTree(resultsJson.toFile());
        if (root == null || root.path("schemaVersion").asInt() < 3 || root.path("schemaVersion").asInt() > Report.SCHEMA_VERSION) {
            throw new IOException("--reanalyse " + resultsJson + ": not a results.json of schema version 3 to "
                    + Report.SCHEMA_VERSION + " (only those carry the claims)");
        }
        Report.Environment env = new ObjectMapper().treeToValue(root.path("environment"), Report.Environment.class);
        List<ExperimentReport> experiments = new ArrayList<>();
        ObjectMapper m = new ObjectMapper();
        for (JsonNode e : root.path("experiments")) {
            List<Result> rs = new ArrayList<>();
            for (JsonNode r : e.path("results")) {
                rs.add(Result.of(r.path("variant").asText(), r.path("param").asText(), r.path("bytesPerOp").asLong(),
                        r.path("reference").asBoolean(), r.path("wholeProcess").asBoolean(), samples(r.path("samples")),
                        r.has("error") ? r.get("error").asText() : null));
            }
            ExperimentReport x = new ExperimentReport(e.path("id").asText(), e.path("title").asText(),
                    e.path("claim").asText(), RawResults.claims(m, e), RawResults.advice(m, e), rs, List.of());
            experiments.add(x.withVerdicts(Verdicts.judge(x, env.reads())));
        }
        List<String> sources = new ArrayList<>();
        root.path("dataSources").forEach(x -> sources.add(x.asText()));
        sources.add("re-analysed from the samples of " + resultsJson + " (generated " + root.path("generated").asText()
                + " by " + root.path("command").asText() + ")");
        return new Report(Report.SCHEMA_VERSION, java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .toString(), command, root.path("estimate").asBoolean(), env, sources, Verdicts.ruleText(root.path("rule").asText()),
                experiments, Recommendations.from(experiments));
    }

    static Change change(double[][] now, double[][] before) {
        Bootstrap.Estimate e = Bootstrap.ratioOfMedians(now, before, Bootstrap.RESAMPLES, Bootstrap.SEED);
        String c = e.lo() > 1 ? "improved" : e.hi() < 1 ? "regressed" : "no change";
        return new Change(c, Report.Stats.round(e.value()),
                new double[] {Report.Stats.round(e.lo()), Report.Stats.round(e.hi())});
    }

    private static String key(String id, String variant, String param) {
        return id + "\u0000" + variant + "\u0000" + param;
    }
}
