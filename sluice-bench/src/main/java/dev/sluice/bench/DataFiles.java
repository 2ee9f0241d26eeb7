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
 * these and from the man pages.
 */
public final class DataFiles {
    private DataFiles() {}

    /** {@code dir/name}: {@code size} random bytes from a generator seeded with the size, made if missing or of another size. */
    public static Path randomFile(Path dir, String name, long size) throws IOException {
        Files.createDirectories(dir);
        Path p = dir.resolve(name);
        if (!Files.exists(p) || Files.size(p) != size) {
            Path tmp = Files.createTempFile(dir, "random", ".tmp");
            SplittableRandom r = new SplittableRandom(size);
            byte[] chunk = new byte[1 << 20];
            try (OutputStream out = Files.newOutputStream(tmp)) {
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
