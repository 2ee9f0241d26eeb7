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
import java.util.Map;

/** The steps of {@code sluice report} after its arguments are checked: measure, judge, write, summarise. */
public final class Reports {
    private Reports() {}

    /** The experiment ids the runner knows, in report order. */
    public static final List<String> EXPERIMENTS = List.of("E1", "E2", "E3", "E4", "E5", "E6", "E7");

    /** The experiments that read files and so have a cold variant (E1 and E6 are about stream classes). */
    public static final List<String> COLD = List.of("E2", "E3", "E4", "E5", "E7");

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

    /** The java launcher of the JVM running sluice: what the forks measure unless told otherwise. */
    public static String javaLauncher() {
        return BenchProcess.javaLauncher();
    }

    private static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /**
     * Keeps E3's per-byte sum ({@code dev.sluice.bench.experiments.Sink.addUp}, the same two commands as its
     * {@code DONT_INLINE}) out of the variants' compiled code, so every variant runs one compiled copy of it: inlined,
     * its speed was a lottery per variant and fork (docs/design/report.md, "E3's sum out of line"). {@code quiet}
     * first, or HotSpot prints the command on the runner's standard output, which carries its events. Written here
     * and in sluice-bench (the CLI starts the benchmarks jar as a process, it does not link it); {@code
     * SinkOptionsTest} keeps the two equal.
     */
    static final List<String> SINK_OUT_OF_LINE = List.of("-XX:CompileCommand=quiet",
            "-XX:CompileCommand=dontinline,dev.sluice.bench.experiments.Sink::addUp");

    /** JVM forks of the runner per report: the intervals resample them, so never fewer than 3. */
    public static final int FORKS = 3;

    /** The raw results files of a run (planned forks first, then extra looks) and the adaptive rounds it took. */
    public record Run(List<Path> raws, Report.Rounds rounds) {}

    /**
     * Runs the experiments in {@link #FORKS} child JVMs, one after the other, then the extra looks of
     * {@link AdaptiveRounds} within the scale's budget counted from {@code startNanos} ({@link System#nanoTime}), and
     * returns the raw results file each fork wrote. A JVM of the runner's own makes the data first (and writes it to
     * disk), so that fork 0 measures as the others do ({@code QuickRunner --prepare}).
     *
     * @param scale tiny, quick or full; {@code jmh} selects JMH instead of the quick harness
     */
    public static Run measure(String java, String classpath, Path dataDir, String scale, boolean jmh, boolean cold,
                              List<String> only, Path userData, PrintStream progress, long startNanos)
            throws IOException, InterruptedException {
        List<Path> raws = new ArrayList<>();
        fork(java, classpath, dataDir, scale, jmh, cold, only, userData, progress, MAKE_DATA, null);
        for (int fork = 0; fork < FORKS; fork++) {
            raws.add(fork(java, classpath, dataDir, scale, jmh, cold, only, userData, progress, fork, null));
        }
        int budget = jmh ? 0 : AdaptiveRounds.budgetSeconds(scale);
        raws = AdaptiveRounds.extend(raws, (fork, claims) -> fork(java, classpath, dataDir, scale, jmh, cold, only,
                userData, progress, fork, claims), System::nanoTime, startNanos, budget, line -> {
                    if (progress != null) {
                        progress.println("sluice report: " + line);
                    }
                });
        return new Run(raws, new Report.Rounds(budget, Report.Stats.round((System.nanoTime() - startNanos) / 1e9),
                raws.size() - FORKS, AdaptiveRounds.rule(budget)));
    }

    /** The runner's "fork" that makes the data and measures nothing ({@code QuickRunner --prepare}). */
    private static final int MAKE_DATA = -1;

    /**
     * The same, and then every data file written again into new pages ({@code --rehome}): run by {@link #fork} before
     * every page-cached fork after the first (extra looks included), so that where the cached data lies in memory,
     * which moves the speed of small reads by up to a fifth and would otherwise be one state for the whole run,
     * differs from fork to fork and is resampled by the intervals (docs/design/report.md, "Data in single pages").
     * Cold reads drop the data from the cache anyway.
     */
    private static final int REHOME_DATA = -2;

