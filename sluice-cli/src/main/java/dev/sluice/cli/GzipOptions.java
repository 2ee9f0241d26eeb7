package dev.sluice.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The options {@code sluice gzip} and {@code sluice gunzip} share, with gzip's letters and meanings. */
final class GzipOptions {
    @Option(names = {"-c", "--stdout"}, description = "Write to standard output; keep the input files.")
    boolean toStdout;

    @Option(names = {"-k", "--keep"}, description = "Keep (do not delete) input files.")
    boolean keep;

    @Option(names = {"-f", "--force"}, description = "Overwrite existing output files (gzip: also write to a terminal).")
    boolean force;

    @Parameters(paramLabel = "FILE", description = "Files to work on; none or '-' means standard input.")
    List<String> files = new ArrayList<>();

    /** The files, or {@code -} (standard input) when none were named. */
    List<String> filesOrStdin() {
        return files.isEmpty() ? List.of("-") : files;
    }
}
