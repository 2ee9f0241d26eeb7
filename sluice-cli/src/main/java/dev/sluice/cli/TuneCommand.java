package dev.sluice.cli;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice tune --dir DIR}: measures reads that bypass the page cache (O_DIRECT through
 * {@link ExtendedOpenOption#DIRECT}, into buffers aligned to the file system's block size) on the file system
 * holding DIR, over a sweep of read sizes, and prints the read size to use as a {@code sluice.*} property. Where
 * the file system refuses O_DIRECT (tmpfs, overlayfs, some network file systems) it says so and measures
 * page-cached reads instead.
 */
@Command(name = "tune", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measure cold (O_DIRECT) reads on the file system holding DIR over a sweep of buffer sizes "
                + "and print the recommended settings as system properties.")
final class TuneCommand implements Callable<Integer> {

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "A directory on the file system to tune for.")
    Path dir;

    @Option(names = "--size", paramLabel = "BYTES", description = "Size of the test file (default: 256m; k/m/g suffixes).")
    String size = "256m";

    @Option(names = "--reps", paramLabel = "N", description = "Reads of the whole file per buffer size (default: 3).")
    int reps = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** A larger buffer is recommended only if it reads at least this much faster than the next smaller one. */
    static final double WORTH_IT = 1.05;

    /** {@code --size}: a count of bytes, or of KiB, MiB or GiB with a {@code k}, {@code m} or {@code g} suffix. */
    static long parseSize(String s) {
        int unit = s.isEmpty() ? -1 : "kmg".indexOf(Character.toLowerCase(s.charAt(s.length() - 1)));
        String digits = unit < 0 ? s : s.substring(0, s.length() - 1);
        return Math.multiplyExact(Long.parseLong(digits), 1L << (10 * (unit + 1)));
    }

    static final int[] BUFFERS = {4096, 16384, 65536, 262144, 1 << 20, 4 << 20};

    @Override
    public Integer call() throws IOException {
        long bytes;
        try {
            bytes = parseSize(size.trim());
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("--size: not a size: " + size);
        }
        if (bytes < (1 << 20)) {
            throw new IllegalArgumentException("--size must be at least 1m: " + size);
        }
        if (reps < 1) {
            throw new IllegalArgumentException("--reps must be at least 1: " + reps);
        }
        if (!Files.isDirectory(dir)) {
            throw new IOException("--dir " + dir + ": " + (Files.exists(dir) ? "Not a directory" : "No such directory"));
        }
        PrintWriter out = spec.commandLine().getOut();
        Platform p = Platform.probe(dir);
        long align = Math.max(512, Files.getFileStore(dir.toAbsolutePath()).getBlockSize());
        bytes = (bytes + 4 * 1024 * 1024 - 1) / (4 * 1024 * 1024) * (4 * 1024 * 1024); // whole 4 MiB reads, aligned

        Path file = Files.createTempFile(dir, ".sluice-tune-", ".bin");
        try {
            fill(file, bytes);
            String type = Files.getFileStore(dir.toAbsolutePath()).type();
            boolean inMemory = MEMORY_FILE_SYSTEMS.contains(type);
            boolean direct = supportsDirect(file, align);
            out.println("sluice tune: " + p.fileSystem() + " at " + dir.toAbsolutePath() + ", block size " + align
                    + " B, test file " + (bytes >> 20) + " MiB");
            out.println("  JDK " + p.jdk() + " | " + p.os() + " | " + p.cpu() + " (" + p.cores() + " cores)");
            if (inMemory) {
                out.println("  " + type + " keeps files in memory: there is no device, so these are memory reads"
                        + (direct ? " (O_DIRECT accepted, but nothing is cold)." : " (O_DIRECT not supported)."));
            } else if (direct) {
                out.println("  Reads bypass the page cache (O_DIRECT): these are cold reads from the device.");
            } else {
                out.println("  O_DIRECT is not supported on this file system (" + p.fileSystem() + "): these are "
                        + "page-cached reads, NOT cold reads from the device.");
            }
            out.println();
            out.printf(Locale.ROOT, "  %-10s %10s %10s %10s  (MB/s over %d reads of the file)%n", "buffer", "min",
                    "median", "max", reps);
            List<double[]> results = new ArrayList<>();
            for (int buffer : BUFFERS) {
                double[] mbs = new double[reps];
                for (int r = 0; r < reps; r++) {
                    mbs[r] = readAll(file, buffer, align, direct);
                }
                Arrays.sort(mbs);
                results.add(mbs);
                out.printf(Locale.ROOT, "  %-10s %10.0f %10.0f %10.0f%n", human(buffer), mbs[0], mbs[reps / 2], mbs[reps - 1]);
                out.flush();
            }
            int pick = recommend(results);
            out.println();
            out.println("Recommended:");
            out.println("  -Dsluice.io.bufferSize=" + BUFFERS[pick]);
            out.println("  Why: " + human(BUFFERS[pick]) + " reads reached " + String.format(Locale.ROOT, "%.0f",
                    median(results.get(pick))) + " MB/s " + (inMemory ? "from memory" : direct ? "cold" : "page-cached")
                    + "; each larger size "
                    + "gained less than 5% more. FastBufferedInputStream/FastBufferedOutputStream (and FastFiles "
                    + "streams) then fill their buffer with reads of this size.");
            if (!direct || inMemory) {
                out.println("  Caution: these were not cold reads; rerun on a disk-backed file system that supports "
                        + "O_DIRECT for cold-read advice.");
            }
            out.flush();
        } finally {
            Files.deleteIfExists(file);
        }
        return 0;
    }

    /**
     * The smallest buffer after which growing no longer pays: a larger size replaces the pick only if its median is at
     * least {@link #WORTH_IT} times the pick's.
     */
    static int recommend(List<double[]> sortedResults) {
        int pick = 0;
        for (int i = 1; i < sortedResults.size(); i++) {
            if (median(sortedResults.get(i)) >= median(sortedResults.get(pick)) * WORTH_IT) {
                pick = i;
            }
        }
        return pick;
    }

    static double median(double[] sorted) {
        return sorted[sorted.length / 2];
    }

    /** File system types whose files live in memory: O_DIRECT (if accepted) cannot make a read cold there. */
    static final java.util.Set<String> MEMORY_FILE_SYSTEMS = java.util.Set.of("tmpfs", "ramfs", "devtmpfs", "hugetlbfs");

    /**
     * Whether the file can be read with O_DIRECT: opens it with {@link ExtendedOpenOption#DIRECT} and reads one
     * aligned block, since some file systems accept the flag at open and refuse the read (EINVAL).
     */
    static boolean supportsDirect(Path file, long align) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            ByteBuffer b = ByteBuffer.allocateDirect((int) (2 * align)).alignedSlice((int) align);
            b.limit((int) align);
            return ch.read(b, 0) > 0;
        } catch (UnsupportedOperationException | IOException e) {
            return false;
        }
    }

    /** Reads the whole file in {@code buffer}-sized reads; returns MB/s. */
    static double readAll(Path file, int buffer, long align, boolean direct) throws IOException {
        OpenOption[] opts = direct ? new OpenOption[] {StandardOpenOption.READ, ExtendedOpenOption.DIRECT}
                : new OpenOption[] {StandardOpenOption.READ};
        // O_DIRECT needs the buffer's address, the read size and the file position all aligned to the block size.
        ByteBuffer buf = ByteBuffer.allocateDirect(buffer + (int) align).alignedSlice((int) align);
        buf.limit(buffer);
        long total = 0;
        long t0 = System.nanoTime();
        try (FileChannel ch = FileChannel.open(file, opts)) {
            int n;
            while ((n = ch.read(buf)) > 0) {
                total += n;
                buf.clear().limit(buffer);
            }
        }
        long ns = System.nanoTime() - t0;
        return total * 1e3 / Math.max(1, ns);
    }

    private static void fill(Path file, long bytes) throws IOException {
        SplittableRandom r = new SplittableRandom(42);
        byte[] chunk = new byte[1 << 20];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long left = bytes; left > 0; left -= chunk.length) {
                r.nextBytes(chunk);
                ByteBuffer b = ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, left));
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
            ch.force(false);
        }
    }

    static String human(long bytes) {
        return bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : (bytes >> 10) + " KiB";
    }
}
