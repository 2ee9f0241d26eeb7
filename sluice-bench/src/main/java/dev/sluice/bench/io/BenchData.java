package dev.sluice.bench.io;

import dev.sluice.bench.DataFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Files the I/O benchmarks read: random bytes (incompressible, no pattern a JIT or cache could exploit), made once
 * under {@code java.io.tmpdir}/sluice-bench and reused, then read once so the runs measure page-cached reads.
 */
public final class BenchData {
    private BenchData() {}

    /** A page-cached file of {@code size} random bytes, made if missing; shared with other packages' probes. */
    public static Path randomFile(long size) throws IOException {
        return DataFiles.randomFile(Path.of(System.getProperty("java.io.tmpdir"), "sluice-bench"), "random-" + size
                + ".bin", size);
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
