package dev.sluice.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The hand parser behind the everyday commands' common forms ({@code sluice gzip -9k FILE}, {@code sluice wc -l
 * FILE}): building picocli's model of every subcommand costs about 90–150 ms of start-up, more than the work on a
 * small file. It takes short options, grouped or not, one-letter options with a value in the next argument, the long
 * options a command lists, {@code -} (standard input) and {@code --}; anything else, including {@code -h} and
 * {@code --help}, is left to picocli, which also owns the usage errors. Tests check that both ways give the same
 * exit codes, messages and files.
 */
final class PlainForm {
    private PlainForm() {}

    /** What a command accepts; a class per command, not a lambda (linking the first lambda costs start-up). */
    interface Options {
        /** Takes the one-letter option {@code ch} (no value); false if the command has no such option. */
        boolean letter(char ch);

        /** Takes the long option {@code --name} (no value); none by default. */
        default boolean longOption(String name) {
            return false;
        }

        /** True if {@code -ch} is an option that takes a value (the next argument); none by default. */
        default boolean takesValue(char ch) {
            return false;
        }

        /** Takes option {@code -ch} with its value; false if there is no such option or the value is not plain. */
        default boolean value(char ch, String value) {
            return false;
        }
    }

    /** A command's work once its plain form is parsed, printing on {@code out} (null if unused) and {@code err}. */
    interface Body {
        int run(PrintWriter out, PrintWriter err) throws IOException;
    }

    /**
     * Runs {@code body} as Main's handler runs picocli's commands: an exception is one line on stderr ("sluice: "
     * and its description) and exit code {@code trouble}, the command's (its {@code exitCodeOnInvalidInput}).
     * Flushes both writers ({@code out} may be null).
     */
    static int run(Body body, PrintWriter out, PrintWriter err, int trouble) {
        try {
            return body.run(out, err);
        } catch (IOException | RuntimeException e) {
            if (out != null) {
                out.flush();
            }
            err.println("sluice: " + Main.describe(e));
            return trouble;
        } finally {
            if (out != null) {
                out.flush();
            }
            err.flush();
        }
    }

    /**
     * Parses {@code args[1..]} (args[0] is the command's name), handing options to {@code options}.
     *
     * @return the operands, or null when an argument is not of the plain form and picocli must parse them all
     */
    static List<String> parse(String[] args, Options options) {
        List<String> operands = new ArrayList<>();
        boolean operandsOnly = false;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (operandsOnly || a.equals("-") || !a.startsWith("-")) {
                operands.add(a);
            } else if (a.equals("--")) {
                operandsOnly = true;
            } else if (a.startsWith("--")) {
                if (!options.longOption(a.substring(2))) {
                    return null;
                }
            } else if (a.length() == 2 && options.takesValue(a.charAt(1))) {
                if (i + 1 >= args.length || !options.value(a.charAt(1), args[++i])) {
                    return null;
                }
            } else {
                for (int k = 1; k < a.length(); k++) {
                    if (!options.letter(a.charAt(k))) {
                        return null;
                    }
                }
            }
        }
        return operands;
    }
}
