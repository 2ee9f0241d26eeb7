package dev.sluice.cli;

import dev.sluice.gzip.GzipEngines;
import dev.sluice.gzip.GzipIndex;
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
 * {@code sluice gunzip [-c] [-k] [-f] [-t] [--index INDEX | --no-index | --write-index] [FILE...]}: gzip -d's
 * options, messages and exit codes on {@link GzipInputStream}. Every member's CRC and length are checked; trailing garbage is a warning
 * (exit 2) with the data kept, as gzip does; trailing zeros pass silently. A FILE's index ({@link IndexBeside}: the
 * one beside it or {@code --index}) goes to the decoder when it fits; one that does not is a warning (exit 2) and the
 * FILE is decoded without it. {@code --write-index} records each FILE's index while decoding it
 * ({@link GzipIndex.Recorder}) and saves it beside FILE, where the next gunzip and {@code sluice extract} find it.
 */
@Command(name = "gunzip", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = GzipFiles.ERROR,
        description = {"Decompress gzip FILEs (or stdin to stdout), checking every member.",
            "An index beside FILE (FILE.sgzi from 'sluice index', indexed_gzip's FILE.gzidx or gztool's FILE without"
                + " .gz plus .gzi, the first found) lets several threads decompress FILE when it fits FILE: not older"
                + " than FILE, and of FILE's size (Sluice's format: and content). One that does not fit is a warning"
                + " (exit status 2), and FILE is decompressed without it, to the same output.",
            GzipFiles.FILES_AND_EXIT_STATUS,
            "On Java 22+ with ISA-L, a deflate block whose Huffman code is incomplete (which encoders do not write) is"
                + " decoded when its data is intact; gzip and zlib refuse it, and so does"
                + " SLUICE_JAVA_OPTS=-Dsluice.gzip.native=off."})
final class GunzipCommand implements Callable<Integer> {

    @CommandLine.Mixin
    GzipOptions options = new GzipOptions();

    @Option(names = {"-t", "--test"}, description = "Test the files' integrity; write nothing.")
    boolean test;

    @Option(names = "--index", paramLabel = "INDEX",
            description = "Decode the one FILE through this index (any of the three formats) instead of one beside it.")
    Path index;

    @Option(names = "--no-index", description = "Ignore any index beside the FILEs.")
    boolean noIndex;

    @Option(names = "--write-index", description = "While decompressing each FILE, build its index (as 'sluice index'"
            + " does, in the same pass, decoding on every processor) and save it beside FILE as FILE.sgzi, where the"
            + " next 'sluice gunzip' and 'sluice extract' find it. Keeps FILE (implies -k).")
    boolean writeIndex;

    @Option(names = "--stats", description = GzipOptions.STATS_HELP)
    boolean stats;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    GzipFiles io;

    @Override
    public Integer call() {
        if (index != null && (noIndex || options.filesOrStdin().size() != 1 || options.filesOrStdin().get(0).equals("-"))) {
            throw new CommandLine.ParameterException(spec.commandLine(), noIndex ? "--index and --no-index exclude"
                    + " each other" : "--index needs exactly one FILE (not standard input)");
        }
        if (writeIndex && (index != null || options.filesOrStdin().contains("-"))) {
            throw new CommandLine.ParameterException(spec.commandLine(), index != null ? "--index and --write-index"
                    + " exclude each other" : "--write-index needs FILEs (standard input has no place for an index)");
        }
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
        public boolean longOption(String name) {
            switch (name) {
                case "no-index":
                    noIndex = true;
                    return true;
                case "stats":
                    stats = true;
                    return true;
                default:
                    return false;
            }
        }

        @Override
        public int run(PrintWriter unused, PrintWriter err) {
            return GunzipCommand.this.run(new GzipFiles(err));
        }
    }

