package dev.sluice.cli;

import dev.sluice.cli.report.Report;
import dev.sluice.cli.report.Reports;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice report}: reruns the classic Java I/O experiments (E1-E7) on this machine and writes a
 * self-contained HTML report with charts, results.json, results.csv, verdicts and recommendations.
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Rerun the classic Java I/O experiments here and say which folklore holds on this JDK, CPU "
                + "and disk.",
                "Quick mode (default) is an estimate of a few minutes; --full measures with JMH (much longer).",
                "Data is made in a temporary directory inside --out (so the measured file system is the one "
                        + "holding --out) and deleted afterwards."})
final class ReportCommand implements Callable<Integer> {

    @Option(names = "--full", description = "Measure with JMH (one fork per case) on larger data: tens of minutes.")
    boolean full;

    @Option(names = "--tiny", description = "Tiny data and very short runs (CI smoke test; numbers meaningless).")
    boolean tiny;

    @Option(names = "--only", paramLabel = "E2,E5", description = "Run only these experiments (E1-E7).")
    String only;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write the report (default: ./sluice-report).")
    Path out = Path.of("sluice-report");

    @Option(names = "--data", paramLabel = "DIR",
            description = "Use the files under DIR (concatenated) as the byte corpus instead of the JDK sources.")
    Path data;

    @Option(names = "--bench-jar", paramLabel = "JAR", description = "The benchmarks jar (default: "
            + "sluice-bench/target/benchmarks.jar beside the CLI's build; env SLUICE_BENCH_JAR).")
    String benchJar;

    @Option(names = "--jdk", paramLabel = "PATH", description = "Measure on this JDK (its home); repeatable: the "
            + "verdicts of each are set side by side. Default: the JDK running sluice.")
    List<Path> jdks;

    @Option(names = "--all-jdks", description = "Measure on every JDK 17 or newer under /usr/lib/jvm and $JAVA_HOME.")
    boolean allJdks;

    @Option(names = "--cold", description = "Read experiments (E2-E5, E7) with the data dropped from the page cache "
            + "before every repetition (dd iflag=nocache), on the file system holding --out; one operation each.")
    boolean cold;

    @Option(names = "--baseline", paramLabel = "DIR", description = "Compare every case with an earlier report's "
            + "results.json (DIR or the file): improved / regressed / no change, with the interval of the ratio.")
    Path baseline;

    @Option(names = "--reanalyse", paramLabel = "DIR", description = "Measure nothing: re-judge an earlier report's "
            + "samples (DIR/results.json) with this version's rules and write the report to --out.")
    Path reanalyse;

    @Option(names = "--no-progress", description = "Do not draw progress bars.")
    boolean noProgress;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        long start = System.nanoTime();   // the adaptive rounds' budget counts from here
        // Check every argument before spending minutes measuring.
        List<String> experiments = Reports.parseOnly(only);
        if (cold) {
            List<String> readers = new java.util.ArrayList<>(experiments);
            readers.retainAll(Reports.COLD);
            if (readers.isEmpty()) {
                throw new IllegalArgumentException("--cold applies to the read experiments " + String.join(", ",
                        Reports.COLD) + "; --only " + only + " has none");
            }
            experiments = readers;
        }
        if (data != null) {
            checkData(data);
        }
        List<Path> homes = new java.util.ArrayList<>();
        if (allJdks) {
            homes.addAll(dev.sluice.cli.report.Jdks.all());
        }
        if (jdks != null) {
            for (Path j : jdks) {
                Path h = dev.sluice.cli.report.Jdks.home(j);
                if (!homes.contains(h)) {
                    homes.add(h);
                }
            }
        }
        Path baselineFile = baseline == null ? null : dev.sluice.cli.report.Baseline.file(baseline);
        Path outDir = checkOut(out);
        if (reanalyse != null) {
            Report again = dev.sluice.cli.report.Baseline.reanalyse(dev.sluice.cli.report.Baseline.file(reanalyse,
                    "--reanalyse").toAbsolutePath(), commandLine());
            Reports.write(again, outDir);
            Reports.printSummary(again, outDir, spec.commandLine().getOut());
            return 0;
        }
        String classpath = benchClasspath();
        String scale = tiny ? "tiny" : full ? "full" : "quick";

