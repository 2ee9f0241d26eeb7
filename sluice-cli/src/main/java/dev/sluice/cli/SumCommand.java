package dev.sluice.cli;

import dev.sluice.file.FastFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice sum [--crc32c|--crc32|--adler32] FILE...}: one {@code hex  name} line per file, in the layout of
 * {@code sha256sum}. A file that cannot be read gets one line on stderr; the others are still summed, and the exit
 * status is then 2.
 */
@Command(name = "sum", mixinStandardHelpOptions = true,
        description = "Print the CRC32C (default), CRC32 or Adler-32 checksum of each FILE as 8 hex digits, "
                + "reading 256 KiB at a time into direct memory for the JDK's vectorized checksums.")
final class SumCommand implements Callable<Integer> {

    /** The algorithm; at most one flag. */
    static final class Algorithm {
        @Option(names = "--crc32c", description = "CRC-32C (Castagnoli), as in iSCSI, ext4 and Kafka (default).")
        boolean crc32c;

        @Option(names = "--crc32", description = "CRC-32, as in gzip and zip.")
        boolean crc32;

        @Option(names = "--adler32", description = "Adler-32, as in zlib.")
        boolean adler32;
    }

    @ArgGroup(exclusive = true)
    Algorithm algorithm = new Algorithm();

    @Parameters(arity = "1..*", paramLabel = "FILE")
    List<String> files;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The checksum asked for; not a Supplier of constructor references, whose linking costs start-up. */
    private Checksum newChecksum() {
        if (algorithm.crc32) {
            return new CRC32();
        }
        if (algorithm.adler32) {
            return new Adler32();
        }
        return new CRC32C();
    }

    /**
     * The common forms, {@code sluice sum [--crc32c|--crc32|--adler32] FILE...}, without picocli (see
     * {@link PlainForm}); two algorithms at once go to picocli, which reports them.
     *
     * @return the exit code, or null when picocli must handle these arguments
     */
    static Integer runPlainForm(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length < 2 || !args[0].equals("sum")) {
            return null;
        }
        SumCommand c = new SumCommand();
        Plain plain = c.new Plain();
        List<String> names = PlainForm.parse(args, plain);
        if (names == null || names.isEmpty()) {
            return null;
        }
        c.files = names;
        return PlainForm.run(plain, out, err, Main.EXIT_TROUBLE);
    }

    /** The plain form's options (at most one algorithm) and work. */
    private final class Plain implements PlainForm.Options, PlainForm.Body {
        private int chosen;

        @Override
        public int run(PrintWriter out, PrintWriter err) {
            return SumCommand.this.run(out, err);
        }

        @Override
        public boolean letter(char ch) {
            return false;
        }

        @Override
        public boolean longOption(String name) {
            switch (name) {
                case "crc32c":
                    algorithm.crc32c = true;
                    break;
                case "crc32":
                    algorithm.crc32 = true;
                    break;
                case "adler32":
                    algorithm.adler32 = true;
                    break;
                default:
                    return false;
            }
            return ++chosen == 1;
        }
    }

    @Override
    public Integer call() {
        return run(spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    private int run(PrintWriter out, PrintWriter err) {
        int status = 0;
        for (String name : files) {
            try {
                long value = FastFiles.checksum(Path.of(name), newChecksum());
                // "%08x  %s%n" by hand: java.util.Formatter costs milliseconds of start-up.
                String hex = Long.toHexString(value);
                out.print("00000000".substring(hex.length()) + hex + "  " + name);
                out.println();
            } catch (IOException e) {
                out.flush();
                err.println("sluice: " + Main.describe(e));
                err.flush();
                status = Main.EXIT_TROUBLE;
            }
        }
        out.flush();
        return status;
    }
}
