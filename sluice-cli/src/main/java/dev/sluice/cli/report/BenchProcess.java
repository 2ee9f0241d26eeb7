package dev.sluice.cli.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Runs sluice-bench's experiment runner in a child JVM (the peers it measures live only in the benchmarks jar) and
 * turns its event lines ({@code START E1 16}, {@code STEP E1 3 16 …}, {@code END E1}) into one progress bar per
 * experiment and fork ("fork 2/3 E1"; the message names the round being measured). The child is destroyed if this JVM exits first (Ctrl-C).
 */
public final class BenchProcess {
    private BenchProcess() {}

    static final String RUNNER = "dev.sluice.bench.experiments.QuickRunner";

    /**
     * @param classpath the benchmarks jar (or a class path holding sluice-bench's classes and dependencies)
     * @param args the runner's arguments
     * @param progress where the progress bars go, or null for none
     */
    static void run(String java, String classpath, List<String> jvmArgs, List<String> args, PrintStream progress,
                    String label) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(RUNNER);
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectErrorStream(false);
        Process p = pb.start();
        Thread killer = new Thread(p::destroyForcibly, "sluice-report-child-killer");
        Runtime.getRuntime().addShutdownHook(killer);
        StringBuilder stderr = new StringBuilder();
        Thread errReader = new Thread(() -> drain(p, stderr), "sluice-report-stderr");
        errReader.setDaemon(true);
        errReader.start();
        Map<String, ProgressBar> bars = new HashMap<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                event(line, bars, progress, label);
            }
        } finally {
            bars.values().forEach(ProgressBar::close);
        }
        int code = p.waitFor();
        errReader.join(5000);
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException e) {
            // shutting down already: the hook runs anyway
        }
        if (code != 0) {
            String last = lastLine(stderr.toString());
            throw new IOException("the experiments runner failed (exit " + code + ")" + (last.isEmpty() ? "" : ": " + last));
        }
    }

    private static void event(String line, Map<String, ProgressBar> bars, PrintStream progress, String label) {
        String[] f = line.split(" ", 5);
        if (progress == null || f.length < 2) {
            return;
        }
        switch (f[0]) {
            case "START":
                bars.put(f[1], new ProgressBarBuilder().setTaskName(label + f[1]).setInitialMax(Long.parseLong(f[2]))
                        .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250)
                        .setConsumer(new ConsoleProgressBarConsumer(progress)).setUnit(" cases", 1).build());
                break;
            case "STEP":
                ProgressBar b = bars.get(f[1]);
                if (b != null && f.length >= 4) {
                    b.stepTo(Long.parseLong(f[2]));
                    b.setExtraMessage(f.length == 5 ? " " + shorten(f[4]) : "");
                }
                break;
            case "END":
                ProgressBar done = bars.remove(f[1]);
                if (done != null) {
                    done.setExtraMessage("");
                    done.close();
                }
                break;
            default:
                break;
        }
    }

    private static String shorten(String s) {
        // Fixed width, so that the bar does not jump as the message changes.
        return s.length() <= 40 ? String.format("%-40s", s) : s.substring(0, 39) + "…";
    }

    private static void drain(Process p, StringBuilder into) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (into) {
                    into.append(line).append('\n');
                }
            }
        } catch (IOException e) {
            // the child is gone; its exit code tells the rest
        }
    }

    static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1].strip();
    }

    /** The java launcher of the running JVM: by default the child measures the same JDK the user ran sluice with. */
    static String javaLauncher() {
        Path bin = Path.of(System.getProperty("java.home"), "bin", "java");
        return bin.toFile().canExecute() ? bin.toString() : "java";
    }
}