    /**
     * One fork of the runner: every case, or with {@code claims} only the cells those claims compare; {@link
     * #MAKE_DATA} and {@link #REHOME_DATA} make the data and measure nothing. A page-cached fork after the first
     * runs {@link #REHOME_DATA} first.
     */
    private static Path fork(String java, String classpath, Path dataDir, String scale, boolean jmh, boolean cold,
                             List<String> only, Path userData, PrintStream progress, int fork, List<String> claims)
            throws IOException, InterruptedException {
        if (fork > 0 && !cold) {
            fork(java, classpath, dataDir, scale, jmh, cold, only, userData, progress, REHOME_DATA, null);
        }
        Path raw = dataDir.resolve("raw-results-" + fork + ".json");
        List<String> args = new ArrayList<>(List.of("--data-dir", dataDir.toString(), "--out", raw.toString(),
                "--scale", scale, "--only", String.join(",", only), "--harness", jmh ? "jmh" : "quick",
                "--fork", Integer.toString(fork), "--reads", cold ? "cold" : "page-cached"));
        if (userData != null) {
            args.add("--user-data");
            args.add(userData.toAbsolutePath().toString());
        }
        if (fork < 0) {
            args.add("--prepare");
            args.add("true");
        }
        if (fork == REHOME_DATA) {
            args.add("--rehome");
            args.add("true");
        }
        if (claims != null) {
            args.add("--claims");
            args.add(String.join(",", claims));
        }
        // Native access lets Sluice's gzip streams use ISA-L on JDK 22+ as `sluice gunzip` does (JDK 17 takes
        // the option too, and ignores it for the class path); the results name the engine in their JVM line.
        List<String> jvm = new ArrayList<>(scale.equals("tiny")
                ? List.of("-Xmx512m", NATIVE_ACCESS) : List.of("-Xms1g", "-Xmx1g", NATIVE_ACCESS));
        jvm.addAll(SINK_OUT_OF_LINE);
        BenchProcess.run(java, classpath, jvm, args, progress, fork < 0 ? "data " : claims != null
                ? "look " + (fork - FORKS + 2) + " " : "fork " + (fork + 1) + "/" + FORKS + " ");
        return raw;
    }

    /** Reads the raw results of every fork, judges each claim and derives the recommendations. */
    public static Report assemble(List<Path> rawFiles, String jdk, String os, String cpu, int cores, String fileSystem,
                                  String command) throws IOException {
        return assemble(new Run(rawFiles, null), jdk, os, cpu, cores, fileSystem, command);
    }

