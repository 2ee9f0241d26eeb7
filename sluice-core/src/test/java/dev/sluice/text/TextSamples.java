package dev.sluice.text;

import dev.sluice.testing.HostileInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.util.Arrays;
import java.util.Random;

/** Seeded text and byte generators shared by the text tests, and the JDK reference decodings. */
final class TextSamples {
    private TextSamples() {}

    /** Bytes that start, end or break UTF-8 sequences: the ones malformed-input tests should hit often. */
    static final int[] EDGE_BYTES = {
        0x00, 0x0A, 0x0D, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
        0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF
    };

    /**
     * A random string over all Unicode planes: mostly ASCII with line terminators, Latin and Greek (2-byte UTF-8),
     * CJK (3-byte), supplementary characters (4-byte, surrogate pairs) and, if {@code loneSurrogates}, unpaired
     * surrogates.
     */
    static String randomText(Random rnd, int length, boolean loneSurrogates) {
        StringBuilder sb = new StringBuilder(length + 2);
        while (sb.length() < length) {
            int kind = rnd.nextInt(100);
            if (kind < 40) {
                sb.append((char) (0x20 + rnd.nextInt(0x5F)));
            } else if (kind < 50) {
                sb.append("\n\r \t".charAt(rnd.nextInt(4)));
            } else if (kind < 53) {
                sb.append("\r\n");
            } else if (kind < 63) {
                sb.append((char) (0x80 + rnd.nextInt(0x800 - 0x80)));
            } else if (kind < 83) {
                int c;
                do {
                    c = 0x800 + rnd.nextInt(0x10000 - 0x800);
                } while (Character.isSurrogate((char) c));
                sb.append((char) c);
            } else if (kind < 97 || !loneSurrogates) {
                sb.appendCodePoint(0x10000 + rnd.nextInt(0x110000 - 0x10000));
            } else {
                sb.append((char) (0xD800 + rnd.nextInt(0x800)));
            }
        }
        return sb.toString();
    }

    /** Random bytes, half of them from {@link #EDGE_BYTES}, with runs of valid UTF-8 between. */
    static byte[] randomBytes(Random rnd, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            int k = rnd.nextInt(4);
            b[i] = (byte) (k < 2 ? EDGE_BYTES[rnd.nextInt(EDGE_BYTES.length)] : k == 2 ? rnd.nextInt(256)
                    : 0x80 + rnd.nextInt(0x40));
        }
        return b;
    }

    /** What readAll puts in its array before each read: a reader must not change it outside what it returns. */
    private static final char UNTOUCHED = '\u0007';

    /** Reads r to the end, chunk chars at a time, checking that no read writes outside the chars it returns. */
    static String readAll(Reader r, int chunk) throws IOException {
        StringBuilder sb = new StringBuilder();
        // The request sits inside a larger array: a read must not touch the chars before off or past off + n.
        int off = 5;
        char[] buf = new char[off + chunk + 9];
        int n;
        for (;;) {
            Arrays.fill(buf, UNTOUCHED);
            if ((n = r.read(buf, off, chunk)) < 0) {
                break;
            }
            if (n == 0) {
                throw new AssertionError("read returned 0 for a non-empty request");
            }
            for (int i = 0; i < buf.length; i++) {
                if (buf[i] != UNTOUCHED && (i < off || i >= off + n)) {
                    throw new AssertionError("read(buf, " + off + ", " + chunk + ") returned " + n + " but wrote buf["
                            + i + "]");
                }
            }
            sb.append(buf, off, n);
        }
        return sb.toString();
    }

    /** The JDK's answer: InputStreamReader with its default replacement. */
    static String jdkDecode(byte[] bytes, Charset cs) throws IOException {
        try (Reader r = new InputStreamReader(new ByteArrayInputStream(bytes), cs)) {
            return readAll(r, 4096);
        }
    }

    /** The JDK's strict answer: the offset and length of the first malformed sequence, or null if none. */
    static int[] jdkFirstError(byte[] bytes, Charset cs) {
        CharsetDecoder dec = cs.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length * 2 + 4);
        CoderResult cr = dec.decode(in, out, true);
        if (cr.isError()) {
            return new int[] {in.position(), cr.length(), out.position()};
        }
        return null;
    }

    /** A source over {@code bytes}: whole reads, 1-byte reads or random short reads. */
    static InputStream source(byte[] bytes, HostileInputStream.Mode mode, long seed) {
        return HostileInputStream.of(bytes, mode, seed);
    }
}
