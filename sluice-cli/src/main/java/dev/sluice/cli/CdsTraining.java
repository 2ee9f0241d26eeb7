package dev.sluice.cli;

import dev.sluice.gzip.GzipIndex;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The training run of the launcher's class-data-sharing archive ({@code ./sluice} runs {@code java
 * -XX:ArchiveClassesAtExit=... -jar sluice.jar --train-cds} once per JVM and jar): every everyday command once, in one
 * JVM, on a tiny file (the zlib path, as {@link GzipOptions#zlibForSmallInputs} picks for it) and on a file just
 * large enough for the native gzip engines, so that the archive holds the classes each command loads, not one
 * command's alone. Writes only under a temporary directory, which it deletes; prints nothing; not a user command.
 */
final class CdsTraining {
    private CdsTraining() {}

    /** The launcher's argument that runs the training instead of a command. */
    static final String ARGUMENT = "--train-cds";

    static void run() {
        try {
            Path dir = Files.createTempDirectory("sluice-cds");
            try {
                train(dir);
            } finally {
                try (Stream<Path> s = Files.walk(dir)) {
                    s.sorted(Comparator.reverseOrder()).forEach(CdsTraining::delete);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void train(Path dir) throws IOException {
        Path tiny = write(dir.resolve("tiny"), 1);
        // At the size from which gzip and gunzip bind the native engines.
        Path large = write(dir.resolve("large"), (int) (SizePolicy.GZIP_ZLIB_BELOW / 64) + 1);
        for (Path f : new Path[] {tiny, large}) {
            String p = f.toString();
            Main.run(new String[] {"cp", p, p + ".copy"});
            Main.run(new String[] {"cmp", p, p + ".copy"});
            Main.run(new String[] {"sum", p});
            Main.run(new String[] {"wc", p});
            Main.run(new String[] {"gzip", "-1", "-k", p});
            Files.delete(Path.of(p + ".gz"));
            Main.run(new String[] {"gzip", "-k", p});
            Main.run(new String[] {"gunzip", "-t", p + ".gz"});
            Main.run(new String[] {"gunzip", "-f", p + ".gz"});
        }
        // The index path: one member as gzip and pigz write it, its index beside it, and gunzip through that index
        // (checkpoint pieces on workers). Without it, each start that finds an index loaded some fifteen classes
        // from the jar and verified them. The index is built through the library, not `sluice index`: a picocli
        // command links picocli's CommandLine, a Java 5 class, which a dynamic archive then leaves out (old classes
        // linked while the archive is made are not archived), and every command's start would load it from the jar.
        String p = large.toString();
        Main.run(new String[] {"gzip", "-k", "--single-member", p});
        GzipIndex.build(Path.of(p + ".gz"), 65536).save(Path.of(p + ".gz.sgzi"));
        Main.run(new String[] {"gunzip", "-t", p + ".gz"});
    }

    /** A text file of {@code lines} lines of 64 bytes. */
    private static Path write(Path file, int lines) throws IOException {
        byte[] line = "sluice: the fast way to do file and stream I/O, by default.....\n"
                .getBytes(StandardCharsets.US_ASCII);
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int i = 0; i < lines; i++) {
                out.write(line);
            }
        }
        return file;
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
