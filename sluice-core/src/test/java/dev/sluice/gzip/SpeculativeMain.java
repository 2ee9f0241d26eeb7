package dev.sluice.gzip;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Whole-file timing of {@link SpeculativeReader} (no test: a tool for docs/benchmarks/gzip.md, run under
 * {@code /usr/bin/time} in a fresh JVM): {@code java -cp sluice-core/target/classes:sluice-core/target/test-classes
 * dev.sluice.gzip.SpeculativeMain MODE FILE [THREADS [CHUNK]]}, MODE {@code speculative} (this reader) or
 * {@code serial} (GzipInputStream on one thread). Prints the bytes decoded, wall time and the speculation's counts.
 */
final class SpeculativeMain {
    private SpeculativeMain() {}

    public static void main(String[] args) throws IOException {
        String mode = args[0];
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        int chunk = args.length > 3 ? Integer.parseInt(args[3]) : SpeculativeReader.CHUNK;
        long t0 = System.nanoTime();
        long total = 0;
        String stats = "";
        try (InputStream in = new FileInputStream(args[1])) {
            if (mode.equals("serial")) {
                try (GzipInputStream g = GzipInputStream.builder().threads(1).build(in)) {
                    byte[] b = new byte[1 << 16];
                    for (int n; (n = g.read(b)) > 0; ) {
                        total += n;
                    }
                }
            } else {
                byte[] head = new byte[1 << 16];
                int lim = in.readNBytes(head, 0, head.length);
                int[] at = {0};
                GzipMembers.Member claim = GzipMembers.readHeader(() -> head[at[0]++] & 0xff, 0);
                SpeculativeReader r = new SpeculativeReader(threads, in, head, at[0], lim, 0, claim, false, chunk);
                for (ParallelInflate.Decoded d; (d = r.next()) != null; ) {
                    total += d.len;
                    r.recycle(d);
                }
                r.close();
                stats = r.stats();
            }
        }
        System.out.printf("%s: %d bytes in %.3f s %s%n", mode, total, (System.nanoTime() - t0) / 1e9, stats);
    }
}
