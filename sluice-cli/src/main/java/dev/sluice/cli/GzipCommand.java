package dev.sluice.cli;

import dev.sluice.gzip.GzipHeader;
import dev.sluice.gzip.GzipOutputStream;
import dev.sluice.gzip.GzipStats;
import dev.sluice.gzip.ParallelGzipOutputStream;
import dev.sluice.gzip.ParallelGzipOutputStream.Format;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice gzip [-1..-9] [-p N] [--single-member | --bgzf] [-c] [-k] [-f] [FILE...]}: gzip's options, messages
 * and exit codes, compressing on {@code N} threads with {@link ParallelGzipOutputStream}. By default each 1 MiB block
 * is its own gzip member with Sluice's size subfield ({@link Format#INDEPENDENT_MEMBERS}: any gzip reader reads it,
 * Sluice's in parallel); {@code --single-member} writes one member as gzip does ({@link GzipOutputStream} on one
 * thread), {@code --bgzf} htslib's BGZF. The output stores the input's name and modification time as gzip does
 * (BGZF has no room for them).
 */
@Command(name = "gzip", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = GzipFiles.ERROR,
        description = {"Compress FILEs (or stdin to stdout) into gzip format, in parallel.",
            GzipFiles.FILES_AND_EXIT_STATUS})
final class GzipCommand implements Callable<Integer> {
    private int level = 6;

    @Option(names = {"-1", "--fast"}, description = "Compress faster.") void l1(boolean b) { level = 1; }
    @Option(names = "-2", hidden = true) void l2(boolean b) { level = 2; }
    @Option(names = "-3", hidden = true) void l3(boolean b) { level = 3; }
    @Option(names = "-4", hidden = true) void l4(boolean b) { level = 4; }
    @Option(names = "-5", hidden = true) void l5(boolean b) { level = 5; }
    @Option(names = "-6", description = "Default level (-2..-8 are also accepted).") void l6(boolean b) { level = 6; }
    @Option(names = "-7", hidden = true) void l7(boolean b) { level = 7; }
    @Option(names = "-8", hidden = true) void l8(boolean b) { level = 8; }
    @Option(names = {"-9", "--best"}, description = "Compress better.") void l9(boolean b) { level = 9; }

    @Option(names = {"-p", "--processes"}, paramLabel = "N",
            description = "Compress on N threads (default: available processors).")
    int threads = Runtime.getRuntime().availableProcessors();

    private Format format = Format.INDEPENDENT_MEMBERS;

    @Option(names = "--single-member", description = "Write one gzip member, as gzip and pigz do (decoded by one"
            + " thread).")
    void singleMember(boolean b) {
        format = Format.SINGLE_MEMBER;
    }

    @Option(names = "--bgzf", description = "Write BGZF (htslib's blocked gzip, as bgzip does).")
    void bgzf(boolean b) {
        format = Format.BGZF;
    }

    @Option(names = "--stats", description = GzipOptions.STATS_HELP)
    boolean stats;

    @CommandLine.Mixin
    GzipOptions options = new GzipOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    GzipFiles io;

    @Override
    public Integer call() {
        if (threads < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-p must be at least 1: " + threads);
        }
        // this.io is only set by tests, which never write to a terminal.
        boolean ownIo = this.io == null;
        return run(ownIo ? new GzipFiles(spec.commandLine().getErr()) : this.io, ownIo);
    }

    /**
     * The common forms, {@code sluice gzip [-1..-9] [-c] [-k] [-f] [-p N] FILE...}, without picocli (see
     * {@link GzipOptions#runPlainForm}); a {@code -p} value outside 1..256 goes to picocli, which reports it.
     *
     * @return the exit code, or null when picocli must handle these arguments
     */
    static Integer runPlainForm(String[] args, PrintWriter err) {
        GzipCommand c = new GzipCommand();
        return GzipOptions.runPlainForm(args, "gzip", c.new Plain(), c.options, err);
    }

    /** The plain form's view of this command. */
    private final class Plain implements GzipOptions.PlainCommand {
        @Override
        public boolean letter(char ch) {
            if (ch < '1' || ch > '9') {
                return false;
            }
            level = ch - '0';
            return true;
        }

