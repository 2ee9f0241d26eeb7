package dev.sluice.bench.gzip;

import dev.sluice.bench.DataFiles;
import dev.sluice.gzip.GzipOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The gzip benchmarks' corpus: the JDK's own sources ({@code lib/src.zip}) unpacked into one ustar archive (about
 * 200+ MB of Java text), and that tar gzipped at level 6. Made once and cached under {@code /tmp/sluice-corpus}
 * (override with {@code -Dsluice.corpus.dir=}) so that JMH forks and whole-process runs share it; never committed.
 * Run {@code java -cp benchmarks.jar dev.sluice.bench.gzip.GzipCorpus} to make it and print the two paths.
 */
public final class GzipCorpus {
    private GzipCorpus() {}

    public static void main(String[] args) throws IOException {
        System.out.println(tar());
        System.out.println(tarGz());
    }

    static Path dir() throws IOException {
        return Files.createDirectories(Path.of(System.getProperty("sluice.corpus.dir", "/tmp/sluice-corpus")));
    }

    /** The tar of the JDK sources, made on first use. */
    public static synchronized Path tar() throws IOException {
        Path srcZip = srcZip();
        // Name it after the JDK it came from: different JDKs' sources are different corpora.
        String jdk = srcZip.toAbsolutePath().getParent().getParent().getFileName().toString();
        Path tar = dir().resolve("jdk-src-" + jdk + ".tar");
        if (!Files.exists(tar)) {
            Path tmp = Files.createTempFile(dir(), "jdk-src", ".tmp");
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                DataFiles.tar(srcZip, out, Long.MAX_VALUE);
            }
            Files.move(tmp, tar, StandardCopyOption.ATOMIC_MOVE);
        }
        return tar;
    }

    /** {@link #tar()} gzipped at level 6 (the same zlib as gzip -6 up to version differences). */
    public static synchronized Path tarGz() throws IOException {
        Path tar = tar();
        Path gz = tar.resolveSibling(tar.getFileName() + ".gz");
        if (!Files.exists(gz)) {
            Path tmp = Files.createTempFile(dir(), "jdk-src", ".tmp");
            try (InputStream in = Files.newInputStream(tar);
                    OutputStream out = new GzipOutputStream(Files.newOutputStream(tmp))) {
                in.transferTo(out);
            }
            Files.move(tmp, gz, StandardCopyOption.ATOMIC_MOVE);
        }
        return gz;
    }

    /** The JDK sources the tar is made from ({@link DataFiles#srcZip}); IOException if there are none. */
    static Path srcZip() throws IOException {
        Path p = DataFiles.srcZip();
        if (p == null) {
            throw new IOException("no readable lib/src.zip of this JDK or one beside it; set -Dsluice.corpus.srczip=");
        }
        return p.toRealPath();
    }
}
