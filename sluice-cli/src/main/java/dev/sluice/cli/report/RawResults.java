package dev.sluice.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the raw measurements the experiments' runner (sluice-bench's QuickRunner) writes: per case the variant,
 * param, bytes per operation and nanoseconds per operation of each repetition.
 */
record RawResults(String scale, String harness, int reps, String jvm, List<String> sources,
                  List<ExperimentReport> experiments) {

    static final String FORMAT = "sluice-raw-results/1";

    static RawResults read(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        if (root == null || !FORMAT.equals(root.path("format").asText())) {
            throw new IOException(file + ": not raw results of format " + FORMAT);
        }
        List<String> sources = new ArrayList<>();
        root.path("sources").forEach(s -> sources.add(s.asText()));
        List<ExperimentReport> experiments = new ArrayList<>();
        for (JsonNode e : root.path("experiments")) {
            List<Result> results = new ArrayList<>();
            for (JsonNode c : e.path("cases")) {
                double[] nanos = null;
                if (c.has("nanosPerOp")) {
                    JsonNode arr = c.get("nanosPerOp");
                    nanos = new double[arr.size()];
                    for (int i = 0; i < nanos.length; i++) {
                        nanos[i] = arr.get(i).asDouble();
                    }
                }
                results.add(Result.of(c.path("variant").asText(), c.path("param").asText(),
                        c.path("bytesPerOp").asLong(), nanos, c.has("error") ? c.get("error").asText() : null));
            }
            experiments.add(new ExperimentReport(e.path("id").asText(), e.path("title").asText(),
                    e.path("claim").asText(), results, List.of()));
        }
        return new RawResults(root.path("scale").asText(), root.path("harness").asText(), root.path("reps").asInt(),
                root.path("jvm").asText(), sources, experiments);
    }
}
