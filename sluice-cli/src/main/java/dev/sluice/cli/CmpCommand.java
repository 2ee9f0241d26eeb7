package dev.sluice.cli;

import dev.sluice.file.FastFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice cmp [-s] A B}: GNU {@code cmp}'s answers and exit codes, from {@link FastFiles#mismatch}. Output
 * matches GNU diffutils 3.8 word for word ({@code A B differ: byte N, line M} on stdout; {@code EOF on A after byte
 * N, line M} on stderr), with {@code sluice:} in place of {@code cmp:}.
 */
@Command(name = "cmp", mixinStandardHelpOptions = true,
        description = {"Compare two files byte by byte, as cmp does, reading both through large direct buffers.",
            "Exit status: 0 if the files are the same, 1 if they differ, 2 on trouble."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:the files are the same", "1:the files differ", "2:trouble (missing file, I/O error)"})
final class CmpCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "A")
    String first;

    @Parameters(index = "1", paramLabel = "B")
    String second;

    @Option(names = {"-s", "--quiet", "--silent"},
            description = "Print nothing, not even that a file cannot be opened (as GNU cmp); only the exit "
                    + "status tells.")
    boolean silent;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        return compare(first, second, silent, spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /**
     * Runs {@code sluice cmp} without building picocli's command model, when {@code args} are the plain form
     * {@code cmp [-s] A B} (no other option, no name that starts with {@code -}); returns null for anything else,
     * which then goes through picocli as usual. Why: on a page-cached 1 GiB pair the compare takes about 0.2 s, and
     * picocli's start-up (its Java 5 class files cannot be archived by CDS and go through the old verifier) would
     * add most of that again (docs/benchmarks/copy.md). Output, errors and exit codes are the same either way.
     */
    static Integer runPlainForm(String[] args, PrintWriter out, PrintWriter err) {
        boolean s = args.length == 4 && args[1].equals("-s");
        if (!(args.length == 3 || s) || !args[0].equals("cmp")) {
            return null;
        }
        String a = args[args.length - 2];
        String b = args[args.length - 1];
        if (a.startsWith("-") || b.startsWith("-")) {
            return null;
        }
        try {
            return compare(a, b, s, out, err);
        } catch (IOException | RuntimeException e) {
            err.println("sluice: " + Main.describe(e));
            err.flush();
            return Main.EXIT_TROUBLE;
        }
    }

    static int compare(String first, String second, boolean silent, PrintWriter out, PrintWriter err)
            throws IOException {
        Path a = Path.of(first);
        Path b = Path.of(second);
        if (silent) {
            try {
                return FastFiles.contentEquals(a, b) ? 0 : 1; // sizes first: files of different sizes are not read
            } catch (NoSuchFileException | AccessDeniedException e) {
                return Main.EXIT_TROUBLE; // GNU cmp -s is silent when a file cannot be opened, loud when read fails
            }
        }
        long m = FastFiles.mismatch(a, b);
        if (m < 0) {
            return 0;
        }
        long sizeA = Files.size(a);
        long sizeB = Files.size(b);
        if (sizeA != sizeB && m == Math.min(sizeA, sizeB)) {
            boolean aIsShorter = sizeA < sizeB;
            String name = aIsShorter ? first : second;
            err.println("sluice: " + eofMessage(name, aIsShorter ? a : b, m));
            err.flush();
            return 1;
        }
        long[] lines = newlines(a, m);
        out.println(first + " " + second + " differ: byte " + (m + 1) + ", line " + (lines[0] + 1));
        out.flush();
        return 1;
    }

    /** GNU cmp's words for "the shorter file {@code name} ended after {@code size} bytes, all equal". */
    static String eofMessage(String name, Path file, long size) throws IOException {
        if (size == 0) {
            return "EOF on " + name + " which is empty";
        }
        long[] lines = newlines(file, size);
        // GNU cmp says "line N" when the file ends with a newline (N complete lines), else "in line N".
        return lines[1] == '\n'
                ? "EOF on " + name + " after byte " + size + ", line " + lines[0]
                : "EOF on " + name + " after byte " + size + ", in line " + (lines[0] + 1);
    }

    /** The number of newlines in the first {@code limit} bytes of {@code file}, and the last of those bytes. */
    static long[] newlines(Path file, long limit) throws IOException {
        long count = 0;
        int last = -1;
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = FastFiles.newUnbufferedInputStream(file)) {
            long left = limit;
            while (left > 0) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        count++;
                    }
                }
                last = buf[n - 1];
                left -= n;
            }
        }
        return new long[] {count, last};
    }
}
