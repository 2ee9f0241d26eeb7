package dev.sluice.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The one maker of each kind of data file the benchmarks and the report's experiments read: random bytes, and the
 * JDK's sources ({@code lib/src.zip}) as a ustar archive. Each caller keeps its own cache directory and names; the
 * bytes are made here, atomically (a temp file renamed into place), and read once so that measurements are
 * page-cached. Text corpora are made by {@code text.TextCorpus} (JMH) and {@code experiments.Corpus} (report) from
 * these and from the man pages. The random files made here and every file of the report's corpus are written a page
 * at a time ({@link #inPages}), so that the page cache holds them in the same state on every run (the JMH corpora of
 * {@code gzip.GzipCorpus} and {@code text.TextCorpus} are written as they come, as when their recorded figures were
 * made).
 */
public final class DataFiles {
    private DataFiles() {}

    /** The size of every write {@link #inPages} makes: one page of x86-64 and of most other Linux machines. */
    public static final int PAGE = 4096;

    /**
     * A stream that writes {@code out} one whole {@link #PAGE} at a time (the last write may be shorter), whatever
     * sizes it is given, so that the file it makes sits in the page cache as single 4 KiB pages. Linux 6.x caches a
     * file in folios as large as the writes that made it (on the 2-core machine's kernel 6.18, ext4: 64 KiB writes
     * gave 16-page folios, 1 MiB writes 256-page ones), but only while the allocator has that much contiguous memory
     * free; where it has not, it falls back to single pages. How a page-cached file is held then changes from run to
     * run with the machine's fragmentation, and reads with small buffers change with it: a 32 MiB file read whole
     * through FileInputStream with a 4 KiB array took 6.6-7.2 ms in 16-page folios and 9.3-10.9 ms in single pages,
     * with an 8 KiB array 6.1-6.6 and 7.8-8.8 ms, and C25's ratio (IOUtils.copy, 8 KiB over 4 KiB) moved between 1.0
     * and 1.3 from one quick run to the next (docs/design/report.md, "Data in single pages"). A write of one page at a
     * page's offset always gets a single page: the layout every kernel had before large folios, and the one the
     * articles measured. Buffers one page; {@code flush()} writes nothing (a partial page waits), {@code close()}
     * writes the last partial page and closes {@code out}; writes after close throw IOException, a bad range
     * IndexOutOfBoundsException. Not thread-safe.
     */
    public static OutputStream inPages(OutputStream out) {
        return new PageWriter(out);
    }

    private static final class PageWriter extends OutputStream {
        private final OutputStream out;
        private final byte[] page = new byte[PAGE];
        private int filled;
        private boolean closed;

        PageWriter(OutputStream out) {
            this.out = java.util.Objects.requireNonNull(out, "out");
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (closed) {
                throw new IOException("stream closed");
            }
            while (len > 0) {
                if (filled == 0 && len >= PAGE) {
                    out.write(b, off, PAGE); // a whole page straight from the caller's array
                    off += PAGE;
                    len -= PAGE;
                    continue;
                }
                int n = Math.min(len, PAGE - filled);
                System.arraycopy(b, off, page, filled, n);
                filled += n;
                off += n;
                len -= n;
                if (filled == PAGE) {
                    out.write(page, 0, PAGE);
                    filled = 0;
                }
            }
        }

        /** Writes nothing: a partial page waits for the rest, so that no write is shorter than a page but the last. */
        @Override
        public void flush() {}

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try (out) {
                if (filled > 0) {
                    out.write(page, 0, filled);
                    filled = 0;
                }
            }
        }
    }

    /** {@code dir/name}: {@code size} random bytes from a generator seeded with the size, made if missing or of another size. */
    public static Path randomFile(Path dir, String name, long size) throws IOException {
        Files.createDirectories(dir);
        Path p = dir.resolve(name);
        if (!Files.exists(p) || Files.size(p) != size) {
            Path tmp = Files.createTempFile(dir, "random", ".tmp");
            SplittableRandom r = new SplittableRandom(size);
            byte[] chunk = new byte[1 << 20];
            try (OutputStream out = inPages(Files.newOutputStream(tmp))) {
                for (long left = size; left > 0; left -= chunk.length) {
                    r.nextBytes(chunk);
                    out.write(chunk, 0, (int) Math.min(left, chunk.length));
                }
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(tmp);
                throw e;
            }
            Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        warm(p);
        return p;
    }

    /** Reads a file once so that measurements see it page-cached. */
    public static void warm(Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p)) {
            ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
            while (ch.read(b) >= 0) {
                b.clear();
            }
        }
    }

    /**
     * The JDK's sources: {@code -Dsluice.corpus.srczip} if set, else the running JDK's {@code lib/src.zip}, else the
     * first readable one of a JDK beside it (e.g. under /usr/lib/jvm; Debian's JDK 17 ships none without
     * openjdk-17-source); null if there is none.
     */
    public static Path srcZip() {
        List<Path> candidates = new ArrayList<>();
        String explicit = System.getProperty("sluice.corpus.srczip");
        if (explicit != null) {
            candidates.add(Path.of(explicit));
        }
        Path home = Path.of(System.getProperty("java.home"));
        candidates.add(home.resolve("lib/src.zip"));
        Path parent = home.getParent();
        if (parent != null && Files.isDirectory(parent)) {
            List<Path> beside = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent)) {
                for (Path jdk : ds) {
                    beside.add(jdk.resolve("lib/src.zip"));
                }
            } catch (IOException | RuntimeException e) {
                // none beside it
            }
            beside.sort(null);
            candidates.addAll(beside);
        }
        for (Path p : candidates) {
            if (Files.isReadable(p) && Files.isRegularFile(p)) {
                return p;
            }
        }
        return null;
    }

    /**
     * Writes the regular files of {@code srcZip}, in zip order, as a ustar archive to {@code out} until at least
     * {@code limit} bytes are written (whole entries; {@code Long.MAX_VALUE} for all), then the end blocks.
     */
    public static void tar(Path srcZip, OutputStream out, long limit) throws IOException {
        try (ZipInputStream zin = new ZipInputStream(Files.newInputStream(srcZip), StandardCharsets.UTF_8)) {
            Tar tar = new Tar(out);
            ZipEntry e;
            while (tar.written() < limit && (e = zin.getNextEntry()) != null) {
                if (!e.isDirectory()) {
                    tar.add(e.getName(), zin.readAllBytes(), e.getTime());
                }
            }
            tar.finish();
        }
    }
}