        @Override
        public boolean longOption(String name) {
            switch (name) {
                case "single-member":
                    format = Format.SINGLE_MEMBER;
                    return true;
                case "bgzf":
                    format = Format.BGZF;
                    return true;
                case "stats":
                    stats = true;
                    return true;
                default:
                    return false;
            }
        }

        @Override
        public boolean takesValue(char ch) {
            return ch == 'p';
        }

        @Override
        public boolean value(char ch, String value) {
            int n = smallCount(value);
            if (n < 1 || n > 256) {
                return false;
            }
            threads = n;
            return true;
        }

        @Override
        public int run(PrintWriter unused, PrintWriter err) {
            return GzipCommand.this.run(new GzipFiles(err), true);
        }
    }

    /** The value of a short decimal string of at most 3 digits, or -1. */
    private static int smallCount(String s) {
        if (s.isEmpty() || s.length() > 3) {
            return -1;
        }
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            n = n * 10 + (ch - '0');
        }
        return n;
    }

    private int run(GzipFiles io, boolean mayBeTerminal) {
        boolean zlib = options.zlibForSmallInputs();
        try {
            return runFiles(io, mayBeTerminal);
        } finally {
            GzipOptions.restoreEngines(zlib);
        }
    }

    private int runFiles(GzipFiles io, boolean mayBeTerminal) {
        // As gzip: compressed bytes on a terminal help nobody.
        boolean refuseTerminal = !options.force && mayBeTerminal && GzipFiles.Terminals.interactive();
        for (String name : options.filesOrStdin()) {
            if ((name.equals("-") || options.toStdout) && refuseTerminal) {
                io.error("compressed data not written to a terminal. Use -f to force compression.");
                continue;
            }
            if (name.equals("-")) {
                io.standardStreams(new Compress(io, GzipHeader.minimal()));
                continue;
            }
            Path file = Path.of(name);
            if (!io.checkInput(file, options.force)) {
                continue;
            }
            if (name.endsWith(".gz") && !options.toStdout) {
                io.note(file + " already has .gz suffix -- unchanged");
                continue;
            }
            GzipHeader header;
            try {
                header = header(file);
            } catch (IOException e) {
                io.error(file + ": " + Main.describe(e));
                continue;
            }
            if (options.toStdout) {
                io.toStdout(file, new Compress(io, header));
            } else {
                io.toFile(file, Path.of(name + ".gz"), options.force, options.keep, new Compress(io, header));
            }
        }
        return io.exit();
    }

    private static GzipHeader header(Path file) throws IOException {
        long seconds = Files.getLastModifiedTime(file).toInstant().getEpochSecond();
        return GzipHeader.builder().name(GzipFiles.headerName(file))
                .modificationTime(seconds > 0 && seconds <= 0xffffffffL ? Instant.ofEpochSecond(seconds) : null)
                .build();
    }

    /**
     * Compresses one input with this command's level and threads. A class, not a lambda: linking the first lambda of
     * a run costs milliseconds of start-up, which `sluice gzip` of a small file notices.
     */
    private final class Compress implements GzipFiles.Transform {
        private final GzipFiles io;
        private final GzipHeader header;

        Compress(GzipFiles io, GzipHeader header) {
            this.io = io;
            this.header = header;
        }

        @Override
        public boolean apply(InputStream in, OutputStream sink) throws IOException {
            GzipStats.Meter meter = stats ? new GzipStats.Meter().start() : null;
            GzipFiles.CountingOutput counted = stats ? new GzipFiles.CountingOutput(sink) : null;
            OutputStream target = counted != null ? counted : sink;
            long read;
            boolean serial = threads == 1 && format == Format.SINGLE_MEMBER;
            if (serial) {
                try (OutputStream out = GzipOutputStream.builder().level(level).header(header).build(target)) {
                    read = in.transferTo(out);
                }
            } else {
                try (ParallelGzipOutputStream out = ParallelGzipOutputStream.builder().level(level).threads(threads)
                        .format(format).header(header).build(target)) {
                    read = out.transferFrom(in); // reads straight into its blocks: one copy less than transferTo
                }
            }
            if (meter != null) {
                sink.flush(); // the last byte written is in the span
                io.stats(meter.stop(serial ? 1 : threads, read, counted.count));
            }
            return false;
        }
    }
}
