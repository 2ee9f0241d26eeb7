package dev.sluice.bench.copy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.SplittableRandom;

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
        Path p = dir().resolve(name);
        if (!Files.exists(p) || Files.size(p) != size) {
            Path tmp = Files.createTempFile(p.getParent(), name, ".tmp");
            SplittableRandom r = new SplittableRandom(size);
            byte[] chunk = new byte[1 << 20];
            try (OutputStream out = Files.newOutputStream(tmp)) {
                for (long left = size; left > 0; left -= chunk.length) {
                    r.nextBytes(chunk);
                    out.write(chunk, 0, (int) Math.min(left, chunk.length));
                }
            }
            Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        warm(p);
        return p;
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
        warm(p);
        return p;
    }

    /** Reads the file once so that it is in the page cache before measuring. */
    static void warm(Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p)) {
            ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
            while (ch.read(b) >= 0) {
                b.clear();
            }
        }
    }
}
