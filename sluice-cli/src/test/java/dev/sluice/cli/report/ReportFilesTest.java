package dev.sluice.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.sluice.cli.report.Report.Environment;
import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Result;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportFilesTest {
    @TempDir
    Path dir;

    /** Validation errors of a results.json document against the shipped schema. */
    static Set<ValidationMessage> validate(JsonNode doc) throws IOException {
        try (InputStream in = ReportFiles.class.getResourceAsStream(ReportFiles.SCHEMA_RESOURCE)) {
            JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
            return schema.validate(doc);
        }
    }

    static Report sample() {
        List<Result> results = List.of(
                VerdictsTest.r("loop 4 KiB", "copy", 100), VerdictsTest.r("loop 8 KiB", "copy", 140),
                Result.of("Files.copy", "copy", 1_000_000, List.of(), "IOException: disk full, \"really\""));
        Report.ClaimSpec c25 = new Report.ClaimSpec("C25", "E", "IO-650 (2020)", "2020", "8 KiB beats 4 KiB",
                "1.31x", "BETTER", 1.31, 1.155, null, "time", "set-up", false,
                List.of(new Report.Pair(List.of(new Report.Cell("loop 8 KiB", "copy")),
                        List.of(new Report.Cell("loop 4 KiB", "copy")), null)), null, null);
        // One claim that did not hold, with a documented cause, and one about disks, not judged in a page-cached run.
        Report.Cause cause = new Report.Cause("A documented JDK change.", List.of("https://bugs.openjdk.org/browse/JDK-1"));
        Report.ClaimSpec c13 = new Report.ClaimSpec("C13", "C", "finalizers", "2017", "4 KiB beats 8 KiB",
                "faster", "BETTER", 1.1, 1.05, null, "time", "set-up", false,
                List.of(new Report.Pair(List.of(new Report.Cell("loop 4 KiB", "copy")),
                        List.of(new Report.Cell("loop 8 KiB", "copy")), null)), null, cause);
        Report.ClaimSpec c24 = new Report.ClaimSpec("C24", "D", "disks", "2009", "on a disk, 4 KiB as fast",
                "as fast", "NOT_WORSE", 1, 1 / 1.1, null, "time", "set-up", true, c13.pairs(), null, null);
        Report.AdviceSpec copy = new Report.AdviceSpec("E7: copies", "To copy use %s", List.of("copy"), List.of(),
                "Files.copy", null, List.of());
        ExperimentReport e7 = new ExperimentReport("E7", "Copy and compare", "8 KiB beats 4 KiB", List.of(c25, c13, c24),
                List.of(copy), results, List.of());
        e7 = e7.withVerdicts(Verdicts.judge(e7, "page-cached"));
        Environment env = new Environment("Debian 17.0.15", "Linux 6.1 amd64", "Xeon, 2.2 GHz", 2, "ext4 (/dev/vda)",
                "page-cached", "quick in-process estimate", "tiny", 6, 3, "OpenJDK 17; flags: -Xmx1g; GC: G1",
                new Report.Rounds(300, 231.5, 1, AdaptiveRounds.rule(300)));
        return new Report(Report.SCHEMA_VERSION, "2026-11-22T05:00:00Z", "sluice report --tiny", true, env,
                List.of("bytes: random"), "the rule", List.of(e7), Recommendations.from(List.of(e7)));
    }

    @Test
    void jsonFollowsTheSchemaAndTheSchemaIsWrittenBesideIt() throws IOException {
        Path json = dir.resolve("results.json");
        ReportFiles.writeJson(sample(), json);
        JsonNode doc = new ObjectMapper().readTree(json.toFile());
        assertEquals(Set.of(), validate(doc));
        assertTrue(Files.exists(dir.resolve("results.schema.json")));
        assertEquals("held", doc.at("/experiments/0/verdicts/0/outcome").asText());
        assertEquals(2, doc.at("/experiments/0/verdicts/0/ci").size());
        assertEquals(140.0, doc.at("/experiments/0/results/1/mbPerSec/median").asDouble(), 3);
        assertEquals(18, doc.at("/experiments/0/results/1/samples").size());
        assertEquals(2, doc.at("/experiments/0/results/1/samples/17/fork").asInt());
        assertTrue(doc.at("/experiments/0/results/2/mbPerSec").isMissingNode(), "a failed case has no numbers");
        assertEquals(1, doc.at("/experiments/0/verdicts/0/looks").asInt());
        assertEquals(1 - AdaptiveRounds.LOOK_ALPHA, doc.at("/experiments/0/verdicts/0/level").asDouble(), 1e-9);
        assertTrue(doc.at("/experiments/0/verdicts/0/cause").isMissingNode(), "only a claim that did not hold has one");
        assertEquals("did not hold", doc.at("/experiments/0/verdicts/1/outcome").asText());
        assertEquals("A documented JDK change.", doc.at("/experiments/0/verdicts/1/cause/text").asText());
        assertEquals("https://bugs.openjdk.org/browse/JDK-1", doc.at("/experiments/0/verdicts/1/cause/sources/0").asText());
        assertEquals("not judged here", doc.at("/experiments/0/verdicts/2/outcome").asText());
        assertTrue(doc.at("/experiments/0/verdicts/2/measured").isMissingNode(), "nothing measured for it");
        assertEquals(300, doc.at("/environment/rounds/budgetSeconds").asInt());
    }

    /** The schema holds a cause to the verdicts that did not hold, and knows the fourth outcome. */
    @Test
    void theSchemaTiesTheCauseToDidNotHold() throws IOException {
        ObjectMapper m = new ObjectMapper();
        JsonNode good = m.valueToTree(sample());
        ObjectNode noCause = good.deepCopy();
        ((ObjectNode) noCause.at("/experiments/0/verdicts/1")).remove("cause");
        assertFalse(validate(noCause).isEmpty(), "did not hold without a cause");
        ObjectNode heldWithCause = good.deepCopy();
        ((ObjectNode) heldWithCause.at("/experiments/0/verdicts/0")).set("cause",
                good.at("/experiments/0/verdicts/1/cause"));
        assertFalse(validate(heldWithCause).isEmpty(), "a cause on a claim that held");
        ObjectNode oldReads = good.deepCopy();
        ((ObjectNode) oldReads.at("/experiments/0/verdicts/2")).put("reads", "page-cached only");
        assertFalse(validate(oldReads).isEmpty());
    }

    @Test
    void theSchemaRejectsWhatTheReportMustNotContain() throws IOException {
        ObjectMapper m = new ObjectMapper();
        JsonNode good = m.valueToTree(sample());
        ObjectNode badOutcome = good.deepCopy();
        ((ObjectNode) badOutcome.at("/experiments/0/verdicts/0")).put("outcome", "probably");
        assertFalse(validate(badOutcome).isEmpty());
        ObjectNode noEnv = good.deepCopy();
        ((ObjectNode) noEnv.get("environment")).remove("fileSystem");
        assertFalse(validate(noEnv).isEmpty());
        ObjectNode badFlag = good.deepCopy();
        ((ObjectNode) badFlag.withArray("recommendations").addObject()).put("property", "io.bufferSize")
                .put("advice", "x").put("basis", "y");
        assertFalse(validate(badFlag).isEmpty());
        ObjectNode errorAndNumbers = good.deepCopy();
        ((ObjectNode) errorAndNumbers.at("/experiments/0/results/0")).put("error", "both");
        assertFalse(validate(errorAndNumbers).isEmpty());
    }

    @Test
    void csvHasOneQuotedRowPerCaseWithTheEnvironment() throws IOException {
        Path csv = dir.resolve("results.csv");
        ReportFiles.writeCsv(sample(), csv);
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        assertEquals(4, lines.size());
        assertEquals(String.join(",", ReportFiles.CSV_HEADER), lines.get(0));
        assertTrue(lines.get(2).startsWith("E7,loop 8 KiB,copy,1000000,3,18,"), lines.get(2));
        assertTrue(lines.get(3).contains(",\"IOException: disk full, \"\"really\"\"\","), lines.get(3));
        assertTrue(lines.get(1).contains("\"Xeon, 2.2 GHz\""), lines.get(1));
        assertTrue(lines.get(1).endsWith(",page-cached,quick in-process estimate"), lines.get(1));
    }

    @Test
    void csvQuotingFollowsRfc4180() {
        assertEquals("plain", ReportFiles.csv("plain"));
        assertEquals("\"a,b\"", ReportFiles.csv("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", ReportFiles.csv("say \"hi\""));
        assertEquals("\"two\nlines\"", ReportFiles.csv("two\nlines"));
    }

    @Test
    void htmlIsSelfContainedAndStatesTheMachine() throws IOException {
        String html = HtmlPage.render(sample());
        assertTrue(html.contains("<svg") && html.contains("class=\"dot\""), "charts inline");
        assertFalse(html.contains("<script"), "no scripts");
        assertFalse(html.contains("src=\"http"), "nothing fetched");
        assertTrue(html.contains("Xeon, 2.2 GHz") && html.contains("ext4 (/dev/vda)") && html.contains("page-cached"));
        assertTrue(html.contains("disk full, &quot;really&quot;"), "escaped");
        assertTrue(html.contains("<tr class=\"greyed\">") && html.contains("not judged here<br>rerun with --cold"), html);
        assertTrue(html.contains("Why it did not hold:</b> A documented JDK change. <a href=\"https://bugs.openjdk.org/"
                + "browse/JDK-1\">"), "the cause under the claim, with its source");
        assertTrue(html.contains("whole run within 300 s"), "the budget is stated");
    }

    @Test
    void aRunWhereNothingWasMeasuredIsAnErrorNamingTheCause() throws IOException {
        Path raw = dir.resolve("raw.json");
        Files.writeString(raw, "{\"format\":\"sluice-raw-results/3\",\"scale\":\"tiny\",\"harness\":\"JMH 1.37\","
                + "\"reps\":5,\"sources\":[],\"experiments\":[{\"id\":\"E7\",\"title\":\"t\",\"claim\":\"c\","
                + "\"cases\":[{\"variant\":\"v\",\"param\":\"p\",\"bytesPerOp\":1,\"error\":\"IOException: lock\"}]}]}");
        IOException ex = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> Reports.assemble(List.of(raw), "jdk", "os", "cpu", 2, "ext4", "sluice report"));
        assertEquals("no case could be measured: IOException: lock", ex.getMessage());
        Files.writeString(raw, "{\"format\":\"other\"}");
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> Reports.assemble(List.of(raw), "jdk", "os", "cpu", 2, "ext4", "x")).getMessage().contains("not raw results"));
    }
}
