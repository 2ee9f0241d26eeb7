package dev.sluice.bench.copy;

import dev.sluice.bench.DataFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The files the copy and compare benchmarks use: random bytes (incompressible, nothing for a JIT or a file system
 * to exploit), made once under {@code sluice.corpus} (default {@code /tmp/sluice-corpus}) and reused across runs,
 * then read once so that every figure is a page-cached read. The second file of an equal pair is made by
 * {@code cp}, as a user's would be.
 */
final class CopyData {
    private CopyData() {}

    static Path dir() throws IOException {
        Path dir = Path.of(System.getProperty("sluice.corpus", "/tmp/sluice-corpus"));
        Files.createDirectories(dir);
        return dir;
    }

    /** A file of {@code size} random bytes named {@code name}, made if missing or of another size. */
    static Path randomFile(String name, long size) throws IOException {
        return DataFiles.randomFile(dir(), name, size);
    }

    /** A copy of {@code src} named {@code name}, made with {@code cp} if missing or of another size. */
    static Path copyOf(Path src, String name) throws IOException {
        Path p = src.resolveSibling(name);
        if (!Files.exists(p) || Files.size(p) != Files.size(src)) {
            try {
                int rc = new ProcessBuilder("cp", src.toString(), p.toString()).inheritIO().start().waitFor();
                if (rc != 0) {
                    throw new IOException("cp failed: " + rc);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
        DataFiles.warm(p);
        return p;
    }
}
