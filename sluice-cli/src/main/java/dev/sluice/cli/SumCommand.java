package dev.sluice.cli;

import dev.sluice.file.FastFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
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

    private Supplier<Checksum> kind() {
        if (algorithm.crc32) {
            return CRC32::new;
        }
        if (algorithm.adler32) {
            return Adler32::new;
        }
        return CRC32C::new;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Supplier<Checksum> kind = kind();
        int status = 0;
        for (String name : files) {
            try {
                long value = FastFiles.checksum(Path.of(name), kind.get());
                out.printf("%08x  %s%n", value, name);
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
