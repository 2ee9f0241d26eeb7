package dev.sluice.cli;

import dev.sluice.file.FastFiles;
import dev.sluice.text.TextCounts;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice wc [-l] [-w] [-m] [-c] [-L] [FILE...]}: GNU wc's options and output for UTF-8 text; the counting is
 * {@link TextCounts}' (GNU coreutils 9.1 wc's rules in the C.UTF-8 locale, invalid bytes included), the column
 * layout is wc's: a width of 1 for a single count of a single input, else the digits of the summed sizes of the
 * regular files among the inputs, at least 7 when one is not a regular file (a pipe, a directory); a total line for
 * several inputs, whose -L is the widest of all.
 */
@Command(name = "wc", mixinStandardHelpOptions = true, sortOptions = false, exitCodeOnInvalidInput = 1,
        description = {"Print newline, word and byte counts (-m: chars, -L: the widest line) for each FILE, and a "
                + "total line if more than one FILE is given. Text is counted as UTF-8, as GNU wc counts it in the C.UTF-8 "
                + "locale. With no FILE, or when FILE is -, read standard input.",
            "Exit status: 0 if all files were read, 1 if some could not be or the command line is wrong."})
final class WcCommand implements Callable<Integer> {

    @Option(names = {"-l", "--lines"}, description = "print the newline counts")
    boolean lines;

    @Option(names = {"-w", "--words"}, description = "print the word counts")
    boolean words;

    @Option(names = {"-m", "--chars"},
            description = "print the character counts (chars that decode; an invalid byte is none)")
    boolean chars;

    @Option(names = {"-c", "--bytes"}, description = "print the byte counts")
    boolean bytes;

    @Option(names = {"-L", "--max-line-length"}, description = "print the widest line's display width")
    boolean maxLineLength;

    @Parameters(paramLabel = "FILE", description = "files to count (- for standard input)")
    List<String> files = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        return run(spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /**
     * The common form, {@code sluice wc [-lwmcL] FILE...}, without picocli (see {@link PlainForm}).
     *
     * @return the exit code, or null when picocli must handle these arguments
     */
    static Integer runPlainForm(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length < 2 || !args[0].equals("wc")) {
            return null;
        }
        WcCommand c = new WcCommand();
        Plain plain = c.new Plain();
        List<String> names = PlainForm.parse(args, plain);
        if (names == null) {
            return null;
        }
        c.files = names;
        return PlainForm.run(plain, out, err, 1);
    }

    /** The plain form's options (-l, -w, -m, -c, -L, grouped or not) and work. */
    private final class Plain implements PlainForm.Options, PlainForm.Body {
        @Override
        public int run(PrintWriter out, PrintWriter err) throws IOException {
            return WcCommand.this.run(out, err);
        }

        @Override
        public boolean letter(char ch) {
            switch (ch) {
                case 'l':
                    lines = true;
                    return true;
                case 'w':
                    words = true;
                    return true;
                case 'm':
                    chars = true;
                    return true;
                case 'c':
                    bytes = true;
                    return true;
                case 'L':
                    maxLineLength = true;
                    return true;
                default:
                    return false;
            }
        }
    }

    private int run(PrintWriter out, PrintWriter err) throws IOException {
        if (!lines && !words && !chars && !bytes && !maxLineLength) {
            lines = words = bytes = true;
        }
        List<String> names = files.isEmpty() ? List.of("-") : files;
        int width = width(names);
        TextCounts total = TextCounts.EMPTY;
        int status = 0;
        for (String name : names) {
            TextCounts c;
            if (!name.equals("-") && Files.isDirectory(Path.of(name))) {
                // As wc: an error, and a line of zeros for it.
                out.flush();
                err.println("sluice: wc: " + name + ": Is a directory");
                err.flush();
                status = 1;
                c = TextCounts.EMPTY;
            } else {
                try {
                    c = count(name);
                } catch (IOException e) {
                    out.flush();
                    err.println("sluice: wc: " + Main.describe(e));
                    err.flush();
                    status = 1;
                    continue;
                }
            }
            total = total.plus(c);
            out.println(format(c, width, files.isEmpty() ? null : name));
        }
        if (names.size() > 1) {
            out.println(format(total, width, "total"));
        }
        out.flush();
        return status;
    }

    /**
     * GNU wc's column width: 1 for a single count of a single input; else the digits of the summed sizes of the
     * regular files (standard input's too, when it is one), at least 7 when an input is something else.
     */
    private int width(List<String> names) {
        int asked = (lines ? 1 : 0) + (words ? 1 : 0) + (chars ? 1 : 0) + (bytes ? 1 : 0) + (maxLineLength ? 1 : 0);
        if (names.size() == 1 && asked == 1) {
            return 1;
        }
        long total = 0;
        int minimum = 1;
        for (String name : names) {
            long size = regularSize(name); // one that cannot be stat'ed (NO_STAT) does not count
            if (size == NOT_REGULAR) {
                minimum = 7;
            } else if (size >= 0) {
                total += size;
            }
        }
        return Math.max(minimum, Long.toString(total).length());
    }

    private static final long NO_STAT = -2;
    private static final long NOT_REGULAR = -1;

    /** The size of the input if wc's stat (fstat(0) for -) finds a regular file, else NOT_REGULAR or NO_STAT. */
    private static long regularSize(String name) {
        boolean stdin = name.equals("-");
        // Linux names standard input /dev/stdin (a link to what fd 0 is); where it has none, it counts as a pipe.
        try {
            Path p = Path.of(stdin ? "/dev/stdin" : name);
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return a.isRegularFile() ? a.size() : NOT_REGULAR;
        } catch (IOException | RuntimeException e) {
            return stdin ? NOT_REGULAR : NO_STAT;
        }
    }

    private String format(TextCounts c, int width, String name) {
        StringBuilder sb = new StringBuilder();
        appendCount(sb, lines, c.lines(), width);
        appendCount(sb, words, c.words(), width);
        appendCount(sb, chars, c.chars(), width);
        appendCount(sb, bytes, c.bytes(), width);
        appendCount(sb, maxLineLength, c.maxLineWidth(), width);
        if (name != null) {
            sb.append(' ').append(name);
        }
        return sb.toString();
    }

    private static void appendCount(StringBuilder sb, boolean wanted, long value, int width) {
        if (!wanted) {
            return;
        }
        if (sb.length() > 0) {
            sb.append(' ');
        }
        String s = Long.toString(value);
        for (int i = s.length(); i < width; i++) {
            sb.append(' ');
        }
        sb.append(s);
    }

    /**
     * Counts one input. -c alone on a named regular file is its size, as wc takes it from fstat; -l alone counts newline bytes. Standard input is
     * read to its end and left open.
     */
    private TextCounts count(String name) throws IOException {
        boolean linesOnly = lines && !words && !chars && !bytes && !maxLineLength;
        if (name.equals("-")) {
            FileChannel in = new FileInputStream(FileDescriptor.in).getChannel();
            return linesOnly ? TextCounts.of(TextCounts.countLines(in), 0, 0, 0, 0)
                    : TextCounts.count(in, StandardCharsets.UTF_8);
        }
        Path file = Path.of(name);
        if (bytes && !lines && !words && !chars && !maxLineLength && Files.isRegularFile(file)) {
            return TextCounts.of(0, 0, 0, Files.size(file), 0);
        }
        // -l alone: newline bytes, nothing decoded (wc's own fast path for -l does the same).
        return linesOnly ? TextCounts.of(FastFiles.countLines(file), 0, 0, 0, 0)
                : FastFiles.countText(file, StandardCharsets.UTF_8);
    }
}
