package dev.sluice.cli;

import dev.sluice.gzip.GzipIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice index FILE.gz}: builds a {@link GzipIndex} of any gzip file and saves it next to it as
 * {@code FILE.gz.sgzi} (Sluice's format), or with {@code --format indexed_gzip} as {@code FILE.gz.gzidx}, which
 * indexed_gzip's {@code import_index} reads. {@code sluice extract} then reads any byte range quickly, and
 * {@code sluice gunzip} decodes through the index beside its FILE; the command says whether gunzip will find the one
 * it wrote.
 */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = {"Build a random-access index of a gzip FILE (any gzip: one member or many, from any tool).",
            "Saved as FILE.sgzi (Sluice's format) or, with --format indexed_gzip, FILE.gzidx (indexed_gzip's "
                + "GZIDX format), or with --format gztool, FILE without .gz plus .gzi (gztool's format, which "
                + "gztool -b uses). 'sluice gunzip FILE' and 'sluice extract' use the index beside FILE while it is"
                + " not older than FILE and fits it; this command says whether they will use the one it wrote.",
            "Exit status: 0 ok, 2 trouble (unreadable, corrupt or truncated gzip)."})
final class IndexCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE.gz")
    Path file;

    @Option(names = {"-o", "--output"}, paramLabel = "INDEX", description = "Where to save the index "
            + "(default: FILE.gz.sgzi, FILE.gz.gzidx with --format indexed_gzip, FILE.gzi with --format gztool).")
    Path output;

    @Option(names = "--format", paramLabel = "sluice|indexed_gzip|gztool", defaultValue = "sluice",
            description = "Index file format: sluice (default), indexed_gzip or gztool.")
    String format;

    @Option(names = "--spacing", paramLabel = "BYTES", defaultValue = "1048576",
            description = "Uncompressed bytes between checkpoints (default 1 MiB): smaller means faster reads and a "
                    + "larger index (32 KiB of window per checkpoint).")
    long spacing;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        GzipIndex.Format f;
        if (format.equals("sluice")) {
            f = GzipIndex.Format.SLUICE;
        } else if (format.equals("indexed_gzip") || format.equals("gzidx")) {
            f = GzipIndex.Format.INDEXED_GZIP;
        } else if (format.equals("gztool")) {
            f = GzipIndex.Format.GZTOOL;
        } else {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown --format: " + format
                    + " (sluice, indexed_gzip or gztool)");
        }
        if (spacing <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--spacing must be positive: " + spacing);
        }
        GzipIndex index = GzipIndex.build(file, spacing);
        Path out = output != null ? output : defaultIndex(file, f);
        index.save(out, f);
        PrintWriter err = spec.commandLine().getErr();
        err.println("sluice: " + out + ": " + index.members() + " member(s), " + index.checkpoints()
                + " checkpoint(s), " + index.uncompressedSize() + " bytes uncompressed, index "
                + java.nio.file.Files.size(out) + " bytes");
        err.println("sluice: " + whoUses(file, out));
        err.flush();
        return 0;
    }

    /** Whether 'sluice gunzip' and 'sluice extract' of {@code gz} find {@code index} beside it ({@link IndexBeside}). */
    static String whoUses(Path gz, Path index) throws IOException {
        Path found = IndexBeside.beside(gz);
        if (found != null && java.nio.file.Files.isSameFile(found, index)) {
            return "'sluice gunzip " + gz + "' and 'sluice extract' will use " + index + " while " + gz
                    + " does not change";
        }
        return "'sluice gunzip' uses " + index + " only when named: 'sluice gunzip --index " + index + " " + gz + "'"
                + (found == null ? "" : " (beside " + gz + " it finds " + found + " first)");
    }

    static Path defaultIndex(Path gz, GzipIndex.Format format) {
        return gz.resolveSibling(format.fileName(gz.getFileName().toString()));
    }
}
