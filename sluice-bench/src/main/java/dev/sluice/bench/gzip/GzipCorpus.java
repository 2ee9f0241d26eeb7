package dev.sluice.bench.gzip;

import dev.sluice.gzip.GzipOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

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
                writeTar(srcZip, out);
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

    /** The first readable lib/src.zip: of the running JDK, else of any JDK under /usr/lib/jvm. */
    static Path srcZip() throws IOException {
        List<Path> candidates = new ArrayList<>();
        String explicit = System.getProperty("sluice.corpus.srczip");
        if (explicit != null) {
            candidates.add(Path.of(explicit));
        }
        candidates.add(Path.of(System.getProperty("java.home"), "lib", "src.zip"));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(jvms)) {
                for (Path p : s) {
                    candidates.add(p.resolve("lib/src.zip"));
                }
            }
        }
        for (Path p : candidates) {
            if (Files.isReadable(p) && Files.isRegularFile(p)) {
                return p.toRealPath();
            }
        }
        throw new IOException("no readable lib/src.zip in " + candidates + "; set -Dsluice.corpus.srczip=");
    }

    private static void writeTar(Path srcZip, OutputStream out) throws IOException {
        try (ZipFile zip = new ZipFile(srcZip.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            byte[] pad = new byte[512];
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                if (e.isDirectory()) {
                    continue;
                }
                byte[] data;
                try (InputStream in = zip.getInputStream(e)) {
                    data = in.readAllBytes();
                }
                byte[] header = ustarHeader(e.getName(), data.length, e.getTime() / 1000);
                if (header == null) {
                    continue; // a path ustar cannot hold: rare, and the corpus does not need it
                }
                out.write(header);
                out.write(data);
                out.write(pad, 0, (512 - data.length % 512) % 512);
            }
            out.write(new byte[1024]); // two zero blocks end the archive
        }
    }

    /** A POSIX ustar header for a regular file, or null if the name does not fit name (100) + prefix (155). */
    static byte[] ustarHeader(String path, long size, long mtime) {
        byte[] name = path.getBytes(StandardCharsets.UTF_8);
        byte[] prefix = new byte[0];
        if (name.length > 100) {
            int split = path.lastIndexOf('/', 155);
            while (split > 0 && path.substring(split + 1).getBytes(StandardCharsets.UTF_8).length > 100) {
                split = -1;
            }
            if (split <= 0) {
                return null;
            }
            prefix = path.substring(0, split).getBytes(StandardCharsets.UTF_8);
            name = path.substring(split + 1).getBytes(StandardCharsets.UTF_8);
            if (prefix.length > 155) {
                return null;
            }
        }
        byte[] h = new byte[512];
        System.arraycopy(name, 0, h, 0, name.length);
        octal(h, 100, 8, 0644);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, size);
        octal(h, 136, 12, Math.max(0, mtime));
        h[156] = '0';
        System.arraycopy("ustar\u000000".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 8);
        System.arraycopy(prefix, 0, h, 345, prefix.length);
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        return h;
    }

    /** Writes {@code value} as zero-padded octal in {@code len - 1} digits and a NUL. */
    private static void octal(byte[] h, int off, int len, long value) {
        String s = Long.toOctalString(value);
        int digits = len - 1;
        for (int i = 0; i < digits; i++) {
            int k = s.length() - digits + i;
            h[off + i] = (byte) (k >= 0 ? s.charAt(k) : '0');
        }
        h[off + digits] = 0;
    }
}
