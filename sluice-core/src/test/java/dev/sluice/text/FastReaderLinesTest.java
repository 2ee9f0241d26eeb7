package dev.sluice.text;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testing.HostileInputStream;
import dev.sluice.testing.HostileInputStream.Mode;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** readLine, forEachLine and lines() against BufferedReader, alone and mixed with reads and skips. */
class FastReaderLinesTest {
    private static final long SEED = Long.getLong("sluice.test.seed", 0x11AE5L);

    private static final String[] EDGE_CASES = {
        "", "\n", "\r", "\r\n", "\n\r", "\r\r", "\n\n", "a", "a\n", "a\r", "a\r\n", "a\rb", "a\nb", "a\r\nb",
        "\r\n\r\n", "\r\r\n\n", "a\r\r\nb\n\rc", "\u00e9\r\n\u65e5\r\uD83D\uDE00\n", "\r\n\r\n\r"
    };

    private static List<String> jdkLines(byte[] bytes) throws IOException {
        return jdkLines(bytes, UTF_8);
    }

    private static List<String> jdkLines(byte[] bytes, Charset cs) throws IOException {
        try (BufferedReader br = new BufferedReader(new InputStreamReader(new ByteArrayInputStream(bytes), cs))) {
            return br.lines().collect(Collectors.toList());
        }
    }

    /**
     * Malformed bytes between line ends, in all three hand-decoded charsets: lines found before decoding must be
     * decoded (by readLine's String and by forEachLine's own loop) exactly as the JDK decodes the whole stream.
     */
    @Test
    void malformedBytesInLinesMatchTheJdk() throws IOException {
        Random rnd = new Random(SEED + 2);
        for (int round = 0; round < 300; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            byte[] bytes = TextSamples.randomBytes(r, 1 + r.nextInt(round < 200 ? 100 : 3000));
            Charset cs = round % 5 == 0 ? ISO_8859_1 : round % 5 == 1 ? US_ASCII : UTF_8;
            List<String> expected = jdkLines(bytes, cs);
            int size = 16 + r.nextInt(40);
            Mode mode = Mode.values()[r.nextInt(3)];
            try (FastReader fr = FastReader.builder(cs).bufferSize(size).build(HostileInputStream.of(bytes, mode, seed))) {
                List<String> got = new ArrayList<>();
                String line;
                while ((line = fr.readLine()) != null) {
                    got.add(line);
                }
                assertEquals(expected, got, "seed " + seed + ", " + cs);
            }
            try (FastReader fr = FastReader.builder(cs).bufferSize(size).build(HostileInputStream.of(bytes, mode, seed))) {
                List<String> got = new ArrayList<>();
                fr.forEachLine(l -> got.add(l.toString()));
                assertEquals(expected, got, "seed " + seed + ", " + cs + " forEachLine");
            }
        }
    }