        Path dataDir = Files.createTempDirectory(outDir, ".sluice-data-");
        Thread cleanup = new Thread(() -> deleteTree(dataDir), "sluice-report-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            PrintWriter stdout = spec.commandLine().getOut();
            stdout.println("sluice report: " + (full ? "JMH" : "quick estimate") + ", scale " + scale + ", experiments "
                    + String.join(",", experiments) + ", " + Reports.FORKS + " forks, " + (cold ? "cold" : "page-cached")
                    + " reads; data in " + dataDir);
            stdout.flush();
            Platform p = Platform.probe(dataDir);
            Report report;
            if (homes.isEmpty()) {
                Reports.Run raw = Reports.measure(Reports.javaLauncher(), classpath, dataDir, scale, full,
                        cold, experiments, data, noProgress ? null : System.err, start);
                report = Reports.assemble(raw, p.jdk(), p.os(), p.cpu(), p.cores(), p.fileSystem(), commandLine());
            } else {
                // Every JDK measures the same data (made by the first); each gets its own full report, the first
                // at the top with every JDK's verdicts side by side.
                List<Report.JdkColumn> columns = new java.util.ArrayList<>();
                report = null;
                for (int i = 0; i < homes.size(); i++) {
                    Path home = homes.get(i);
                    String label = dev.sluice.cli.report.Jdks.label(home);
                    stdout.println("sluice report: JDK " + label + " (" + home + ")");
                    stdout.flush();
                    // Each JDK has the budget of one run, counted from its own first fork.
                    Reports.Run raw = Reports.measure(home.resolve("bin/java").toString(), classpath, dataDir, scale,
                            full, cold, experiments, data, noProgress ? null : System.err,
                            i == 0 ? start : System.nanoTime());
                    Files.createDirectories(dataDir.resolve("jdk-" + i));
                    List<Path> kept = new java.util.ArrayList<>();
                    for (Path r : raw.raws()) {   // the next JDK's forks write the same names
                        kept.add(Files.move(r, dataDir.resolve("jdk-" + i).resolve(r.getFileName())));
                    }
                    Report one = Reports.assemble(new Reports.Run(kept, raw.rounds()), label, p.os(), p.cpu(), p.cores(), p.fileSystem(),
                            commandLine());
                    String dir = i == 0 ? "." : "jdk-" + dev.sluice.cli.report.Jdks.major(home) + "-" + i;
                    if (i > 0) {
                        Reports.write(one, outDir.resolve(dir));
                    } else {
                        report = one;
                    }
                    columns.add(Report.JdkColumn.of(label, dir, one));
                }
                report = report.withByJdk(columns);
            }
            if (baselineFile != null) {
                report = dev.sluice.cli.report.Baseline.compare(report, baselineFile);
            }
            Reports.write(report, outDir);
            copyJmhResults(dataDir, outDir);
            Reports.printSummary(report, outDir, stdout);
        } finally {
            deleteTree(dataDir);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
        return 0;
    }

    private String commandLine() {
        // originalArgs are the whole command line's, "report" included.
        CommandLine.ParseResult pr = spec.commandLine().getParseResult();
        return pr == null ? "sluice report" : "sluice " + String.join(" ", pr.originalArgs());
    }

    static void checkData(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            throw new IOException("--data " + dir + ": No such directory");
        }
        if (!Files.isDirectory(dir)) {
            throw new IOException("--data " + dir + ": Not a directory");
        }
        try (Stream<Path> s = Files.walk(dir)) {
            if (s.noneMatch(f -> Files.isRegularFile(f) && Files.isReadable(f) && size(f) > 0)) {
                throw new IOException("--data " + dir + ": no readable, non-empty files in it");
            }
        }
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Creates --out if needed and proves it writable; one clear line otherwise. */
    static Path checkOut(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        try {
            Files.createDirectories(abs);
            Path probe = Files.createTempFile(abs, ".sluice-probe-", ".tmp");
            Files.delete(probe);
        } catch (FileSystemException e) {
            String reason = e.getReason() != null ? e.getReason()
                    : e instanceof java.nio.file.AccessDeniedException ? "Permission denied"
                    : e instanceof java.nio.file.FileAlreadyExistsException ? "Not a directory"
                    : e.getClass().getSimpleName();
            throw new IOException("--out " + dir + ": cannot write there (" + reason + ")");
        }
        return abs;
    }

    /** The benchmarks jar: --bench-jar, $SLUICE_BENCH_JAR, beside the CLI's build tree, or under the current dir. */
    private String benchClasspath() throws IOException {
        if (benchJar != null) {
            return benchJar;
        }
        String env = System.getenv("SLUICE_BENCH_JAR");
        if (env != null && !env.isBlank()) {
            return env;
        }
        Path rel = Path.of("sluice-bench", "target", "benchmarks.jar");
        try {
            Path self = Path.of(ReportCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // sluice-cli/target/sluice.jar (or target/classes) -> the reactor root
            Path root = self.getParent() == null ? null : self.getParent().getParent();
            if (root != null && root.getParent() != null) {
                Path candidate = root.getParent().resolve(rel);
                if (Files.isRegularFile(candidate)) {
                    return candidate.toString();
                }
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall back to the working directory
        }
        if (Files.isRegularFile(rel)) {
            return rel.toAbsolutePath().toString();
        }
        throw new IOException("the benchmarks jar (sluice-bench/target/benchmarks.jar) is missing: run ./sluice "
                + "report from the source tree, or build it with mvn -B -ntp -DskipTests package -pl sluice-bench -am");
    }

    private static void copyJmhResults(Path dataDir, Path outDir) throws IOException {
        Path jmh = dataDir.resolve("jmh");
        if (!Files.isDirectory(jmh)) {
            return;
        }
        Path target = Files.createDirectories(outDir.resolve("jmh"));
        try (Stream<Path> s = Files.list(jmh)) {
            for (Path f : (Iterable<Path>) s::iterator) {
                Files.copy(f, target.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort: a leftover temp file is not worth failing the report for
                }
            });
        } catch (IOException e) {
            // best effort
        }
    }
}
