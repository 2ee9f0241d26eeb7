package dev.sluice.cli;

import java.io.PrintWriter;
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

    /** A command with a plain form: what it accepts beyond {@code -c}, {@code -k}, {@code -f}, and how it runs. */
    interface PlainCommand {
        /** Takes the one-letter option {@code ch} (no value); false if the command has no such option. */
        boolean letter(char ch);

        /** Takes option {@code -ch} with its value; false if there is no such option or the value is not plain. */
        boolean value(char ch, String value);

        /** True if {@code -ch} is an option that takes a value (the next argument). */
        boolean takesValue(char ch);

        /** Runs on {@code io} once the options are set. */
        int run(GzipFiles io);
    }

    /**
     * Runs {@code sluice NAME [-letters] [-X VALUE] FILE...} without picocli: building picocli's model of every
     * subcommand costs about 90 ms of start-up (150 ms for a tiny `sluice gunzip`). Letters may be grouped
     * ({@code -9kf}); {@code -} is standard input, {@code --} ends the options. Anything else (long options,
     * {@code -h}, an unknown letter, a value the command refuses, no FILE at all) returns null for picocli, which
     * also owns the usage errors.
     *
     * @return the exit code, or null when picocli must handle these arguments
     */
    static Integer runPlainForm(String[] args, String name, PlainCommand command, GzipOptions options,
            PrintWriter err) {
        if (args.length < 2 || !args[0].equals(name)) {
            return null;
        }
        List<String> names = new ArrayList<>();
        boolean operandsOnly = false;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (operandsOnly || a.equals("-") || !a.startsWith("-")) {
                names.add(a);
            } else if (a.equals("--")) {
                operandsOnly = true;
            } else if (a.length() == 2 && command.takesValue(a.charAt(1))) {
                if (i + 1 >= args.length || !command.value(a.charAt(1), args[++i])) {
                    return null;
                }
            } else {
                for (int k = 1; k < a.length(); k++) {
                    char ch = a.charAt(k);
                    if (ch == 'c') {
                        options.toStdout = true;
                    } else if (ch == 'k') {
                        options.keep = true;
                    } else if (ch == 'f') {
                        options.force = true;
                    } else if (!command.letter(ch)) {
                        return null;
                    }
                }
            }
        }
        options.files = names;
        try {
            return command.run(new GzipFiles(err));
        } catch (RuntimeException e) {
            err.println("sluice: " + Main.describe(e)); // as Main's handler does for picocli's commands
            return Main.EXIT_TROUBLE;
        } finally {
            err.flush();
        }
    }
}