    /** As {@link #assemble(List, String, String, String, int, String, String)}, stating the run's adaptive rounds. */
    public static Report assemble(Run run, String jdk, String os, String cpu, int cores, String fileSystem,
                                  String command) throws IOException {
        List<Path> rawFiles = run.raws();
        RawResults raw = RawResults.read(rawFiles);
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
        String reads = raw.reads();
        Environment env = new Environment(jdk, os, cpu, cores, fileSystem, reads, raw.harness(), raw.scale(),
                Math.max(1, raw.reps()), raw.forks(), raw.jvm(), run.rounds());
        List<ExperimentReport> experiments = new ArrayList<>();
        for (ExperimentReport e : raw.experiments()) {
            experiments.add(e.withVerdicts(Verdicts.judge(e, reads)));
        }
        return new Report(Report.SCHEMA_VERSION, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), command,
                estimate, env, raw.sources(), Verdicts.ruleText(raw.rule()), experiments, Recommendations.from(experiments));
    }

    /** Writes index.html, results.json (and results.schema.json) and results.csv into {@code out}. */
    public static void write(Report report, Path out) throws IOException {
        Files.createDirectories(out);
        ReportFiles.writeJson(report, out.resolve("results.json"));
        ReportFiles.writeCsv(report, out.resolve("results.csv"));
        HtmlPage.write(report, out.resolve("index.html"));
    }

    private static void printBaseline(Report report, PrintWriter w) {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        List<String> moved = new ArrayList<>();
        for (ExperimentReport e : report.experiments()) {
            for (Report.Result r : e.results()) {
                if (r.baseline() != null) {
                    counts.merge(r.baseline().change(), 1, Integer::sum);
                    if (!r.baseline().change().equals("no change")) {
                        moved.add(String.format(Locale.ROOT, "  %-9s %s [%s, %s]  %s %s @ %s", r.baseline().change(),
                                Verdicts.x(r.baseline().ratio()), Verdicts.x(r.baseline().ci()[0]),
                                Verdicts.x(r.baseline().ci()[1]), e.id(), r.variant(), r.param()));
                    }
                }
            }
        }
        if (counts.isEmpty()) {
            return;
        }
        w.println();
        w.println("Against the baseline (this run's median speed over the baseline's [95% CI]): " + counts);
        moved.forEach(w::println);
    }

    /** "held 4.6x [4.3x, 4.9x]". */
    static String cell(Report.JdkVerdict v) {
        return v.outcome().text() + (v.measured() == null ? "" : " " + Verdicts.x(v.measured()) + " ["
                + Verdicts.x(v.ci()[0]) + ", " + Verdicts.x(v.ci()[1]) + "]");
    }

    /** Every verdict of the report, by claim id. */
    static List<Verdict> sorted(Report report) {
        List<Verdict> all = new ArrayList<>();
        for (ExperimentReport e : report.experiments()) {
            all.addAll(e.verdicts());
        }
        all.sort((a, b) -> a.id().compareTo(b.id()));
        return all;
    }

    /** The experiment a verdict was judged from. */
    static String experimentOf(Report report, Verdict v) {
        for (ExperimentReport e : report.experiments()) {
            if (e.verdicts().contains(v)) {
                return e.id();
            }
        }
        return "";
    }

    /** The table printed at the end of a run: verdicts, recommendations, where the files are. */
    public static void printSummary(Report report, Path out, PrintWriter w) {
        Environment env = report.environment();
        w.println("Sluice report (" + (report.estimate() ? "quick estimate" : "JMH") + ", " + env.reads()
                + " reads, scale " + env.scale() + ")");
        w.println("  JDK " + env.jdk() + " | " + env.os() + " | " + env.cpu() + " (" + env.cores() + " cores) | "
                + env.fileSystem());
        w.println();
        w.println("Verdict rule: " + report.rule());
        if (env.rounds() != null) {
            w.println("Rounds: " + HtmlPage.rounds(env));
        }
        w.println();
        w.printf(Locale.ROOT, "%-3s %-3s %-10s %-13s %-24s %s%n", "id", "exp", "metric", "verdict", "measured [" + Verdicts.percent(1 - AdaptiveRounds.LOOK_ALPHA) + " CI]",
                "claim");
        for (Verdict v : sorted(report)) {
            String m = v.measured() == null ? "-" : Verdicts.x(v.measured()) + " [" + Verdicts.x(v.ci()[0]) + ", "
                    + Verdicts.x(v.ci()[1]) + "]";
            w.printf(Locale.ROOT, "%-3s %-3s %-10s %-13s %-24s %s%n", v.id(), experimentOf(report, v), v.metric(),
                    v.outcome().text(), m, v.claim());
            w.printf(Locale.ROOT, "%-3s %-3s %-10s %-13s %-24s   %s; %s (%s)%n", "", "", "", "", "", v.summary(),
                    v.rule(), v.reads());
            if (v.cause() != null) {
                w.printf(Locale.ROOT, "%-3s %-3s %-10s %-13s %-24s   why: %s%s%n", "", "", "", "", "", v.cause().text(),
                        v.cause().sources().isEmpty() ? "" : " (" + String.join(", ", v.cause().sources()) + ")");
            }
            if (v.also() != null && v.also().measured() != null) {
                w.printf(Locale.ROOT, "%-3s %-3s %-10s %-13s %-24s   also: %s: %s [%s, %s] (%s)%n", "", "", "", "", "",
                        v.also().label(), Verdicts.x(v.also().measured()), Verdicts.x(v.also().ci()[0]),
                        Verdicts.x(v.also().ci()[1]), v.also().outcome().text());
            }
        }
        if (report.byJdk() != null) {
            w.println();
            w.println("Verdicts side by side, one column per JDK (measured [" + Verdicts.percent(1 - AdaptiveRounds.LOOK_ALPHA) + " CI]):");
            List<Report.JdkColumn> cols = report.byJdk();
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-4s %-40s", "id", "claim"));
            cols.forEach(c -> head.append(String.format(Locale.ROOT, " | %-36s", c.jdk())));
            w.println(head);
            for (int i = 0; i < cols.get(0).verdicts().size(); i++) {
                Report.JdkVerdict v0 = cols.get(0).verdicts().get(i);
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-4s %-40s", v0.id(),
                        v0.claim().length() > 40 ? v0.claim().substring(0, 39) + "…" : v0.claim()));
                for (Report.JdkColumn c : cols) {
                    row.append(String.format(Locale.ROOT, " | %-36s", i < c.verdicts().size() ? cell(c.verdicts().get(i)) : "-"));
                }
                w.println(row);
            }
        }
        printBaseline(report, w);
        w.println();
        w.println("Recommendations (only where the winner leads the runner-up by at least "
                + Math.round((Recommendations.BAND - 1) * 100) + "%, its interval excludes 1 and it won in every fork):" + (env.scale().equals("tiny")
                ? " (a --tiny run: the numbers are not meaningful; do not apply these settings)" : ""));
        for (Recommendation r : report.recommendations()) {
            w.println("  " + (r.jvmFlag() == null ? "" : r.jvmFlag() + "  ") + r.advice());
        }
        w.println();
        w.println("Wrote " + out.resolve("index.html") + ", results.json, results.csv");
        w.flush();
    }
}
