package dev.sluice.text;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.testing.HostileOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.charset.Charset;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** FastWriter against String.getBytes and OutputStreamWriter, with random ways of cutting the writes. */
class FastWriterTest {
    private static final long SEED = Long.getLong("sluice.test.seed", 0x3717E5L);
    private static final Charset[] CHARSETS = {UTF_8, ISO_8859_1, US_ASCII, Charset.forName("windows-1252")};

    @Test
    void wholeStringsRoundTripAgainstGetBytes() throws IOException {
        Random rnd = new Random(SEED);
        for (int round = 0; round < 100; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            String text = TextSamples.randomText(r, r.nextInt(5000), true);
            for (Charset cs : CHARSETS) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (FastWriter w = FastWriter.of(out, cs, 16 + r.nextInt(100))) {
                    w.write(text);
                }
                assertArrayEquals(text.getBytes(cs), out.toByteArray(), "seed " + seed + ", " + cs);
            }
        }
    }

    /** Random writes of chars, arrays, strings and appends: surrogate pairs split between writes. */
    @Test
    void randomWriteSequencesMatchOutputStreamWriter() throws IOException {
        Random rnd = new Random(SEED + 1);
        for (int round = 0; round < 200; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            String text = TextSamples.randomText(r, r.nextInt(2000), true);
            Charset cs = CHARSETS[r.nextInt(CHARSETS.length)];
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            HostileOutputStream got = new HostileOutputStream();
            boolean viaChannel = r.nextBoolean();
            Writer jdk = new OutputStreamWriter(expected, cs);
            FastWriter ours = viaChannel ? FastWriter.of(Channels.newChannel(got), cs) : FastWriter.of(got, cs, 16 + r.nextInt(50));
            int pos = 0;
            while (pos < text.length()) {
                int n = Math.min(text.length() - pos, r.nextInt(40));
                switch (r.nextInt(5)) {
                    case 0 -> {
                        jdk.write(text.charAt(pos));
                        ours.write(text.charAt(pos));
                        n = 1;
                    }
                    case 1 -> {
                        char[] a = ("##" + text.substring(pos, pos + n) + "#").toCharArray();
                        jdk.write(a, 2, n);
                        ours.write(a, 2, n);
                    }
                    case 2 -> {
                        jdk.write(text, pos, n);
                        ours.write(text, pos, n);
                    }
                    case 3 -> {
                        jdk.append(text, pos, pos + n);
                        ours.append(text, pos, pos + n);
                    }
                    default -> {
                        jdk.flush();
                        ours.flush();
                        n = 0;
                    }
                }
                pos += n;
            }
            jdk.close();
            ours.close();
            assertArrayEquals(expected.toByteArray(), got.toByteArray(), "seed " + seed + ", " + cs);
            assertEquals(1, got.closeCount(), "seed " + seed);
        }
    }

    @Test
    void loneSurrogatesBecomeQuestionMarks() throws IOException {
        for (String s : new String[] {"\uD800", "a\uDC00b", "\uD800\uD800\uDC00", "\uDC00\uD800", "x\uD83D"}) {
            for (Charset cs : new Charset[] {UTF_8, ISO_8859_1, US_ASCII}) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (FastWriter w = FastWriter.of(out, cs)) {
                    for (char c : s.toCharArray()) {
                        w.write(c);
                    }
                }
                assertArrayEquals(s.getBytes(cs), out.toByteArray(), cs + " " + s.length());
            }
        }
    }

    @Test
    void flushKeepsAWaitingHighSurrogate() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FastWriter w = FastWriter.of(out, UTF_8);
        w.write("a\uD83D");
        w.flush();
        assertArrayEquals(new byte[] {'a'}, out.toByteArray());
        w.write("\uDE00");
        w.close();
        assertArrayEquals("a\uD83D\uDE00".getBytes(UTF_8), out.toByteArray());
    }

    @Test
    void badInputAndClosedStream() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThrows(NullPointerException.class, () -> FastWriter.of((java.io.OutputStream) null, UTF_8));
        assertThrows(NullPointerException.class, () -> FastWriter.of(out, null));
        assertThrows(IllegalArgumentException.class, () -> FastWriter.of(out, UTF_8, 0));
        FastWriter w = FastWriter.of(out, UTF_8);
        assertThrows(IndexOutOfBoundsException.class, () -> w.write(new char[4], 3, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> w.write("abc", -1, 1));
        assertThrows(NullPointerException.class, () -> w.write((char[]) null, 0, 0));
        w.close();
        w.close();
        IOException e = assertThrows(IOException.class, () -> w.write('x'));
        assertEquals("Stream closed", e.getMessage());
        assertThrows(IOException.class, () -> w.write("x"));
        assertThrows(IOException.class, w::flush);
    }

    @Test
    void closeClosesTheStreamEvenWhenTheLastWriteFails() {
        HostileOutputStream out = new HostileOutputStream();
        FastWriter w = FastWriter.of(out, UTF_8);
        out.failWrites = true;
        assertThrows(IOException.class, () -> {
            w.write("pending");
            w.close();
        });
        assertEquals(1, out.closeCount());
    }
}
