package dev.sluice.bench.experiments;

import dev.sluice.bench.DataFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The data the experiments read, made on first use in one directory and reused (by the quick runner, by JMH's
 * forks, by later runs). Corpora nobody here wrote: the JDK's {@code lib/src.zip} turned into a tar (text, ~200 MB
 * when whole), Japanese man pages from Debian's manpages-ja; when those are missing, generated stand-ins (random
 * bytes; Latin-1 and Japanese-like text from a seeded generator). With a user data directory, its files (sorted by
 * path, concatenated) are the byte corpus instead of the JDK sources.
 *
 * <p>Every file is read once after it is made, so measurements read from the page cache.
 */
public final class Corpus {
    private final Path dir;
    private final Scale scale;
    private final Path userData;
    private final List<String> sources = new ArrayList<>();

    /**
     * @param dir where the data files go (created if missing)
     * @param userData a directory of the user's files to use as the byte corpus, or null
     */
    public Corpus(Path dir, Scale scale, Path userData) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.scale = scale;
        this.userData = userData;
    }

    public Scale scale() {
        return scale;
    }

    public Path dir() {
        return dir;
    }

    /** One line per corpus actually made or reused in this run, saying where its bytes came from. */
    public synchronized List<String> sources() {
        return List.copyOf(sources);
    }

    private synchronized void note(String s) {
        if (!sources.contains(s)) {
            sources.add(s);
        }
    }

    /** The main byte corpus, about {@link Scale#corpusBytes} long. */
    public Path bytes() throws IOException {
        return bytes(scale.corpusBytes());
    }

    /** The first {@code size} bytes of the byte corpus (repeated if the source is shorter). */
    public Path bytes(long size) throws IOException {
        if (userData != null) {
            note("bytes: the files under " + userData + " concatenated in path order");
            return derived("user-" + size + ".bin", size, out -> cycle(out, size, this::userFiles));
        }
        Path srcZip = DataFiles.srcZip();
        if (srcZip != null) {
            note("bytes: " + srcZip + " as a tar of its entries");
            return derived("src-tar-" + size + ".tar", size, out -> cycle(out, size, () -> List.of(tarOf(srcZip, Math.max(size, scale.corpusBytes())))));
        }
        note("bytes: random (no JDK lib/src.zip found)");
        return random(size);
    }

    /** Incompressible bytes from a seeded generator. */
    public Path random(long size) throws IOException {
        return DataFiles.randomFile(dir, "random-" + size + ".bin", size);
    }

    /** The byte corpus gzipped at the default level. */
    public Path gzip() throws IOException {
        Path src = bytes();
        Path gz = dir.resolve(src.getFileName() + ".gz");
        if (!Files.exists(gz)) {
            Path tmp = Files.createTempFile(dir, "gz", ".tmp");
            try (InputStream in = Files.newInputStream(src);
                 OutputStream out = new GZIPOutputStream(DataFiles.inPages(Files.newOutputStream(tmp)), 65536)) {
                in.transferTo(out);
            }
            Files.move(tmp, gz, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        warm(gz);
        return gz;
    }

    /** Latin-1 text (ISO-8859-1 bytes; about one letter in twelve outside ASCII), generated from a seed. */
    public Path latin1(long size) throws IOException {
        note("latin-1: generated European-language text, ISO-8859-1");
        return derived("latin1-" + size + ".txt", size, out -> cycle(out, size,
                () -> List.of(new java.io.ByteArrayInputStream(TextGen.latin1(1 << 20).getBytes(StandardCharsets.ISO_8859_1)))));
    }

    /** Japanese text in UTF-8: Debian's manpages-ja when installed, else generated kana/kanji text. */
    public Path japanese(long size) throws IOException {
        Path man = Path.of("/usr/share/man/ja");
        if (Files.isDirectory(man)) {
            note("Japanese: /usr/share/man/ja (manpages-ja), UTF-8");
            return utf8(derived("ja-man-" + size + ".txt", size, out -> cycle(out, size, () -> gunzipAll(man))));
        }
        note("Japanese: generated kana/kanji text, UTF-8 (manpages-ja not installed)");
        return utf8(derived("ja-gen-" + size + ".txt", size, out -> cycle(out, size,
                () -> List.of(new java.io.ByteArrayInputStream(TextGen.japanese(1 << 19).getBytes(StandardCharsets.UTF_8))))));
    }

    /** A scratch path for outputs (copies, written files); the caller overwrites it freely. */
    public Path scratch(String name) {
        return dir.resolve("out-" + name);
    }

    // ---------------------------------------------------------------------------------------------------------

    interface Producer {
        void write(OutputStream out) throws IOException;
    }

    interface Sources {
        List<InputStream> open() throws IOException;
    }

    /** Makes {@code name} with {@code size} bytes unless a file of that size is already there; then warms it. */
    private Path derived(String name, long size, Producer producer) throws IOException {
        Path p = dir.resolve(name);
        if (!Files.exists(p) || Files.size(p) != size) {
            Path tmp = Files.createTempFile(dir, "corpus", ".tmp");
            try (OutputStream out = DataFiles.inPages(Files.newOutputStream(tmp))) {
                producer.write(out);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(tmp);
                throw e;
            }
            if (Files.size(tmp) != size) {
                Files.deleteIfExists(tmp);
                throw new IOException("corpus " + name + ": made " + Files.size(tmp) + " bytes, expected " + size);
            }
            Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        warm(p);
        return p;
    }

    /** Writes exactly {@code size} bytes from the sources, reopening them from the start while more are needed. */
    private static void cycle(OutputStream out, long size, Sources sources) throws IOException {
        byte[] buf = new byte[1 << 16];
        long left = size;
        while (left > 0) {
            long before = left;
            for (InputStream in : sources.open()) {
                try (in) {
                    int n;
                    while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
                        out.write(buf, 0, n);
                        left -= n;
                    }
                }
                if (left == 0) {
                    break;
                }
            }
            if (left == before) {
                throw new IOException("corpus source is empty");
            }
        }
    }

    private List<InputStream> userFiles() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(userData)) {
            files = s.filter(Files::isRegularFile).filter(Files::isReadable).sorted().collect(Collectors.toList());
        }
        if (files.isEmpty()) {
            throw new IOException(userData + ": no readable files to use as data");
        }
        return lazily(files, Files::newInputStream);
    }

    /** The man pages, uncompressed, each checked to be well-formed UTF-8 (strict readers must not fail on them). */
    private static List<InputStream> gunzipAll(Path man) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(man)) {
            files = s.filter(p -> p.toString().endsWith(".gz")).sorted().collect(Collectors.toList());
        }
        List<InputStream> list = new ArrayList<>();
        for (Path p : files) {
            byte[] text;
            try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
                text = in.readAllBytes();
            }
            try {
                StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(text));
                list.add(new java.io.ByteArrayInputStream(text));
            } catch (java.nio.charset.CharacterCodingException e) {
                // not UTF-8: left out
            }
        }
        if (list.isEmpty()) {
            throw new IOException(man + ": no UTF-8 man pages");
        }
        return list;
    }

    /**
     * Cutting text at a byte count can split a UTF-8 sequence at the end: replaces such a tail with newlines, so
     * the file keeps its size and decodes strictly.
     */
    private static Path utf8(Path p) throws IOException {
        try (var ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.READ,
                java.nio.file.StandardOpenOption.WRITE)) {
            long size = ch.size();
            int n = (int) Math.min(4, size);
            java.nio.ByteBuffer tail = java.nio.ByteBuffer.allocate(n);
            ch.read(tail, size - n);
            byte[] t = tail.array();
            // Find the last lead byte; if its sequence is longer than what follows it, blank it out.
            for (int i = n - 1; i >= 0; i--) {
                int b = t[i] & 0xff;
                if (b < 0x80) {
                    break;
                }
                if (b >= 0xC0) {
                    int need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
                    if (n - i < need) {
                        java.util.Arrays.fill(t, i, n, (byte) '\n');
                        ch.write(java.nio.ByteBuffer.wrap(t, i, n - i), size - n + i);
                    }
                    break;
                }
            }
        }
        return p;
    }

    interface Opener {
        InputStream open(Path p) throws IOException;
    }

    /** Streams that open their file on first read, so that a thousand files are not all open at once. */
    private static List<InputStream> lazily(List<Path> files, Opener opener) {
        List<InputStream> list = new ArrayList<>(files.size());
        for (Path p : files) {
            list.add(new InputStream() {
                private InputStream in;

                private InputStream in() throws IOException {
                    if (in == null) {
                        in = opener.open(p);
                    }
                    return in;
                }

                @Override
                public int read() throws IOException {
                    return in().read();
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    return in().read(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    if (in != null) {
                        in.close();
                    }
                }
            });
        }
        return list;
    }

    /** The JDK's sources as a tar file of about {@code limit} bytes (whole entries), made once in the data dir. */
    private InputStream tarOf(Path srcZip, long limit) throws IOException {
        Path tarFile = dir.resolve("src-" + limit + ".tar");
        if (!Files.exists(tarFile)) {
            Path tmp = Files.createTempFile(dir, "tar", ".tmp");
            try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                DataFiles.tar(srcZip, out, limit);
            }
            Files.move(tmp, tarFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        return Files.newInputStream(tarFile);
    }

    /** Reads a file once so that measurements see it page-cached. */
    static void warm(Path p) throws IOException {
        DataFiles.warm(p);
    }

}
