package dev.sluice.bench.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * Files the I/O benchmarks read: random bytes (incompressible, no pattern a JIT or cache could exploit), made once
 * under {@code java.io.tmpdir}/sluice-bench and reused, then read once so the runs measure page-cached reads.
 */
public final class BenchData {
    private BenchData() {}

    /** A page-cached file of {@code size} random bytes, made if missing; shared with other packages' probes. */
    public static Path randomFile(long size) throws IOException {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "sluice-bench");
        Files.createDirectories(dir);
        Path p = dir.resolve("random-" + size + ".bin");
        if (!Files.exists(p) || Files.size(p) != size) {
            Path tmp = Files.createTempFile(dir, "random", ".tmp");
            SplittableRandom r = new SplittableRandom(size);
            byte[] chunk = new byte[1 << 20];
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.TRUNCATE_EXISTING)) {
                for (long left = size; left > 0; ) {
                    for (int i = 0; i < chunk.length; i += 8) {
                        long v = r.nextLong();
                        for (int j = 0; j < 8; j++) {
                            chunk[i + j] = (byte) (v >>> (j * 8));
                        }
                    }
                    int n = (int) Math.min(left, chunk.length);
                    out.write(chunk, 0, n);
                    left -= n;
                }
            }
            Files.move(tmp, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        warm(p);
        return p;
    }

    /** Reads the file once so that it is in the page cache before measuring. */
    static void warm(Path p) throws IOException {
        try (var ch = java.nio.channels.FileChannel.open(p)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(1 << 20);
            while (ch.read(b) >= 0) {
                b.clear();
            }
        }
    }

    /** Reads {@code in} to its end into {@code a}, closes it, and returns a value the JIT must compute. */
    public static long drain(java.io.InputStream in, byte[] a) throws IOException {
        long total = 0;
        try (in) {
            int n;
            while ((n = in.read(a, 0, a.length)) >= 0) {
                total += n + a[0];
            }
        }
        return total;
    }
}
