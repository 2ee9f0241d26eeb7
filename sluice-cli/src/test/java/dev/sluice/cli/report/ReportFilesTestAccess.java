package dev.sluice.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.util.Set;

/** Lets tests in other packages validate against the shipped schema and see the runner's JVM options. */
public final class ReportFilesTestAccess {
    private ReportFilesTestAccess() {}

    public static Set<ValidationMessage> validate(JsonNode doc) throws IOException {
        return ReportFilesTest.validate(doc);
    }

    public static java.util.List<String> sinkOutOfLine() {
        return Reports.SINK_OUT_OF_LINE;
    }
}
