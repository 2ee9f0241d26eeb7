package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice report} and {@code sluice tune}: bad input, and one tiny end-to-end run. */
class ReportCommandTest {
    @TempDir
    Path dir;

    /** Bad input: exit 2 and exactly one line on stderr, naming the problem. */
    private static void assertOneLine(String expected, String... args) {
        String[] r = MainTest.run(args);
        assertEquals("2", r[0], String.join(" ", args) + " -> " + r[2]);
        assertEquals(expected, r[2].strip(), String.join(" ", args));
        assertEquals(1, r[2].strip().lines().count(), r[2]);
    }

    @Test
    void anUnknownExperimentIsOneLine() {
        assertOneLine("sluice: unknown experiment 'E9' in --only (known: E1, E2, E3, E4, E5, E6, E7)",
                "report", "--only", "E2,E9", "--out", dir.toString());
    }

    @Test
    void coldWithoutAReadExperimentIsOneLine() {
        assertOneLine("sluice: --cold applies to the read experiments E2, E3, E4, E5, E7; --only E1,E6 has none",
                "report", "--cold", "--only", "E1,E6", "--out", dir.toString());
    }

    @Test
    void aJdkWithoutJavaIsOneLine() {
        assertOneLine("sluice: --jdk " + dir + ": no bin/java there (give a JDK's home directory)", "report", "--jdk",
                dir.toString(), "--out", dir.resolve("out").toString());
    }

    @Test
    void aMissingDataDirectoryIsOneLine() {
        Path missing = dir.resolve("nope");
        assertOneLine("sluice: --data " + missing + ": No such directory", "report", "--data", missing.toString(),
                "--out", dir.resolve("out").toString());
    }

    @Test
    void aDataDirectoryWithoutFilesIsOneLine() throws IOException {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        assertOneLine("sluice: --data " + empty + ": no readable, non-empty files in it", "report", "--data",
                empty.toString(), "--out", dir.resolve("out").toString());
    }

    @Test
    void anUnwritableOutIsOneLine() throws IOException {
        // A regular file where a parent directory must be: unwritable even for root.
        Path file = Files.writeString(dir.resolve("file"), "x");
        Path out = file.resolve("report");
        String[] r = MainTest.run("report", "--out", out.toString(), "--tiny");
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].startsWith("sluice: --out " + out + ": cannot write there ("), r[2]);
        assertEquals(1, r[2].strip().lines().count(), r[2]);
    }

    @Test
    void tuneRejectsAMissingDirectory() {
        assertOneLine("sluice: --dir " + dir.resolve("nope") + ": No such directory", "tune", "--dir",
                dir.resolve("nope").toString(), "--size", "4m");
    }

    @Test
    void tuneMeasuresAndRecommendsAProperty() {
        String[] r = MainTest.run("tune", "--dir", dir.toString(), "--size", "8m", "--reps", "1");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("-Dsluice.io.bufferSize="), r[1]);
        assertTrue(r[1].contains("O_DIRECT"), "says whether reads were cold: " + r[1]);
        try (var s = Files.list(dir)) {
            assertEquals(0, s.count(), "the test file is deleted");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Every experiment at its smallest scale, end to end: every one of the 27 claims gets a verdict with its metric,
     * and no claim names a variant that did not run.
     */
    @Test
    void aTinyReportWritesValidResults() throws IOException {
        Path out = dir.resolve("report");
        Path userData = Files.createDirectories(dir.resolve("mine/sub"));
        Files.write(userData.resolve("a.bin"), new byte[70_000]);
        Files.writeString(dir.resolve("mine/b.txt"), "user data ".repeat(1000));
        // The runner's classes come from sluice-bench, a test-scoped dependency: the test's own class path.
        String[] r = MainTest.run("report", "--tiny", "--no-progress", "--out", out.toString(),
                "--data", dir.resolve("mine").toString(), "--bench-jar", System.getProperty("java.class.path"));
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("E3") && r[1].contains("E6") && r[1].contains("Recommendations ("), r[1]);
        JsonNode doc = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertEquals(Set.of(), dev.sluice.cli.report.ReportFilesTestAccess.validate(doc));
        assertEquals(7, doc.get("experiments").size());
        assertEquals("E3", doc.at("/experiments/2/id").asText());
        assertEquals("tiny", doc.at("/environment/scale").asText());
        // Every runner JVM keeps E3's sum out of line (the same commands as sluice-bench's Sink.DONT_INLINE).
        assertTrue(doc.at("/environment/jvm").asText().contains(String.join(" ",
                dev.sluice.cli.report.ReportFilesTestAccess.sinkOutOfLine())), doc.at("/environment/jvm").asText());
        assertTrue(doc.get("command").asText().startsWith("sluice report --tiny "), doc.get("command").asText());
        Set<String> ids = new java.util.TreeSet<>();
        Set<String> metrics = new java.util.TreeSet<>();
        for (JsonNode e : doc.get("experiments")) {
            for (JsonNode v : e.get("verdicts")) {
                assertTrue(ids.add(v.get("id").asText()), "one verdict per claim: " + v.get("id"));
                metrics.add(v.get("metric").asText());
                assertEquals(0, v.get("missing").size(), "a claim names a variant that did not run: " + v);
            }
        }
        assertEquals(27, ids.size(), ids.toString());
        assertEquals(Set.of("allocation", "cpu", "memory", "time"), metrics);
        assertTrue(doc.get("dataSources").toString().contains("the files under " + dir.resolve("mine")),
                doc.get("dataSources").toString());
        String html = Files.readString(out.resolve("index.html"), StandardCharsets.UTF_8);
        assertTrue(html.contains("<svg"), "charts inline");
        for (JsonNode e : doc.get("experiments")) {
            for (JsonNode res : e.get("results")) {
                assertEquals(3, res.get("forks").asInt(), "every result has samples from 3 forks: " + res);
            }
            for (JsonNode v : e.get("verdicts")) {
                String outcome = v.get("outcome").asText();
                assertTrue(outcome.equals("inconclusive") || outcome.equals("not judged here")
                        || v.get("ci").size() == 2, v.toString());
                // A page-cached run judges no claim about disks; every claim that did not hold says why, or that
                // the cause is unknown.
                assertEquals(Set.of("C04", "C24").contains(v.get("id").asText()), outcome.equals("not judged here"),
                        v.toString());
                assertEquals(outcome.equals("did not hold"), v.has("cause"), v.toString());
                assertEquals(outcome.equals("not judged here") ? 0 : 1, v.get("looks").asInt(), "no extra looks "
                        + "in a --tiny run: " + v);
            }
        }
        long rows = Files.readAllLines(out.resolve("results.csv")).size() - 1;
        long cases = 0;
        for (JsonNode e : doc.get("experiments")) {
            cases += e.get("results").size();
        }
        assertEquals(cases, rows);
        try (var s = Files.list(out)) {
            assertFalse(s.anyMatch(p -> p.getFileName().toString().startsWith(".sluice-data-")), "data deleted");
        }
    }
}
