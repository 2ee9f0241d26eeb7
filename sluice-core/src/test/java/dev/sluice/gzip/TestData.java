package dev.sluice.gzip;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/** Test data, fixtures and hostile streams shared by the gzip tests. Test code only. */
final class TestData {
    private TestData() {}

    /** Bytes that compress like text: words from a small vocabulary, lines of random length. */
    static byte[] text(Random r, int size) {
        String[] words = {"sluice", "gzip", "member", "header", "deflate", "trailer", "crc", "buffer", "stream",
            "the", "of", "and", "inflate", "block", "window", "dictionary"};
        StringBuilder sb = new StringBuilder(size + 16);
        while (sb.length() < size) {
            sb.append(words[r.nextInt(words.length)]).append(r.nextInt(8) == 0 ? '\n' : ' ');
        }
        return sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] random(Random r, int size) {
        byte[] b = new byte[size];
        r.nextBytes(b);
        return b;
    }

    /** Half text, half random: compresses some, and has both literals and matches. */
    static byte[] mixed(Random r, int size) {
        byte[] b = text(r, size);
        for (int i = 0; i < size; i += 4096) {
            byte[] noise = random(r, Math.min(1024, size - i));
            System.arraycopy(noise, 0, b, i, noise.length);
        }
        return b;
    }

    /** One gzip member made with the JDK's Deflater (raw) and {@link GzipHeader#encode}. */
    static byte[] member(GzipHeader header, byte[] data, int level) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header.encode(0));
        Deflater d = new Deflater(level, true);
        d.setInput(data);
        d.finish();
        byte[] buf = new byte[8192];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        CRC32 crc = new CRC32();
        crc.update(data);
        writeIntLe(out, (int) crc.getValue());
        writeIntLe(out, data.length);
        return out.toByteArray();
    }

    static void writeIntLe(ByteArrayOutputStream out, int v) {
        for (int i = 0; i < 4; i++) {
            out.write(v >>> (8 * i));
        }
    }

    static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) >= 0; ) {
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    static Path fixtureDir() {
        try {
            return Path.of(TestData.class.getResource("MANIFEST").toURI()).getParent();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One line of the fixtures' MANIFEST: what {@code gzip -dc} made of the file, and its exit code. */
    record Fixture(Path file, String sha256, long size, int gzipExit) {
        byte[] bytes() {
            try {
                return Files.readAllBytes(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public String toString() {
            return file.getFileName().toString();
        }
    }

    static List<Fixture> fixtures() throws IOException {
        Path dir = fixtureDir();
        List<Fixture> list = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("MANIFEST"))) {
            String[] f = line.trim().split(" ");
            list.add(new Fixture(dir.resolve(f[0]), f[1], Long.parseLong(f[2]), Integer.parseInt(f[3])));
        }
        return list;
    }

    static String sha256(byte[] b) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(b);
            StringBuilder sb = new StringBuilder();
            for (byte x : d) {
                sb.append(String.format("%02x", x));
            }
            return sb.toString();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Returns at most one byte per read: the hostile source that finds boundary bugs. */
    static final class OneByteInputStream extends FilterInputStream {
        OneByteInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return super.read(b, off, Math.min(len, 1));
        }
    }

    /** Returns random short reads (seeded), sometimes 0 bytes, as a pipe or socket may. */
    static final class RandomShortInputStream extends FilterInputStream {
        private final Random r;

        RandomShortInputStream(InputStream in, long seed) {
            super(in);
            r = new Random(seed);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len > 0 && r.nextInt(16) == 0) {
                return 0;
            }
            return super.read(b, off, Math.min(len, 1 + r.nextInt(Math.min(len, 700))));
        }
    }

    /** Delivers {@code good} bytes, then throws on every read. */
    static final class ThrowingInputStream extends InputStream {
        private final byte[] data;
        private int pos;
        boolean closed;

        ThrowingInputStream(byte[] data) {
            this.data = data;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (pos == data.length) {
                throw new IOException("disk on fire");
            }
            int n = Math.min(len, data.length - pos);
            System.arraycopy(data, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