    private int run(GzipFiles io) {
        boolean zlib = options.zlibForSmallInputs();
        // Where the native decoder will be used (large inputs, standard input), its binding (60-150 ms of JVM work
        // on 2 cores) starts now, beside the checks, the opening and the index's loading, rather than at the first
        // decode or the index's load: 0.03-0.04 s of a 1 s indexed gunzip on 2 cores (docs/benchmarks/gzip.md,
        // 2026-11-28). Under the small-input zlib choice it does nothing.
        GzipEngines.prepareInflater();
        try {
            return runFiles(io);
        } finally {
            GzipOptions.restoreEngines(zlib);
        }
    }

    private int runFiles(GzipFiles io) {
        for (String name : options.filesOrStdin()) {
            if (name.equals("-")) {
                io.standardStreams(new Decompress(io, null));
                continue;
            }
            Path file = Path.of(name);
            if (!io.checkInput(file, options.force)) {
                continue;
            }
            if (test || options.toStdout) {
                io.toStdout(file, new Decompress(io, file));
                continue;
            }
            String target = name.endsWith(".gz") && name.length() > 3 ? name.substring(0, name.length() - 3)
                    : name.endsWith(".tgz") && name.length() > 4 ? name.substring(0, name.length() - 4) + ".tar"
                    : null;
            if (target == null) {
                io.warning(file + ": unknown suffix -- ignored");
                continue;
            }
            // An index beside a FILE that gunzip removed would describe nothing: --write-index keeps FILE.
            io.toFile(file, Path.of(target), options.force, options.keep || writeIndex, new Decompress(io, file));
        }
        return io.exit();
    }

    /**
     * Checks or decompresses one input; for a FILE, through its index ({@link IndexBeside}), chosen when the work
     * starts (after the output's checks, so a FILE skipped is not looked at). A class, not a lambda: linking the
     * first lambda of a run costs milliseconds of start-up.
     */
    private final class Decompress implements GzipFiles.Transform {
        private final GzipFiles io;
        /** The input file, or null for standard input. */
        private final Path file;

        Decompress(GzipFiles io, Path file) {
            this.io = io;
            this.file = file;
        }

        @Override
        public boolean apply(InputStream source, OutputStream out) throws IOException {
            GzipIndex fitting = file == null || noIndex || writeIndex ? null : IndexBeside.choose(file, index, io);
            GzipInputStream.Builder b = decoder(fitting).stats(stats);
            GzipIndex.Recorder recorder = null;
            if (writeIndex && file != null) {
                recorder = GzipIndex.recorder(GzipIndex.DEFAULT_SPACING);
                b.record(recorder);
            }
            // Closing it frees the inflater at once; the caller's source (stdin) must survive, hence the wrapper.
            try (GzipInputStream in = b.build(GzipFiles.uncloseable(source))) {
                in.transferTo(test ? OutputStream.nullOutputStream() : out); // large slices, from the workers' arrays
                if (stats) {
                    out.flush(); // the last byte written is in the span
                    io.stats(in.stats());
                }
                if (recorder != null) {
                    // Saved before the output is kept: a failure here fails FILE as a whole, as a decode error does.
                    recorder.finish(file).save(IndexCommand.defaultIndex(file, GzipIndex.Format.SLUICE));
                }
                return in.trailingGarbageIgnored();
            }
        }

        @Override
        public boolean keepsOutputOpen() {
            return true; // transferTo writes to out and never closes it
        }
    }

    /**
     * gunzip's decoder: trailing garbage kept as a warning, and FILE's fitting index (or null), with which the
     * decoder works on several threads. An index that passed {@link IndexBeside}'s checks and still does not fit
     * (one whose windows lie) is the decoder's ZipException: an error, never wrong bytes.
     */
    static GzipInputStream.Builder decoder(GzipIndex index) {
        GzipInputStream.Builder b = GzipInputStream.builder().ignoreTrailingGarbage(true);
        return index == null ? b : b.index(index);
    }
}
