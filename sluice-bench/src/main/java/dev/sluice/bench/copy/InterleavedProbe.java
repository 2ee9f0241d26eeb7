package dev.sluice.bench.copy;

import dev.sluice.bench.CpuClock;
import dev.sluice.bench.io.BenchData;
import dev.sluice.file.FastFiles;
import dev.sluice.io.Streams;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A companion to the JMH benchmarks for a shared machine: JMH runs one method for seconds, then the next, so load
 * from other users that comes and goes lands on some methods and not others. This runs the same operations in
 * rounds, one of each per round, and reports the median wall and process CPU time per operation, so that load
 * drifts over all of them alike. Not a replacement for JMH (no forks, no blackholes: each op returns a value that is
 * summed and printed); a way to read ratios on a busy machine.
 *
 * <p>{@code java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.copy.InterleavedProbe compare|copy|read ROUNDS}
 */
public final class InterleavedProbe {
    private InterleavedProbe() {}

    interface Op {
        long run() throws IOException;
    }

    private static long directBuffers(Path a, Path b, int size) throws IOException {
        try (FileChannel ca = FileChannel.open(a); FileChannel cb = FileChannel.open(b)) {
            ByteBuffer x = ByteBuffer.allocateDirect(size);
            ByteBuffer y = ByteBuffer.allocateDirect(size);
            long total = ca.size();
            for (long done = 0; done < total; done += size) {
                x.clear();
                y.clear();
                while (x.hasRemaining() && ca.read(x, done + x.position()) >= 0) {
                    // a short read is not the end
                }
                while (y.hasRemaining() && cb.read(y, done + y.position()) >= 0) {
                    // a short read is not the end
                }
                int m = x.flip().mismatch(y.flip());
                if (m >= 0) {
                    return done + m;
                }
            }
            return -1;
        }
    }

    private static long loop(Path source, Path target, int size) throws IOException {
        Files.deleteIfExists(target);
        try (InputStream in = new FileInputStream(source.toFile());
             OutputStream out = new FileOutputStream(target.toFile())) {
            return StreamCopyBench.loop(in, out, size);
        }
    }

    public static void main(String[] args) throws IOException {
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        Map<String, Op> ops = new LinkedHashMap<>();
        if (args.length > 0 && args[0].equals("read")) {
            // Issue 2's bulk-read target: 64 KiB reads of a page-cached 256 MiB file into a heap array, against
            // FileChannel.read into a 64 KiB direct buffer (one copy fewer). JMH runs each in its own fork, one
            // after the other, and on a VM with background memory scanning the forks differ by more than the
            // methods do; here they take turns.
            Path f = BenchData.randomFile(256L << 20); // BulkReadBench's file
            byte[] array = new byte[64 * 1024];
            ByteBuffer direct = ByteBuffer.allocateDirect(64 * 1024);
            ops.put("FileChannel.read, direct 64 KiB", () -> {
                long total = 0;
                try (FileChannel ch = FileChannel.open(f)) {
                    int n;
                    while ((n = ch.read(direct.clear())) >= 0) {
                        total += n + direct.get(0);
                    }
                }
                return total;
            });
            ops.put("FileInputStream, 64 KiB array", () -> BenchData.drain(new FileInputStream(f.toFile()), array));
            ops.put("FastFiles.newInputStream, 64 KiB", () -> BenchData.drain(FastFiles.newInputStream(f), array));
            ops.put("FastFiles unbuffered, 64 KiB", () -> BenchData.drain(FastFiles.newUnbufferedInputStream(f), array));
        } else if (args.length > 0 && args[0].equals("copy")) {
            Path s = CopyData.randomFile("copy-256m.bin", StreamCopyBench.SIZE);
            Path t = CopyData.dir().resolve("probe-target.bin");
            ops.put("loop 8 KiB", () -> loop(s, t, 8192));
            ops.put("loop 64 KiB", () -> loop(s, t, 65536));
            ops.put("Streams.copy", () -> {
                Files.deleteIfExists(t);
                try (InputStream in = new FileInputStream(s.toFile());
                     OutputStream out = new FileOutputStream(t.toFile())) {
                    return Streams.copy(in, out);
                }
            });
            ops.put("Files.copy", () -> {
                Files.deleteIfExists(t);
                Files.copy(s, t);
                return Files.size(t);
            });
            ops.put("FastFiles.copy", () -> {
                Files.deleteIfExists(t);
                FastFiles.copy(s, t);
                return Files.size(t);
            });
        } else {
            Path a = CopyData.randomFile("a.bin", CompareBench.SIZE);
            Path b = CopyData.copyOf(a, "b.bin");
            ops.put("Files.mismatch", () -> Files.mismatch(a, b));
            for (int size : new int[] {8192, 65536, 262144, 1 << 20, 4 << 20}) {
                ops.put("direct " + (size >> 10) + " KiB, 1 thread", () -> directBuffers(a, b, size));
            }
            // The public entry point: it decides itself whether to compare the two halves on two threads.
            ops.put("FastFiles.mismatch", () -> FastFiles.mismatch(a, b));
        }
        Op[] list = ops.values().toArray(new Op[0]);
        long[][] wall = new long[list.length][rounds];
        long[][] cpu = new long[list.length][rounds];
        long sink = 0;
        for (int warm = 0; warm < 2; warm++) {
            for (Op op : list) {
                sink += op.run();
            }
        }
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < list.length; i++) {
                long c0 = CpuClock.processNanos();
                long w0 = System.nanoTime();
                sink += list[i].run();
                wall[i][r] = System.nanoTime() - w0;
                cpu[i][r] = CpuClock.processNanos() - c0;
            }
        }
        System.out.printf("%-32s %14s %14s%n", "operation", "median wall ms", "median CPU ms");
        int i = 0;
        for (String name : ops.keySet()) {
            Arrays.sort(wall[i]);
            Arrays.sort(cpu[i]);
            System.out.printf("%-32s %14.1f %14.1f%n", name, wall[i][rounds / 2] / 1e6, cpu[i][rounds / 2] / 1e6);
            i++;
        }
        System.out.println("(checksum of results: " + sink + ")");
    }
}
