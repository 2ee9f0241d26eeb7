package dev.sluice.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.file.FastFiles;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TextCounts' rules, each against what GNU wc 9.1 printed for the same bytes ({@code printf ... | LC_ALL=C.UTF-8
 * wc -lwmcL}, glibc 2.36); sluice-cli's WcDifferentialTest compares with the installed wc on generated inputs.
 */
class TextCountsTest {
    private static final long SEED = Long.getLong("sluice.test.seed", System.nanoTime());

    @TempDir
    Path dir;

    /** Input in hex, and wc -lwmcL's "lines words chars bytes width" for it. */
    private static final String[][] GNU_WC = {
        {"61c2a062", "0 2 3 4 3"}, // U+00A0, a no-break space, separates words
        {"61e2808762", "0 2 3 5 3"}, // U+2007 too
        {"61e281a062", "0 2 3 5 2"}, // U+2060: a separator of width 0
        {"61e3808062", "0 2 3 5 4"}, // U+3000: a separator of width 2
        {"61e280a862", "0 1 3 5 2"}, // U+2028 is not printable: neither ends nor is in a word
        {"61eda08062", "0 1 2 5 2"}, // a surrogate does not decode: three bytes, no char
        {"61f490808062", "0 1 3 6 2"}, // glibc decodes beyond U+10FFFF (not printable)
        {"61f88880808062", "0 1 3 7 2"}, // and five-byte sequences
        {"61c08062", "0 1 2 4 2"}, // overlong: no char
        {"61e381", "0 1 1 3 1"}, // cut by the end: no char
        {"e38161", "0 1 1 3 1"}, // cut by an ASCII byte
        {"6101622063", "0 2 5 5 4"}, // a control char inside a word
        {"61ff62", "0 1 2 3 2"}, // an invalid byte neither
        {"610062", "0 1 3 3 2"}, // NUL is a char
        {"61c28562", "0 1 3 4 2"}, // U+0085, a C1 control
        {"61620b63640c650d66", "0 4 9 9 4"}, // \v separates; \f and \r end the width
        {"610962", "0 2 3 3 9"}, // a tab to the next multiple of 8
        {"e38182cc8178", "0 1 3 6 3"}, // wide (2) and combining (0)
        {"6109622020e38182cc81780d0a7a7affc2a071017720e280a80af888808080e381", "2 5 20 33 14"},
    };

    @Test
    void countsAsGnuWc() throws IOException {
        for (String[] c : GNU_WC) {
            TextCounts t = TextCounts.count(new ByteArrayInputStream(HexFormat.of().parseHex(c[0])),
                    StandardCharsets.UTF_8);
            assertEquals(c[1], t.lines() + " " + t.words() + " " + t.chars() + " " + t.bytes() + " "
                    + t.maxLineWidth(), c[0]);
        }
    }

    /** Text of every kind the loop tells apart: ASCII words and controls, NUL runs, 2..6-byte and invalid bytes. */
    private static byte[] mixed(Random r, int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[] pieces = {"word", " ", "\n", "\n\n", "\t", "\r\n", "\f", "\u000b", "\u0001", "\u00e9", "\u65e5\u672c",
            "\u3000", "\u00a0", "\ud83d\ude00", "\u0301", "x".repeat(30), "\u0000".repeat(24)};
        while (out.size() < size) {
            int k = r.nextInt(pieces.length + 3);
            if (k < pieces.length) {
                out.writeBytes(pieces[k].getBytes(StandardCharsets.UTF_8));
            } else if (k == pieces.length) {
                out.writeBytes(HexFormat.of().parseHex(r.nextBoolean() ? "f888808080" : "fc8480808080"));
            } else {
                out.write(0x80 + r.nextInt(0x80)); // mostly invalid
            }
        }
        return out.toByteArray();
    }

    /**
     * Chunks never change a count: a stream that returns 1..13 bytes a read (sequences cut everywhere) and a channel
     * that returns up to a prime number of bytes give what one read of everything gives.
     */
    @Test
    void shortReadsCountAsOneRead() throws IOException {
        System.out.println("TextCountsTest seed: " + SEED);
        Random r = new Random(SEED);
        for (int round = 0; round < 20; round++) {
            byte[] text = mixed(r, r.nextInt(200_000));
            TextCounts whole = TextCounts.count(new ByteArrayInputStream(text), StandardCharsets.UTF_8);
            Random reads = new Random(SEED + round);
            InputStream trickle = new ByteArrayInputStream(text) {
                @Override
                public synchronized int read(byte[] b, int off, int len) {
                    return super.read(b, off, Math.min(len, 1 + reads.nextInt(13)));
                }
            };
            assertEquals(whole, TextCounts.count(trickle, StandardCharsets.UTF_8), "seed " + SEED);
            assertEquals(whole, TextCounts.count(channel(text, 70_001), StandardCharsets.UTF_8), "seed " + SEED);
            assertEquals(text.length, whole.bytes());
        }
    }

