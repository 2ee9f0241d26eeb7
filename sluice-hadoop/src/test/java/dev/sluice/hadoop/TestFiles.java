package dev.sluice.hadoop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Gzip files for the tests, written here independently of the codec's own writer, exactly per the formats agreed in
 * docs/design.md: Sluice members (raw deflate, no dictionary, the 'SL' subfield with total and uncompressed size) and
 * BGZF blocks ('BC' subfield, BSIZE = block size - 1, the 28-byte EOF block).
 */
final class TestFiles {
    private TestFiles() {}

    /** One Sluice member per payload, deflated at {@code level} (0: stored, so payload bytes appear verbatim). */
    static byte[] sluiceMembers(List<byte[]> payloads, int level) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : payloads) {
            out.writeBytes(sluiceMember(p, level));
        }
        return out.toByteArray();
    }

    static byte[] sluiceMember(byte[] payload, int level) {
        byte[] deflated = deflate(payload, level);
        long total = 12 + 20 + deflated.length + 8;
        ByteArrayOutputStream m = new ByteArrayOutputStream();
        m.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 4, 0, 0, 0, 0, 0, (byte) 255, 20, 0, 'S', 'L', 16, 0});
        le(m, total, 8);
        le(m, payload.length, 8);
        m.writeBytes(deflated);
        trailer(m, payload);
        return m.toByteArray();
    }

    /** BGZF: blocks of at most {@code blockInput} input bytes (<= 65280 as htslib), then the EOF block. */
    static byte[] bgzf(byte[] data, int blockInput) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int off = 0; off < data.length; off += blockInput) {
            byte[] p = java.util.Arrays.copyOfRange(data, off, Math.min(data.length, off + blockInput));
            out.writeBytes(bgzfBlock(p));
        }
        out.writeBytes(bgzfBlock(new byte[0]));
        return out.toByteArray();
    }

    private static byte[] bgzfBlock(byte[] payload) {
        byte[] deflated = deflate(payload, 6);
        if (deflated.length > 65536 - 26) {
            deflated = deflate(payload, 0);
        }
        int total = 18 + deflated.length + 8;
        ByteArrayOutputStream m = new ByteArrayOutputStream();
        m.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 4, 0, 0, 0, 0, 0, (byte) 255, 6, 0, 'B', 'C', 2, 0});
        le(m, total - 1, 2);
        m.writeBytes(deflated);
        trailer(m, payload);
        return m.toByteArray();
    }

    /** What gzip writes: one member, no extra field. */
    static byte[] plainGzip(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A fixture of this package (made by make-fixtures.sh beside it). */
    static byte[] resource(String name) {
        try (java.io.InputStream in = TestFiles.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the JDK's GZIPInputStream makes of {@code gz}: the reference the tests compare with. */
    static byte[] gunzip(byte[] gz) {
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] deflate(byte[] payload, int level) {
        Deflater d = new Deflater(level, true);
        try {
            d.setInput(payload);
            d.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            while (!d.finished()) {
                out.write(buf, 0, d.deflate(buf));
            }
            return out.toByteArray();
        } finally {
            d.end();
        }
    }

    private static void trailer(ByteArrayOutputStream m, byte[] payload) {
        CRC32 crc = new CRC32();
        crc.update(payload);
        le(m, crc.getValue(), 4);
        le(m, payload.length, 4);
    }

    private static void le(ByteArrayOutputStream out, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (v >>> (8 * i)));
        }
    }

    /** {@code data} cut into pieces at the given sizes, cycling through them. */
    static List<byte[]> cut(byte[] data, int... sizes) {
        List<byte[]> pieces = new ArrayList<>();
        int off = 0;
        for (int i = 0; off < data.length; i++) {
            int n = Math.min(sizes[i % sizes.length], data.length - off);
            pieces.add(java.util.Arrays.copyOfRange(data, off, off + n));
            off += n;
        }
        return pieces;
    }

    /** The lines LineReader's default rules find: ended by LF, CR or CR LF; a last unterminated line counts. */
    static List<String> lines(byte[] data) {
        List<String> lines = new ArrayList<>();
        int startOfLine = 0;
        for (int i = 0; i < data.length; i++) {
            if (data[i] == '\n' || data[i] == '\r') {
                lines.add(new String(data, startOfLine, i - startOfLine, StandardCharsets.UTF_8));
                if (data[i] == '\r' && i + 1 < data.length && data[i + 1] == '\n') {
                    i++;
                }
                startOfLine = i + 1;
            }
        }
        if (startOfLine < data.length) {
            lines.add(new String(data, startOfLine, data.length - startOfLine, StandardCharsets.UTF_8));
        }
        return lines;
    }
}