    @Test
    void lineEndingEdgeCasesAtEveryBufferSize() throws IOException {
        for (String text : EDGE_CASES) {
            for (String pad : new String[] {"", "x", "xxxxxxxxxxxxxxx", "xxxxxxxxxxxxxxxx"}) {
                String s = pad + text + pad + text;
                byte[] bytes = s.getBytes(UTF_8);
                List<String> expected = jdkLines(bytes);
                for (int size = 16; size <= 20; size++) {
                    for (Mode mode : Mode.values()) {
                        String what = "text " + escape(s) + ", buffer " + size + ", " + mode;
                        try (FastReader r = reader(bytes, size, mode)) {
                            List<String> got = new ArrayList<>();
                            String line;
                            while ((line = r.readLine()) != null) {
                                got.add(line);
                            }
                            assertEquals(expected, got, what);
                            assertEquals(null, r.readLine(), what);
                        }
                        try (FastReader r = reader(bytes, size, mode)) {
                            List<String> got = new ArrayList<>();
                            assertEquals(expected.size(), r.forEachLine(l -> got.add(l.toString())), what);
                            assertEquals(expected, got, what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void randomTextLinesMatchAcrossBufferSizes() throws IOException {
        Random rnd = new Random(SEED);
        for (int round = 0; round < 40; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            // Long lines now and then: they outgrow the buffer and must be kept whole.
            String text = TextSamples.randomText(r, 1 + r.nextInt(4000), true)
                    + (r.nextBoolean() ? "y".repeat(r.nextInt(3000)) : "");
            byte[] bytes = text.getBytes(UTF_8);
            List<String> expected = jdkLines(bytes);
            int size = 16 + r.nextInt(200);
            Mode mode = Mode.values()[r.nextInt(3)];
            try (FastReader fr = reader(bytes, size, mode); Stream<String> lines = fr.lines()) {
                assertEquals(expected, lines.collect(Collectors.toList()), "seed " + seed);
            }
            try (FastReader fr = reader(bytes, size, mode)) {
                List<String> got = new ArrayList<>();
                fr.forEachLine(l -> {
                    StringBuilder sb = new StringBuilder(l.length());
                    for (int i = 0; i < l.length(); i++) {
                        sb.append(l.charAt(i));
                    }
                    assertEquals(sb.toString(), l.toString());
                    if (l.length() > 2) {
                        assertEquals(sb.substring(1, 3), l.subSequence(1, 3).toString());
                    }
                    got.add(sb.toString());
                });
                assertEquals(expected, got, "seed " + seed);
            }
        }
    }

    /**
     * Seeded random sequences of read(), read-fully(k), readLine() and skip(k) give the same results on both readers:
     * a '\n' after a line's '\r' is skipped by whichever call comes next, as BufferedReader does.
     */
    @Test
    void randomOperationSequencesMatchBufferedReader() throws IOException {
        Random rnd = new Random(SEED + 1);
        for (int round = 0; round < 300; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            String text = TextSamples.randomText(r, 1 + r.nextInt(600), true);
            byte[] bytes = text.getBytes(UTF_8);
            BufferedReader br = new BufferedReader(new InputStreamReader(new ByteArrayInputStream(bytes), UTF_8), 16);
            FastReader fr = reader(bytes, 16 + r.nextInt(40), Mode.values()[r.nextInt(3)]);
            StringBuilder log = new StringBuilder("seed " + seed + ":");
            for (int op = 0; op < 200; op++) {
                int k = 1 + r.nextInt(30);
                switch (r.nextInt(4)) {
                    case 0 -> {
                        log.append(" read()");
                        assertEquals(br.read(), fr.read(), log::toString);
                    }
                    case 1 -> {
                        log.append(" readFully(").append(k).append(')');
                        assertEquals(readFully(br, k), readFully(fr, k), log::toString);
                    }
                    case 2 -> {
                        log.append(" readLine()");
                        assertEquals(br.readLine(), fr.readLine(), log::toString);
                    }
                    default -> {
                        log.append(" skip(").append(k).append(')');
                        assertEquals(skipFully(br, k), skipFully(fr, k), log::toString);
                    }
                }
            }
            fr.close();
        }
    }

    /**
     * An action that reads from the reader itself, or throws, or closes it: forEachLine re-reads the reader's state
     * after every line, so the rest comes out as BufferedReader gives it.
     */
    @Test
    void forEachLineActionsThatUseTheReader() throws IOException {
        Random rnd = new Random(SEED + 3);
        for (int round = 0; round < 200; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            String text = TextSamples.randomText(r, 1 + r.nextInt(600), true);
            byte[] bytes = text.getBytes(UTF_8);
            int size = 16 + r.nextInt(100);
            Mode mode = Mode.values()[r.nextInt(3)];
            int every = 1 + r.nextInt(4);
            // The model: after every {every}-th line, one char read; that read may take the LF of a CR LF.
            List<String> expected = new ArrayList<>();
            try (BufferedReader br = new BufferedReader(
                    new InputStreamReader(new ByteArrayInputStream(bytes), UTF_8))) {
                String line;
                int n = 0;
                while ((line = br.readLine()) != null) {
                    expected.add(line);
                    if (++n % every == 0) {
                        expected.add("read " + br.read());
                    }
                }
            }
            try (FastReader fr = reader(bytes, size, mode)) {
                List<String> got = new ArrayList<>();
                int[] n = {0};
                fr.forEachLine(l -> {
                    got.add(l.toString());
                    if (++n[0] % every == 0) {
                        try {
                            got.add("read " + fr.read());
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                });
                assertEquals(expected, got, "seed " + seed);
            }
            // An action that throws at line k: the reader continues after line k.
            List<String> all = jdkLines(bytes);
            if (all.size() > 1) {
                int k = r.nextInt(all.size() - 1);
                try (FastReader fr = reader(bytes, size, mode)) {
                    int[] n = {0};
                    assertThrows(IllegalStateException.class, () -> fr.forEachLine(l -> {
                        if (n[0]++ == k) {
                            throw new IllegalStateException();
                        }
                    }));
                    assertEquals(all.get(k + 1), fr.readLine(), "seed " + seed);
                }
                try (FastReader fr = reader(bytes, size, mode)) {
                    int[] n = {0};
                    assertThrows(IOException.class, () -> fr.forEachLine(l -> {
                        if (n[0]++ == k) {
                            try {
                                fr.close();
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        }
                    }));
                    assertEquals(k + 1, n[0], "seed " + seed + ": no line after close");
                }
            }
        }
    }

    @Test
    void forEachLineCountsAndHandsTheSameViewEachTime() throws IOException {
        byte[] bytes = "one\ntwo\r\nthree".getBytes(UTF_8);
        List<CharSequence> seen = new ArrayList<>();
        try (FastReader r = reader(bytes, 16, Mode.FULL)) {
            assertEquals(3, r.forEachLine(seen::add));
        }
        assertTrue(seen.get(0) == seen.get(1) && seen.get(1) == seen.get(2), "one reused view");
        assertThrows(IndexOutOfBoundsException.class, () -> seen.get(0).charAt(5));
        assertThrows(IndexOutOfBoundsException.class, () -> seen.get(0).subSequence(2, 1));
        assertFalse(seen.get(0).isEmpty());
    }

    @Test
    void linesStreamWrapsIoExceptionsAndClosesTheReader() throws IOException {
        byte[] bytes = "a\nb\nc\n".repeat(100).getBytes(UTF_8);
        HostileInputStream in = new HostileInputStream(bytes, Mode.FULL, 0, false, 50);
        FastReader r = FastReader.builder(UTF_8).bufferSize(16).build(in);
        try (Stream<String> lines = r.lines()) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> lines.forEach(l -> { }));
            assertTrue(e.getCause() instanceof HostileInputStream.InjectedIOException);
        }
        assertEquals(1, in.closeCount());
        assertThrows(IOException.class, r::readLine);
    }

    private static FastReader reader(byte[] bytes, int size, Mode mode) {
        return FastReader.builder(UTF_8).bufferSize(size).build(HostileInputStream.of(bytes, mode, size));
    }

    private static String readFully(Reader r, int k) throws IOException {
        char[] buf = new char[k];
        int n = 0;
        while (n < k) {
            int m = r.read(buf, n, k - n);
            if (m < 0) {
                break;
            }
            n += m;
        }
        return new String(buf, 0, n);
    }

    private static long skipFully(Reader r, int k) throws IOException {
        long n = 0;
        while (n < k) {
            long m = r.skip(k - n);
            if (m <= 0) {
                if (r.read() < 0) {
                    break;
                }
                m = 1;
            }
            n += m;
        }
        return n;
    }

    private static String escape(String s) {
        return s.replace("\r", "\\r").replace("\n", "\\n");
    }
}
