package dev.sluice.cli.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Result;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;

/** Writes results.json (with its schema beside it) and results.csv (one summary row per case; samples in the JSON). */
public final class ReportFiles {
    private ReportFiles() {}

    /** Classpath resource of the JSON Schema that results.json follows. */
    public static final String SCHEMA_RESOURCE = "/dev/sluice/cli/report/results.schema.json";

    static ObjectMapper mapper() {
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    }

    static void writeJson(Report report, Path file) throws IOException {
        mapper().writeValue(file.toFile(), report);
        try (InputStream schema = ReportFiles.class.getResourceAsStream(SCHEMA_RESOURCE)) {
            if (schema == null) {
                throw new IOException("results.schema.json missing from the CLI jar");
            }
            Files.copy(schema, file.resolveSibling("results.schema.json"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static final List<String> CSV_HEADER = List.of("experiment", "variant", "param", "bytes_per_op", "forks", "samples",
            "min_mb_s", "median_mb_s", "max_mb_s", "median_mb_s_ci_lo", "median_mb_s_ci_hi", "min_ns_per_op", "median_ns_per_op", "max_ns_per_op", "error",
            "jdk", "os", "cpu", "file_system", "reads", "harness");

    /** One row per case; every row repeats the environment so a row stands alone when pasted elsewhere. */
    static void writeCsv(Report report, Path file) throws IOException {
        Report.Environment env = report.environment();
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(String.join(",", CSV_HEADER));
            w.write("\r\n");
            for (ExperimentReport e : report.experiments()) {
                for (Result r : e.results()) {
                    boolean m = r.measured();
                    List<String> row = List.of(e.id(), r.variant(), r.param(), Long.toString(r.bytesPerOp()),
                            Integer.toString(r.forks()), Integer.toString(r.samples().size()),
                            m ? num(r.mbPerSec().min()) : "", m ? num(r.mbPerSec().median()) : "",
                            m ? num(r.mbPerSec().max()) : "", m ? num(r.mbPerSecCi()[0]) : "",
                            m ? num(r.mbPerSecCi()[1]) : "",
                            m ? num(r.nanosPerOp().min()) : "", m ? num(r.nanosPerOp().median()) : "",
                            m ? num(r.nanosPerOp().max()) : "", r.error() == null ? "" : r.error(),
                            env.jdk(), env.os(), env.cpu(), env.fileSystem(), env.reads(), env.harness());
                    StringBuilder line = new StringBuilder();
                    for (String cell : row) {
                        line.append(line.length() == 0 ? "" : ",").append(csv(cell));
                    }
                    w.write(line.append("\r\n").toString());
                }
            }
        }
    }

    /** RFC 4180 quoting: cells with a comma, quote or line break are quoted, quotes doubled. */
    static String csv(String cell) {
        if (cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) {
            return cell;
        }
        return '"' + cell.replace("\"", "\"\"") + '"';
    }

    static String num(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return String.format(Locale.ROOT, "%s", d);
    }
}
