package dev.sluice.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --baseline and the JDK discovery of --jdk/--all-jdks. */
class BaselineTest {
    @TempDir
    Path dir;

    private static Report withE7(double k8) {
        Report base = ReportFilesTest.sample();
        List<Result> rs = List.of(VerdictsTest.r("loop 4 KiB", "copy", 100), VerdictsTest.r("loop 8 KiB", "copy", k8));
        return new Report(base.schemaVersion(), base.generated(), base.command(), base.estimate(), base.environment(),
                base.dataSources(), base.rule(), List.of(new ExperimentReport("E7", "t", "c", List.of(), List.of(), rs,
                        List.of())), List.of());
    }

    @Test
    void improvedRegressedAndNoChange() throws IOException {
        Path before = dir.resolve("before");
        Files.createDirectories(before);
        ReportFiles.writeJson(withE7(140), before.resolve("results.json"));
        Report now = Baseline.compare(withE7(200), Baseline.file(before));
        Result same = now.experiments().get(0).results().get(0);
        Result faster = now.experiments().get(0).results().get(1);
        assertEquals("no change", same.baseline().change(), same.baseline().toString());
        assertEquals(1.0, same.baseline().ratio(), 0.01);
        assertEquals("improved", faster.baseline().change());
        assertEquals(200 / 140.0, faster.baseline().ratio(), 0.03);
        assertTrue(faster.baseline().ci()[0] > 1);
        Report slower = Baseline.compare(withE7(100), Baseline.file(before.resolve("results.json")));
        assertEquals("regressed", slower.experiments().get(0).results().get(1).baseline().change());
        assertEquals(java.util.Set.of(), ReportFilesTest.validate(ReportFiles.mapper().valueToTree(slower)));
    }

    @Test
    void aReportReanalysedFromItsSamplesGivesTheSameVerdicts() throws IOException {
        Report before = ReportFilesTest.sample();
        Path json = dir.resolve("results.json");
        ReportFiles.writeJson(before, json);
        Report again = Baseline.reanalyse(json, "sluice report --reanalyse x");
        assertEquals(before.experiments().get(0).verdicts().get(0).outcome(),
                again.experiments().get(0).verdicts().get(0).outcome());
        assertEquals(before.experiments().get(0).verdicts().get(0).measured(),
                again.experiments().get(0).verdicts().get(0).measured());
        assertEquals(before.environment(), again.environment());
        assertTrue(again.dataSources().get(again.dataSources().size() - 1).startsWith("re-analysed from the samples"));
        assertEquals(java.util.Set.of(), ReportFilesTest.validate(ReportFiles.mapper().valueToTree(again)));
    }

    @Test
    void aMissingOrOldBaselineIsOneClearError() throws IOException {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> Baseline.file(dir));
        assertEquals("--baseline " + dir + ": no results.json there", none.getMessage());
        Path v1 = Files.writeString(dir.resolve("results.json"), "{\"schemaVersion\": 1}");
        IOException old = assertThrows(IOException.class, () -> Baseline.compare(withE7(1), v1));
        assertTrue(old.getMessage().contains("schema version 2"), old.getMessage());
    }

    @Test
    void jdksAreReadFromTheirReleaseFile() throws IOException {
        Path home = Files.createDirectories(dir.resolve("jdk/bin"));
        Files.writeString(dir.resolve("jdk/release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.3\"\n");
        assertEquals(25, Jdks.major(home.getParent()));
        assertEquals("Eclipse Adoptium 25.0.3", Jdks.label(home.getParent()));
        Files.writeString(dir.resolve("jdk/release"), "JAVA_VERSION=\"1.8.0_402\"\n");
        assertEquals(8, Jdks.major(home.getParent()));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> Jdks.home(dir));
        assertEquals("--jdk " + dir + ": no bin/java there (give a JDK's home directory)", bad.getMessage());
        Path running = Path.of(System.getProperty("java.home"));
        assertEquals(running.toAbsolutePath().normalize(), Jdks.home(running.resolve("bin/java")));
    }
}