    /**
     * countLines is count's lines: every byte value around 0x0A (0x0A itself, 0x8A, 0x0B, 0x09, 0x00, 0xFF) at every
     * alignment and length, and reads of up to a prime number of bytes, so the eight-byte steps and the tail both run.
     */
    @Test
    void countLinesIsCountsLines() throws IOException {
        Random r = new Random(SEED);
        byte[] values = {0x0A, (byte) 0x8A, 0x0B, 0x09, 0x00, (byte) 0xFF, 'a'};
        for (int round = 0; round < 300; round++) {
            byte[] text = round % 3 == 0 ? mixed(r, r.nextInt(70_000)) : new byte[r.nextInt(600)];
            if (round % 3 != 0) {
                for (int i = 0; i < text.length; i++) {
                    text[i] = values[r.nextInt(values.length)];
                }
            }
            long lines = TextCounts.count(new ByteArrayInputStream(text), StandardCharsets.UTF_8).lines();
            assertEquals(lines, TextCounts.countLines(channel(text, 1 + r.nextInt(70_001))), "seed " + SEED);
        }
        Path file = Files.write(dir.resolve("lines"), mixed(r, 300_000)); // more than one 256 KiB read
        assertEquals(FastFiles.countText(file, StandardCharsets.UTF_8).lines(), FastFiles.countLines(file));
        assertThrows(NullPointerException.class, () -> TextCounts.countLines(null));
        assertThrows(java.nio.file.NoSuchFileException.class, () -> FastFiles.countLines(dir.resolve("missing")));
        assertThrows(IOException.class, () -> FastFiles.countLines(dir));
    }

    private static ReadableByteChannel channel(byte[] text, int most) {
        ByteBuffer src = ByteBuffer.wrap(text);
        return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer dst) {
                if (!src.hasRemaining()) {
                    return -1;
                }
                int n = Math.min(Math.min(most, dst.remaining()), src.remaining());
                dst.put(src.slice().limit(n));
                src.position(src.position() + n);
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {}
        };
    }

    /** ISO-8859-1 text counts as the same text in UTF-8, every byte a char; US-ASCII's bytes above 0x7F are none. */
    @Test
    void latin1AndAscii() throws IOException {
        byte[] all = new byte[256 * 3];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) (i % 3 == 2 ? ' ' : i / 3);
        }
        TextCounts latin1 = TextCounts.count(new ByteArrayInputStream(all), StandardCharsets.ISO_8859_1);
        byte[] utf8 = new String(all, StandardCharsets.ISO_8859_1).getBytes(StandardCharsets.UTF_8);
        TextCounts asUtf8 = TextCounts.count(new ByteArrayInputStream(utf8), StandardCharsets.UTF_8);
        assertEquals(TextCounts.of(asUtf8.lines(), asUtf8.words(), asUtf8.chars(), all.length, asUtf8.maxLineWidth()),
                latin1);
        assertEquals(all.length, latin1.chars());
        TextCounts ascii = TextCounts.count(new ByteArrayInputStream(all), StandardCharsets.US_ASCII);
        byte[] low = new byte[128 * 3];
        System.arraycopy(all, 0, low, 0, low.length);
        TextCounts lowUtf8 = TextCounts.count(new ByteArrayInputStream(low), StandardCharsets.UTF_8);
        assertEquals(lowUtf8.chars() + 128, ascii.chars()); // of the high bytes' groups only the spaces count
        assertEquals(lowUtf8.words(), ascii.words());
    }

    @Test
    void aPathIsOpenedAndClosedAStreamIsLeftOpen() throws IOException {
        Path p = Files.write(dir.resolve("t"), "one two\nthree\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(TextCounts.of(2, 3, 14, 14, 7), FastFiles.countText(p, StandardCharsets.UTF_8));
        boolean[] closed = {false};
        InputStream in = new ByteArrayInputStream(new byte[] {'x'}) {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        TextCounts.count(in, StandardCharsets.UTF_8);
        assertTrue(!closed[0]);
        assertThrows(IOException.class, () -> FastFiles.countText(dir, StandardCharsets.UTF_8));
    }

    @Test
    void badArguments() {
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> TextCounts.count((InputStream) null, StandardCharsets.UTF_8));
        assertTrue(npe.getMessage().contains("in"), npe.getMessage());
        npe = assertThrows(NullPointerException.class,
                () -> TextCounts.count(new ByteArrayInputStream(new byte[0]), (Charset) null));
        assertTrue(npe.getMessage().contains("charset"), npe.getMessage());
        IllegalArgumentException iae = assertThrows(IllegalArgumentException.class,
                () -> TextCounts.count(new ByteArrayInputStream(new byte[0]), StandardCharsets.UTF_16));
        assertTrue(iae.getMessage().contains("UTF-16"), iae.getMessage());
        iae = assertThrows(IllegalArgumentException.class, () -> TextCounts.of(0, -1, 0, 0, 0));
        assertTrue(iae.getMessage().contains("words"), iae.getMessage());
    }

    /** The total line: counts added, the widest line the wider one. */
    @Test
    void plusIsWcsTotal() {
        TextCounts a = TextCounts.of(1, 2, 3, 4, 50);
        TextCounts b = TextCounts.of(10, 20, 30, 40, 5);
        assertEquals(TextCounts.of(11, 22, 33, 44, 50), a.plus(b));
        assertEquals(a, a.plus(TextCounts.EMPTY));
        assertEquals(a.hashCode(), TextCounts.of(1, 2, 3, 4, 50).hashCode());
        assertEquals("TextCounts[lines=1, words=2, chars=3, bytes=4, maxLineWidth=50]", a.toString());
    }
}
