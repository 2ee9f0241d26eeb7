package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.Environment;
import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Recommendation;
import dev.sluice.cli.report.Report.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The steps of {@code sluice report} after its arguments are checked: measure, judge, write, summarise. */
public final class Reports {
    private Reports() {}

    /** The experiment ids the runner knows, in report order. */
    public static final List<String> EXPERIMENTS = List.of("E1", "E2", "E3", "E4", "E5", "E6", "E7");

    /** Parses "e2,E5" into known ids in report order; IllegalArgumentException naming an unknown one. */
    public static List<String> parseOnly(String only) {
        if (only == null || only.isBlank()) {
            return EXPERIMENTS;
        }
        List<String> picked = new ArrayList<>();
        for (String raw : only.split(",")) {
            String id = raw.trim().toUpperCase(Locale.ROOT);
            if (!EXPERIMENTS.contains(id)) {
                throw new IllegalArgumentException("unknown experiment '" + raw.trim() + "' in --only (known: "
                        + String.join(", ", EXPERIMENTS) + ")");
            }
            if (!picked.contains(id)) {
                picked.add(id);
            }
        }
        picked.sort((a, b) -> EXPERIMENTS.indexOf(a) - EXPERIMENTS.indexOf(b));
        return picked;
    }

    /**
     * Runs the experiments in a child JVM and returns the raw results file it wrote.
     *
     * @param scale tiny, quick or full; {@code jmh} selects JMH instead of the quick harness
     */
    public static Path measure(String classpath, Path dataDir, String scale, boolean jmh, List<String> only,
                               Path userData, PrintStream progress) throws IOException, InterruptedException {
        Path raw = dataDir.resolve("raw-results.json");
        List<String> args = new ArrayList<>(List.of("--data-dir", dataDir.toString(), "--out", raw.toString(),
                "--scale", scale, "--only", String.join(",", only), "--harness", jmh ? "jmh" : "quick"));
        if (userData != null) {
            args.add("--user-data");
            args.add(userData.toAbsolutePath().toString());
        }
        List<String> jvm = scale.equals("tiny") ? List.of("-Xmx512m") : List.of("-Xms1g", "-Xmx1g");
        BenchProcess.run(BenchProcess.javaLauncher(), classpath, jvm, args, progress);
        return raw;
    }

    /** Reads the raw results, judges each claim and derives the recommendations. */
    public static Report assemble(Path rawFile, String jdk, String os, String cpu, int cores, String fileSystem,
                                  String command) throws IOException {
        RawResults raw = RawResults.read(rawFile);
        String firstError = null;
        boolean anyMeasured = false;
        for (ExperimentReport e : raw.experiments()) {
            for (Report.Result r : e.results()) {
                anyMeasured |= r.measured();
                firstError = firstError == null ? r.error() : firstError;
            }
        }
        if (!anyMeasured) {
            throw new IOException("no case could be measured" + (firstError == null ? "" : ": " + firstError));
        }
        boolean estimate = !raw.harness().startsWith("JMH");
        Environment env = new Environment(jdk, os, cpu, cores, fileSystem, "page-cached", raw.harness(), raw.scale(),
                Math.max(1, raw.reps()));
        List<ExperimentReport> experiments = new ArrayList<>();
        for (ExperimentReport e : raw.experiments()) {
            experiments.add(new ExperimentReport(e.id(), e.title(), e.claim(), e.results(),
                    Verdicts.judge(e.id(), e.results())));
        }
        return new Report(Report.SCHEMA_VERSION, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), command,
                estimate, env, raw.sources(), experiments, Recommendations.from(experiments));
    }

    /** Writes index.html, results.json (and results.schema.json) and results.csv into {@code out}. */
    public static void write(Report report, Path out) throws IOException {
        Files.createDirectories(out);
        ReportFiles.writeJson(report, out.resolve("results.json"));
        ReportFiles.writeCsv(report, out.resolve("results.csv"));
        HtmlPage.write(report, out.resolve("index.html"));
    }

    /** The table printed at the end of a run: verdicts, recommendations, where the files are. */
    public static void printSummary(Report report, Path out, PrintWriter w) {
        Environment env = report.environment();
        w.println("Sluice report (" + (report.estimate() ? "quick estimate" : "JMH") + ", " + env.reads()
                + " reads, scale " + env.scale() + ")");
        w.println("  JDK " + env.jdk() + " | " + env.os() + " | " + env.cpu() + " (" + env.cores() + " cores) | "
                + env.fileSystem());
        w.println();
        w.printf(Locale.ROOT, "%-4s %-13s %-9s %s%n", "exp", "verdict", "measured", "claim / by how much");
        for (ExperimentReport e : report.experiments()) {
            for (Verdict v : e.verdicts()) {
                w.printf(Locale.ROOT, "%-4s %-13s %-9s %s%n", e.id(), v.outcome().text(),
                        v.measured() == null ? "-" : String.format(Locale.ROOT, "%.2fx", v.measured()), v.claim());
                w.printf(Locale.ROOT, "%-4s %-13s %-9s   %s%n", "", "", "", v.summary());
            }
        }
        w.println();
        w.println("Recommendations:" + (env.scale().equals("tiny")
                ? " (a --tiny run: the numbers are not meaningful; do not apply these settings)" : ""));
        for (Recommendation r : report.recommendations()) {
            w.println("  " + (r.jvmFlag() == null ? "" : r.jvmFlag() + "  ") + r.advice());
        }
        w.println();
        w.println("Wrote " + out.resolve("index.html") + ", results.json, results.csv");
        w.flush();
    }
}
