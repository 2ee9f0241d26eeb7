package dev.sluice.bench.text;

import dev.sluice.bench.DataFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The text corpora, made from files no one here wrote and cached under /tmp/sluice-corpus (override with
 * {@code -Dsluice.corpus.dir}):
 * <ul>
 *   <li>{@code java}: the .java files of a JDK's lib/src.zip concatenated (ASCII-heavy UTF-8), first 64 MiB;</li>
 *   <li>{@code ja}: Debian's manpages-ja (/usr/share/man/ja) gunzipped and concatenated (UTF-8, ~37% of the chars
 *       Japanese);</li>
 *   <li>{@code latin1}: the French, German, Spanish, Italian, Portuguese, Dutch, Swedish and Danish man pages
 *       (/usr/share/man/fr, de, ...) re-encoded as ISO-8859-1 (a char it lacks becomes '?'), about 7 MB.</li>
 * </ul>
 * Every file is read once after it is made or found, so benchmarks measure page-cached reads.
 */
final class TextCorpus {
    private TextCorpus() {}

    static final long JAVA_LIMIT = 64L << 20;

    static Path dir() throws IOException {
        Path d = Path.of(System.getProperty("sluice.corpus.dir", "/tmp/sluice-corpus"));
        Files.createDirectories(d);
        return d;
    }

    /** The corpus called {@code name} ("java", "ja" or "latin1"). */
    static Path get(String name) throws IOException {
        Path p = dir().resolve(name + ".txt");
        long min = minimumSize(name);
        if (Files.exists(p) && Files.size(p) < min) {
            Files.delete(p); // made before the man pages were installed: make it again
        }
        if (!Files.exists(p)) {
            Path tmp = Files.createTempFile(dir(), name, ".tmp");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                switch (name) {
                    case "java" -> javaSources(out);
                    case "ja" -> manPages(out, List.of("ja"), false);
                    case "latin1" -> manPages(out, List.of("fr", "de", "es", "it", "pt", "nl", "sv", "da"), true);
                    default -> throw new IllegalArgumentException("unknown corpus: " + name);
                }
            }
            long size = Files.size(tmp);
            if (size < min) {
                Files.delete(tmp);
                throw new IOException("corpus " + name + " has only " + size + " bytes (at least " + min
                        + " expected): install Debian's manpages-" + (name.equals("ja") ? "ja" : "fr, -de, -es, -it,"
                        + " -pt, -nl, -sv, -da") + "; other packages' few pages are not a corpus");
            }
            Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        warm(p);
        return p;
    }

    /**
     * The least size a corpus must have: /usr/share/man/ja exists without manpages-ja (other packages bring a few
     * Japanese pages), and a 600 KB corpus measures something else than the 13 MB one the docs describe.
     */
    private static long minimumSize(String name) {
        return switch (name) {
            case "ja" -> 8L << 20;
            case "latin1" -> 4L << 20;
            default -> 0;
        };
    }

    /**
     * The first {@code size} bytes of corpus {@code name}, as its own file (the small-file experiment); for UTF-8
     * corpora up to 3 bytes fewer, so that the file ends on a character boundary.
     */
    static Path prefix(String name, int size) throws IOException {
        Path p = dir().resolve(name + "-" + size + ".txt");
        if (!Files.exists(p)) {
            byte[] all;
            try (InputStream in = Files.newInputStream(get(name))) {
                all = in.readNBytes(size);
            }
            if (all.length < size) {
                throw new IOException("corpus " + name + " has only " + all.length + " bytes, " + size + " asked");
            }
            if (!name.equals("latin1")) {
                // End on a UTF-8 character boundary: Files.newBufferedReader rejects a cut sequence.
                int end = size;
                while (end > 0 && (all[end - 1] & 0xC0) == 0x80) {
                    end--;
                }
                if (end > 0 && (all[end - 1] & 0x80) != 0) {
                    end--; // the lead byte of the cut sequence
                }
                all = java.util.Arrays.copyOf(all, end);
            }
            Path tmp = Files.createTempFile(dir(), name, ".tmp");
            Files.write(tmp, all);
            Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        warm(p);
        return p;
    }

    private static void javaSources(OutputStream out) throws IOException {
        Path zip = srcZip();
        long written = 0;
        try (ZipFile zf = new ZipFile(zip.toFile())) {
            Enumeration<? extends ZipEntry> entries = zf.entries();
            while (entries.hasMoreElements() && written < JAVA_LIMIT) {
                ZipEntry e = entries.nextElement();
                if (e.getName().endsWith(".java")) {
                    try (InputStream in = zf.getInputStream(e)) {
                        written += in.transferTo(out);
                    }
                }
            }
        }
    }

    /** The JDK's sources ({@link DataFiles#srcZip}); IOException if there are none. */
    private static Path srcZip() throws IOException {
        Path p = DataFiles.srcZip();
        if (p == null) {
            throw new IOException("no lib/src.zip of this JDK or one beside it");
        }
        return p;
    }

    private static void manPages(OutputStream out, List<String> langs, boolean latin1) throws IOException {
        List<Path> pages = new ArrayList<>();
        for (String lang : langs) {
            Path d = Path.of("/usr/share/man", lang);
            if (!Files.isDirectory(d)) {
                throw new IOException(d + " is missing (Debian package manpages-" + lang + ")");
            }
            try (Stream<Path> s = Files.walk(d)) {
                s.filter(p -> p.toString().endsWith(".gz") && Files.isRegularFile(p)).sorted().forEach(pages::add);
            }
        }
        for (Path page : pages) {
            byte[] text;
            try (InputStream in = new GZIPInputStream(Files.newInputStream(page))) {
                text = in.readAllBytes();
            }
            if (latin1) {
                text = new String(text, StandardCharsets.UTF_8).getBytes(StandardCharsets.ISO_8859_1);
            }
            out.write(text);
        }
    }

    static void warm(Path p) throws IOException {
        DataFiles.warm(p);
    }

    /** Reads {@code r} to the end with reads into {@code buf}, closes it, and returns a sum of what it read. */
    static long drain(java.io.Reader r, char[] buf) throws IOException {
        try (r) {
            long sum = 0;
            int n;
            while ((n = r.read(buf, 0, buf.length)) >= 0) {
                sum += n + buf[n - 1];
            }
            return sum;
        }
    }
}
