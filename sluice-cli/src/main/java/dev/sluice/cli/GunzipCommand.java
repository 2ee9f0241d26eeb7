package dev.sluice.cli;

import dev.sluice.gzip.GzipInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice gunzip [-c] [-k] [-f] [-t] [FILE...]}: gzip -d's options, messages and exit codes on
 * {@link GzipInputStream}. Every member's CRC and length are checked; trailing garbage is a warning (exit 2) with
 * the data kept, as gzip does; trailing zeros pass silently.
 */
@Command(name = "gunzip", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = GzipFiles.ERROR,
        description = {"Decompress gzip FILEs (or stdin to stdout), checking every member.",
            GzipFiles.FILES_AND_EXIT_STATUS,
            "On Java 22+ with ISA-L, a deflate block whose Huffman code is incomplete (which encoders do not write) is"
                + " decoded when its data is intact; gzip and zlib refuse it, and so does"
                + " SLUICE_JAVA_OPTS=-Dsluice.gzip.native=off."})
final class GunzipCommand implements Callable<Integer> {

    @CommandLine.Mixin
    GzipOptions options = new GzipOptions();

    @Option(names = {"-t", "--test"}, description = "Test the files' integrity; write nothing.")
    boolean test;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    GzipFiles io;

    @Override
    public Integer call() {
        return run(io != null ? io : new GzipFiles(spec.commandLine().getErr()));
    }

    /**
     * The common forms, {@code sluice gunzip [-c] [-k] [-f] [-t] FILE...}, without picocli (see
     * {@link GzipOptions#runPlainForm}).
     *
     * @return the exit code, or null when picocli must handle these arguments
     */
    static Integer runPlainForm(String[] args, PrintWriter err) {
        GunzipCommand c = new GunzipCommand();
        return GzipOptions.runPlainForm(args, "gunzip", c.new Plain(), c.options, err);
    }

    /** The plain form's view of this command. */
    private final class Plain implements GzipOptions.PlainCommand {
        @Override
        public boolean letter(char ch) {
            if (ch != 't') {
                return false;
            }
            test = true;
            return true;
        }

        @Override
        public int run(PrintWriter unused, PrintWriter err) {
            return GunzipCommand.this.run(new GzipFiles(err));
        }
    }

    private int run(GzipFiles io) {
        boolean zlib = options.zlibForSmallInputs();
        try {
            return runFiles(io);
        } finally {
            GzipOptions.restoreEngines(zlib);
        }
    }

    private int runFiles(GzipFiles io) {
        // Classes, not method references: linking the first lambda of a run costs milliseconds of start-up.
        GzipFiles.Transform decompress = test ? new Check() : new Decompress();
        for (String name : options.filesOrStdin()) {
            if (name.equals("-")) {
                io.standardStreams(decompress);
                continue;
            }
            Path file = Path.of(name);
            if (!io.checkInput(file, options.force)) {
                continue;
            }
            if (test || options.toStdout) {
                io.toStdout(file, decompress);
                continue;
            }
            String target = name.endsWith(".gz") && name.length() > 3 ? name.substring(0, name.length() - 3)
                    : name.endsWith(".tgz") && name.length() > 4 ? name.substring(0, name.length() - 4) + ".tar"
                    : null;
            if (target == null) {
                io.warning(file + ": unknown suffix -- ignored");
                continue;
            }
            io.toFile(file, Path.of(target), options.force, options.keep, decompress);
        }
        return io.exit();
    }

    private static final class Decompress implements GzipFiles.Transform {
        @Override
        public boolean apply(InputStream in, OutputStream out) throws IOException {
            return decompress(in, out);
        }
    }

    private static final class Check implements GzipFiles.Transform {
        @Override
        public boolean apply(InputStream in, OutputStream unused) throws IOException {
            return decompress(in, OutputStream.nullOutputStream());
        }
    }

    private static boolean decompress(InputStream source, OutputStream out) throws IOException {
        // Closing it frees the inflater at once; the caller's source (stdin) must survive, hence the wrapper.
        try (GzipInputStream in = GzipInputStream.builder().ignoreTrailingGarbage(true)
                .build(GzipFiles.uncloseable(source))) {
            in.transferTo(out); // large slices, and independent members written from the workers' arrays
            return in.trailingGarbageIgnored();
        }
    }
}
