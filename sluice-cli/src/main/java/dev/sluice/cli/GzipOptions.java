package dev.sluice.cli;

import dev.sluice.gzip.GzipEngines;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** {@code --stats}' help: the line {@code GzipStats.line()} prints, for gzip and gunzip alike. */
    static final String STATS_HELP = "After each input, print one line on standard error: sluice-stats: wall_s, cpu_s"
            + " (the process's CPU) and caller_cpu_s (the thread that reads or writes the data) from the first byte"
            + " read to the last written, threads, in_bytes and out_bytes.";

    @Parameters(paramLabel = "FILE", description = "Files to work on; none or '-' means standard input.")
    List<String> files = new ArrayList<>();

    /** The files, or {@code -} (standard input) when none were named. */
    List<String> filesOrStdin() {
        return files.isEmpty() ? List.of("-") : files;
    }

    /**
     * Chooses zlib for this run ({@value GzipEngines#PROPERTY}{@code =off}) when every input is a regular file and
     * all of them together are smaller than {@link SizePolicy#GZIP_ZLIB_BELOW} (where binding a native engine costs
     * more than it saves), unless the user chose the engine with that property. Standard input, of unknown length, keeps the native engines. Call before the first gzip stream and
     * hand the result to {@link #restoreEngines} when the run ends (tests run commands in one JVM).
     *
     * @return true when it set the property
     */
    boolean zlibForSmallInputs() {
        if (System.getProperty(GzipEngines.PROPERTY) != null) {
            return false;
        }
        long total = 0;
        for (String name : filesOrStdin()) {
            if (name.equals("-")) {
                return false;
            }
            try {
                Path p = Path.of(name);
                if (!Files.isRegularFile(p)) {
                    return false;
                }
                total += Files.size(p);
            } catch (IOException | RuntimeException unreadable) {
                return false; // the run reports it; the engine does not matter
            }
            if (total >= SizePolicy.GZIP_ZLIB_BELOW) {
                return false;
            }
        }
        System.setProperty(GzipEngines.PROPERTY, "off");
        return true;
    }

    /** Undoes {@link #zlibForSmallInputs} when it set the property. */
    static void restoreEngines(boolean set) {
        if (set) {
            System.clearProperty(GzipEngines.PROPERTY);
        }
    }

    /** A command with a plain form: what it accepts beyond {@code -c}, {@code -k}, {@code -f}, and its work. */
    interface PlainCommand extends PlainForm.Options, PlainForm.Body {
    }

    /**
     * Runs {@code sluice NAME [options] FILE...} through {@link PlainForm}: {@code -c}, {@code -k} and {@code -f}
     * here, the command's own options in {@code command}. Needs at least one argument after the name; with no FILE
     * among them the command reads standard input, as picocli's way does.
     *
     * @return the exit code, or null when picocli must handle these arguments
     */
    static Integer runPlainForm(String[] args, String name, PlainCommand command, GzipOptions options,
            PrintWriter err) {
        if (args.length < 2 || !args[0].equals(name)) {
            return null;
        }
        List<String> names = PlainForm.parse(args, options.new Shared(command));
        if (names == null) {
            return null;
        }
        options.files = names;
        return PlainForm.run(command, null, err, GzipFiles.ERROR);
    }

    /** The letters gzip and gunzip share, then the command's own. */
    private final class Shared implements PlainForm.Options {
        private final PlainForm.Options command;

        Shared(PlainForm.Options command) {
            this.command = command;
        }

        @Override
        public boolean letter(char ch) {
            switch (ch) {
                case 'c':
                    toStdout = true;
                    return true;
                case 'k':
                    keep = true;
                    return true;
                case 'f':
                    force = true;
                    return true;
                default:
                    return command.letter(ch);
            }
        }

        @Override
        public boolean longOption(String name) {
            return command.longOption(name);
        }

        @Override
        public boolean takesValue(char ch) {
            return command.takesValue(ch);
        }

        @Override
        public boolean value(char ch, String value) {
            return command.value(ch, value);
        }
    }
}
