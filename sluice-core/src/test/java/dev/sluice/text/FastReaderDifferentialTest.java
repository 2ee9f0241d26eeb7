package dev.sluice.text;

import static dev.sluice.text.TextSamples.jdkDecode;
import static dev.sluice.text.TextSamples.jdkFirstError;
import static dev.sluice.text.TextSamples.readAll;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.testing.HostileInputStream;
import dev.sluice.testing.HostileInputStream.Mode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.Charset;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * FastReader against InputStreamReader (and new String(bytes, cs)): the same chars for every input, whatever the
 * buffer size, the read size and the way the source cuts its reads. Each random case prints its seed.
 */
class FastReaderDifferentialTest {
    private static final long SEED = Long.getLong("sluice.test.seed", 0x5EED_7E47L);

    /** Decodes with our reader: a given buffer size, source behaviour and read size. */
    private static String ours(byte[] bytes, Charset cs, int bufferSize, Mode mode, long seed, int chunk)
            throws IOException {
        try (FastReader r = FastReader.builder(cs).bufferSize(bufferSize)
                .build(HostileInputStream.of(bytes, mode, seed))) {
            return readAll(r, chunk);
        }
    }

    @Test
    void randomTextOverAllPlanesAtEveryBufferAlignment() throws IOException {
        Random rnd = new Random(SEED);
        for (int round = 0; round < 60; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            String text = TextSamples.randomText(r, 1 + r.nextInt(round < 40 ? 300 : 5000), false);
            // A short ASCII prefix shifts every sequence against the 8-byte words the ASCII path reads.
            String shifted = "abcdefg".substring(0, r.nextInt(8)) + text;
            byte[] bytes = shifted.getBytes(UTF_8);
            String expected = jdkDecode(bytes, UTF_8);
            assertEquals(shifted, expected, "the JDK round-trips well-formed text");
            int bufferSize = 16 + r.nextInt(round < 40 ? 24 : 9000);
            for (Mode mode : Mode.values()) {
                for (int chunk : new int[] {1, 2, 3, 17, 8192}) {
                    String got = ours(bytes, UTF_8, bufferSize, mode, seed, chunk);
                    if (!expected.equals(got)) {
                        fail("seed " + seed + ", buffer " + bufferSize + ", " + mode + ", chunk " + chunk + ": "
                                + firstDifference(expected, got));
                    }
                }
            }
        }
    }

    @Test
    void everyBufferSizeFrom16To40OverOneText() throws IOException {
        String text = TextSamples.randomText(new Random(SEED), 400, false);
        byte[] bytes = text.getBytes(UTF_8);
        for (int bufferSize = 16; bufferSize <= 40; bufferSize++) {
            for (int chunk = 1; chunk <= 9; chunk++) {
                assertEquals(text, ours(bytes, UTF_8, bufferSize, Mode.FULL, 1, chunk),
                        "buffer " + bufferSize + ", chunk " + chunk);
            }
        }
    }

    @Test
    void randomMalformedBytesGiveTheJdksReplacements() throws IOException {
        Random rnd = new Random(SEED + 1);
        for (int round = 0; round < 400; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            byte[] bytes = TextSamples.randomBytes(r, 1 + r.nextInt(200));
            String expected = jdkDecode(bytes, UTF_8);
            assertEquals(expected, new String(bytes, UTF_8), "seed " + seed + ": String and InputStreamReader agree");
            assertDecodesAs(expected, bytes, 16 + r.nextInt(20), Mode.values()[r.nextInt(3)], seed, 1 + r.nextInt(20));
        }
    }

    /** Our reader decodes {@code bytes} to {@code expected}; the failure names everything needed to replay it. */
    private static void assertDecodesAs(String expected, byte[] bytes, int bufferSize, Mode mode, long seed, int chunk)
            throws IOException {
        String got = ours(bytes, UTF_8, bufferSize, mode, seed, chunk);
        if (!expected.equals(got)) {
            fail("seed " + seed + ", buffer " + bufferSize + ", " + mode + ", chunk " + chunk + ", bytes "
                    + hex(bytes) + ": " + firstDifference(expected, got));
        }
    }

    /**
     * Long ASCII runs (64 bytes and more go to the JDK's decoder in a window) between malformed bytes and multi-byte
     * chars, so that windows end inside sequences and malformed input falls inside and at the edge of windows.
     */
    @Test
    void longAsciiRunsBetweenMalformedAndMultiByteInput() throws IOException {
        Random rnd = new Random(SEED + 6);
        for (int round = 0; round < 60; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (out.size() < 6000) {
                byte[] run = new byte[r.nextInt(1300)];
                for (int i = 0; i < run.length; i++) {
                    run[i] = (byte) (0x20 + r.nextInt(0x5F));
                }
                out.write(run, 0, run.length);
                byte[] other = r.nextBoolean() ? TextSamples.randomBytes(r, 1 + r.nextInt(5))
                        : TextSamples.randomText(r, 1 + r.nextInt(4), false).getBytes(UTF_8);
                out.write(other, 0, other.length);
            }
            byte[] bytes = out.toByteArray();
            String expected = jdkDecode(bytes, UTF_8);
            int bufferSize = 16 + r.nextInt(3000);
            Mode mode = Mode.values()[r.nextInt(3)];
            int chunk = 1 + r.nextInt(2000);
            String got = ours(bytes, UTF_8, bufferSize, mode, seed, chunk);
            if (!expected.equals(got)) {
                fail("seed " + seed + ", buffer " + bufferSize + ", " + mode + ", chunk " + chunk + ": "
                        + firstDifference(expected, got));
            }
        }
    }

    /**
     * TextDecoder's ASCII paths by run length: under 8 bytes (one wide word), 8 to 63 (a word at a time), 64 and more
     * (the JDK's window while the text has been all ASCII; after a window that was not, runs found by hand, until one
     * of 4 KiB and more brings the windows back). Runs of every class end on every kind of byte: multi-byte chars,
     * malformed bytes, sequences cut short, and a refill (buffers of 16 to 100 bytes, 8 KiB and up to 28 KiB; caller
     * arrays smaller and larger than the buffer), in replacement and in strict mode.
     */
    @Test
    void asciiRunsOfEveryLengthAroundTheWideWordsAndTheJdkWindows() throws IOException {
        Random rnd = new Random(SEED + 9);
        int[][] lengths = {{1, 8}, {8, 64}, {64, 200}, {900, 1200}, {4000, 9000}};
        for (int round = 0; round < 80; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int target = round < 40 ? 3000 : 40000;
            while (out.size() < target) {
                int[] range = lengths[r.nextInt(round < 40 ? 3 : lengths.length)];
                byte[] run = new byte[range[0] + r.nextInt(range[1] - range[0])];
                for (int i = 0; i < run.length; i++) {
                    run[i] = (byte) (0x20 + r.nextInt(0x5F));
                }
                out.write(run, 0, run.length);
                byte[] other;
                switch (r.nextInt(4)) {
                    case 0 -> other = TextSamples.randomBytes(r, 1 + r.nextInt(4));
                    case 1 -> other = lengthClassRuns(r, 1 + r.nextInt(12));
                    default -> {
                        // Japanese-like: a run of 3-byte chars, as in the man pages the benchmarks read.
                        StringBuilder jp = new StringBuilder();
                        for (int i = r.nextInt(30); i >= 0; i--) {
                            jp.append((char) (0x3041 + r.nextInt(0x9FA0 - 0x3041)));
                        }
                        other = jp.toString().getBytes(UTF_8);
                    }
                }
                out.write(other, 0, other.length);
            }
            byte[] bytes = out.toByteArray();
            String expected = jdkDecode(bytes, UTF_8);
            int[] sizes = {16 + r.nextInt(85), 8192, 8193 + r.nextInt(20000)};
            int size = sizes[r.nextInt(sizes.length)];
            Mode mode = Mode.values()[r.nextInt(Mode.values().length)];
            int[] chunks = {1 + r.nextInt(40), 8192, size + 1 + r.nextInt(30000)};
            int chunk = chunks[r.nextInt(chunks.length)];
            assertDecodesAs(expected, bytes, size, mode, seed, chunk);
            int[] error = jdkFirstError(bytes, UTF_8);
            FastReader strict = FastReader.builder(UTF_8).strict().bufferSize(size)
                    .build(HostileInputStream.of(bytes, mode, seed));
            StringBuilder got = new StringBuilder();
            char[] buf = new char[chunk];
            try (strict) {
                int n;
                while ((n = strict.read(buf, 0, buf.length)) >= 0) {
                    got.append(buf, 0, n);
                }
                assertNull(error, "seed " + seed + ": strict mode found no error");
            } catch (MalformedTextException e) {
                assertEquals(error == null ? -1 : error[0], e.getByteOffset(), "seed " + seed + " strict offset");
                assertEquals(expected.substring(0, error[2]), got.toString(), "seed " + seed + " strict chars");
            }
        }
    }

    /**
     * TextDecoder's loop per length class: runs of ASCII, of 2-byte, 3-byte and 4-byte chars, each run as long as a
     * loop may stay in it, with malformed bytes and sequences cut short (the first bytes of a valid char) between
     * them; through buffers of 16 to 100 bytes and 8 KiB, so that runs, pairs of 3-byte chars and bad sequences are
     * cut by every refill, and at the end of the input.
     */
    @Test
    void runsOfEachLengthClassWithMalformedAndCutSequencesAtBufferBoundaries() throws IOException {
        Random rnd = new Random(SEED + 7);
        for (int round = 0; round < 150; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            byte[] bytes = lengthClassRuns(r, 1 + r.nextInt(round < 100 ? 400 : 6000));
            String expected = jdkDecode(bytes, UTF_8);
            for (int size : new int[] {16 + r.nextInt(85), 8192}) {
                assertDecodesAs(expected, bytes, size, Mode.values()[r.nextInt(Mode.values().length)], seed,
                        r.nextBoolean() ? 8192 : 1 + r.nextInt(40));
            }
        }
    }

    /** Strict mode over the same runs: the chars before the JDK's first error, then its offset and length. */
    @Test
    void strictModeOverRunsOfEachLengthClassStopsWhereTheJdkDoes() throws IOException {
        Random rnd = new Random(SEED + 8);
        for (int round = 0; round < 150; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            byte[] bytes = lengthClassRuns(r, 1 + r.nextInt(600));
            int[] error = jdkFirstError(bytes, UTF_8);
            int size = r.nextBoolean() ? 8192 : 16 + r.nextInt(85);
            FastReader fr = FastReader.builder(UTF_8).strict().bufferSize(size)
                    .build(HostileInputStream.of(bytes, Mode.values()[r.nextInt(Mode.values().length)], seed));
            StringBuilder got = new StringBuilder();
            char[] buf = new char[1 + r.nextInt(r.nextBoolean() ? 10 : 9000)];
            try {
                int n;
                while ((n = fr.read(buf, 0, buf.length)) >= 0) {
                    got.append(buf, 0, n);
                }
                assertNull(error, "seed " + seed + ": no exception, the JDK reports one at " + (error == null ? ""
                        : error[0]));
                assertEquals(jdkDecode(bytes, UTF_8), got.toString(), "seed " + seed);
            } catch (MalformedTextException e) {
                if (error == null) {
                    fail("seed " + seed + ": " + e.getMessage() + " but the JDK decodes " + hex(bytes));
                }
                assertEquals(error[0], e.getByteOffset(), "seed " + seed + " offset, bytes " + hex(bytes));
                assertEquals(error[1], e.getInputLength(), "seed " + seed + " length, bytes " + hex(bytes));
                assertEquals(jdkDecode(bytes, UTF_8).substring(0, error[2]), got.toString(), "seed " + seed);
            }
        }
    }

    /** Runs of one UTF-8 length class each, with a malformed or cut sequence after about one run in three. */
    static byte[] lengthClassRuns(Random r, int length) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringBuilder run = new StringBuilder();
        while (out.size() < length) {
            run.setLength(0);
            int n = r.nextInt(r.nextBoolean() ? 4 : 40);
            int kind = r.nextInt(4);
            for (int i = 0; i < n; i++) {
                switch (kind) {
                    case 0 -> run.append((char) (0x20 + r.nextInt(0x5F)));
                    case 1 -> run.append((char) (0x80 + r.nextInt(0x800 - 0x80)));
                    case 2 -> {
                        char c;
                        do {
                            c = (char) (0x800 + r.nextInt(0x10000 - 0x800));
                        } while (Character.isSurrogate(c));
                        run.append(c);
                    }
                    default -> run.appendCodePoint(0x10000 + r.nextInt(0x110000 - 0x10000));
                }
            }
            byte[] b = run.toString().getBytes(UTF_8);
            out.write(b, 0, b.length);
            int bad = r.nextInt(6);
            if (bad == 0) {
                byte[] edge = TextSamples.randomBytes(r, 1 + r.nextInt(3));
                out.write(edge, 0, edge.length);
            } else if (bad == 1) {
                // The first bytes of a valid 2-, 3- or 4-byte char, without the rest.
                byte[] whole = new String(Character.toChars(
                        new int[] {0x80 + r.nextInt(0x780), 0x3042 + r.nextInt(0x5000), 0x1F600 + r.nextInt(0x50)}[
                                r.nextInt(3)])).getBytes(UTF_8);
                out.write(whole, 0, 1 + r.nextInt(whole.length - 1));
            }
        }
        return out.toByteArray();
    }

    /**
     * Every sequence of up to three bytes whose first byte is not ASCII, alone (so truncated at EOF) and followed by
     * "A": overlong forms, surrogates (ED A0..BF), 5/6-byte leaders, bytes past U+10FFFF, truncation.
     */
    @Test
    void everyShortSequenceMatchesTheJdk() throws IOException {
        int[] thirds = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0, 0xFF};
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int b1 = 0x80; b1 <= 0xFF; b1++) {
            check(new byte[] {(byte) b1});
            for (int b2 = 0; b2 <= 0xFF; b2++) {
                check(new byte[] {(byte) b1, (byte) b2});
                for (int b3 : thirds) {
                    byte[] seq = {(byte) b1, (byte) b2, (byte) b3};
                    check(seq);
                    check(new byte[] {(byte) b1, (byte) b2, (byte) b3, (byte) 0x80, 'A'});
                    all.write(seq, 0, 3);
                }
            }
        }
        // All of them back to back, through 1-byte reads: sequences straddle every read.
        byte[] bytes = all.toByteArray();
        assertEquals(jdkDecode(bytes, UTF_8), ours(bytes, UTF_8, 8192, Mode.ONE_BYTE, 1, 4096));
        assertEquals(jdkDecode(bytes, UTF_8), ours(bytes, UTF_8, 16, Mode.RANDOM_SHORT, 2, 5));
    }

    /**
     * The eight-byte paths (short ASCII runs, pairs of 3-byte chars) run only with 32 bytes to spare, so short inputs
     * never reach them: here every kind of bad 3-byte form (overlong, surrogate, a broken continuation) sits first and
     * second in a would-be pair, at every alignment, inside long Japanese-like text.
     */
    @Test
    void malformedThreeByteFormsWhereTheEightBytePathsRun() throws IOException {
        int[][] bad = {
            {0xE0, 0x80, 0x80}, {0xE0, 0x9F, 0xBF}, {0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xE0, 0xA0, 0x41},
            {0xEF, 0x41, 0x80}, {0xE3, 0xC1, 0x82}, {0xEF, 0xBF, 0xBF}
        };
        byte[] jp = "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8".getBytes(UTF_8);
        byte[] one = "\u3042".getBytes(UTF_8);
        for (int[] seq : bad) {
            for (int second = 0; second < 2; second++) {
                for (int shift = 0; shift < 8; shift++) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    for (int rep = 0; rep < 6; rep++) {
                        out.write("abcdefg".getBytes(UTF_8), 0, shift);
                        out.write(jp, 0, jp.length);
                        out.write(one, 0, second * one.length);
                        for (int x : seq) {
                            out.write(x);
                        }
                        out.write(jp, 0, jp.length);
                        out.write(" ab ".getBytes(UTF_8), 0, 4);
                    }
                    byte[] bytes = out.toByteArray();
                    String expected = jdkDecode(bytes, UTF_8);
                    // Large buffers for the wide paths; short reads and small buffers for their edges at refills.
                    for (Mode mode : Mode.values()) {
                        for (int size : new int[] {8192, 70}) {
                            for (int chunk : new int[] {8192, 13}) {
                                String got = ours(bytes, UTF_8, size, mode, shift, chunk);
                                if (!expected.equals(got)) {
                                    fail(hex(bytes) + ", " + mode + ", buffer " + size + ", chunk " + chunk + ": "
                                            + firstDifference(expected, got));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private static void check(byte[] bytes) throws IOException {
        String expected = jdkDecode(bytes, UTF_8);
        String got = ours(bytes, UTF_8, 16, Mode.FULL, 0, 64);
        if (!expected.equals(got)) {
            fail(hex(bytes) + ": " + firstDifference(expected, got));
        }
    }

    @Test
    void fourByteSequencesIntoOneCharReadsKeepTheLowSurrogate() throws IOException {
        String text = "a\uD83D\uDE00b\uD800\uDC00\uDBFF\uDFFF";
        byte[] bytes = text.getBytes(UTF_8);
        for (Mode mode : Mode.values()) {
            assertEquals(text, ours(bytes, UTF_8, 16, mode, 3, 1));
            try (FastReader r = FastReader.of(HostileInputStream.of(bytes, mode, 3), UTF_8)) {
                StringBuilder sb = new StringBuilder();
                int c;
                while ((c = r.read()) >= 0) {
                    sb.append((char) c);
                }
                assertEquals(text, sb.toString());
            }
        }
    }

    @Test
    void latin1AndAsciiMatchTheJdkOnAllBytes() throws IOException {
        Random rnd = new Random(SEED + 2);
        for (int round = 0; round < 50; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            byte[] bytes = new byte[1 + r.nextInt(3000)];
            r.nextBytes(bytes);
            if (r.nextBoolean()) {
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] &= r.nextInt(10) == 0 ? 0xFF : 0x7F; // mostly ASCII, exercising the 8-byte path
                }
            }
            for (Charset cs : new Charset[] {ISO_8859_1, US_ASCII}) {
                String expected = jdkDecode(bytes, cs);
                Mode mode = Mode.values()[r.nextInt(3)];
                assertEquals(expected, ours(bytes, cs, 16 + r.nextInt(100), mode, seed, 1 + r.nextInt(50)),
                        "seed " + seed + ", " + cs);
            }
        }
    }

    @Test
    void otherCharsetsBehaveExactlyAsTheJdk() throws IOException {
        Random r = new Random(SEED + 3);
        String text = TextSamples.randomText(r, 2000, false);
        for (String name : new String[] {"UTF-16", "UTF-16LE", "windows-1252", "Shift_JIS", "EUC-JP"}) {
            Charset cs = Charset.forName(name);
            byte[] bytes = text.getBytes(cs);
            String expected = jdkDecode(bytes, cs);
            assertEquals(expected, ours(bytes, cs, 64, Mode.RANDOM_SHORT, 4, 7), name);
            try (FastReader fr = FastReader.of(Channels.newChannel(new ByteArrayInputStream(bytes)), cs)) {
                assertEquals(expected, readAll(fr, 100), name + " from a channel");
            }
            // Lines of other charsets are found in decoded chars (a CR or LF byte may be half of a UTF-16 unit).
            try (FastReader fr = FastReader.builder(cs).bufferSize(32).build(new ByteArrayInputStream(bytes));
                 java.io.BufferedReader br = new java.io.BufferedReader(
                         new java.io.InputStreamReader(new ByteArrayInputStream(bytes), cs))) {
                java.util.List<String> got = new java.util.ArrayList<>();
                fr.forEachLine(l -> got.add(l.toString()));
                assertEquals(br.lines().collect(java.util.stream.Collectors.toList()), got, name + " lines");
            }
        }
    }

    @Test
    void channelSourceMatchesStreamSource() throws IOException {
        Random r = new Random(SEED + 4);
        for (int round = 0; round < 20; round++) {
            byte[] bytes = round % 2 == 0 ? TextSamples.randomText(r, 3000, true).getBytes(UTF_8)
                    : TextSamples.randomBytes(r, 3000);
            try (FastReader fr = FastReader.builder(UTF_8).bufferSize(37)
                    .build(Channels.newChannel(new ByteArrayInputStream(bytes)))) {
                assertEquals(jdkDecode(bytes, UTF_8), readAll(fr, 13), "round " + round);
            }
        }
    }

    @Test
    void strictModeThrowsAtTheJdksOffsetAfterReturningTheCharsBeforeIt() throws IOException {
        Random rnd = new Random(SEED + 5);
        int errors = 0;
        for (int round = 0; round < 300; round++) {
            long seed = rnd.nextLong();
            Random r = new Random(seed);
            String prefix = TextSamples.randomText(r, r.nextInt(60), false);
            byte[] tail = TextSamples.randomBytes(r, 1 + r.nextInt(8));
            byte[] p = prefix.getBytes(UTF_8);
            byte[] bytes = new byte[p.length + tail.length];
            System.arraycopy(p, 0, bytes, 0, p.length);
            System.arraycopy(tail, 0, bytes, p.length, tail.length);
            int[] error = jdkFirstError(bytes, UTF_8);
            Mode mode = Mode.values()[r.nextInt(3)];
            FastReader fr = FastReader.builder(UTF_8).strict().bufferSize(16 + r.nextInt(10))
                    .build(HostileInputStream.of(bytes, mode, seed));
            StringBuilder got = new StringBuilder();
            char[] buf = new char[1 + r.nextInt(10)];
            try {
                int n;
                while ((n = fr.read(buf, 0, buf.length)) >= 0) {
                    got.append(buf, 0, n);
                }
                assertNull(error, "seed " + seed + ": no exception, the JDK reports " + (error == null ? ""
                        : "offset " + error[0] + " length " + error[1]));
                assertEquals(jdkDecode(bytes, UTF_8), got.toString(), "seed " + seed);
            } catch (MalformedTextException e) {
                errors++;
                if (error == null) {
                    fail("seed " + seed + ": " + e.getMessage() + " but the JDK decodes " + hex(bytes));
                }
                assertEquals(error[0], e.getByteOffset(), "seed " + seed + " offset, bytes " + hex(bytes));
                assertEquals(error[1], e.getInputLength(), "seed " + seed + " length, bytes " + hex(bytes));
                assertEquals(jdkDecode(bytes, UTF_8).substring(0, error[2]), got.toString(), "seed " + seed);
                assertEquals("Malformed UTF-8 input at byte offset " + error[0] + ", input length = " + error[1],
                        e.getMessage());
                // The reader stays at the bad sequence: reading again throws again.
                assertThrows(MalformedTextException.class, () -> fr.read(buf, 0, buf.length));
            }
        }
        assertEquals(true, errors > 100, "most rounds hit malformed input: " + errors);
    }

    @Test
    void strictAsciiThrowsAtTheFirstHighByte() throws IOException {
        byte[] bytes = "hello, w\u00f6rld".getBytes(ISO_8859_1);
        FastReader fr = FastReader.builder(US_ASCII).strict().build(new ByteArrayInputStream(bytes));
        char[] buf = new char[100];
        assertEquals(8, fr.read(buf, 0, 100));
        MalformedTextException e = assertThrows(MalformedTextException.class, () -> fr.read(buf, 0, 100));
        assertEquals(8, e.getByteOffset());
        assertEquals(1, e.getInputLength());
    }

    @Test
    void byteOrderMarkIsKeptByDefaultAndDroppedOnRequest() throws IOException {
        byte[] bytes = "\uFEFFhi\uFEFF".getBytes(UTF_8);
        assertEquals("\uFEFFhi\uFEFF", ours(bytes, UTF_8, 16, Mode.ONE_BYTE, 0, 10));
        for (Mode mode : Mode.values()) {
            try (FastReader r = FastReader.builder(UTF_8).skipBom().build(HostileInputStream.of(bytes, mode, 0))) {
                assertEquals("hi\uFEFF", readAll(r, 3));
            }
            try (FastReader r = FastReader.builder(UTF_8).skipBom().build(HostileInputStream.of(bytes, mode, 0))) {
                assertEquals("hi\uFEFF", r.readLine());
            }
        }
        for (String s : new String[] {"", "\u00ef", "\u00ef\u00bb", "ab"}) {
            byte[] b = s.getBytes(ISO_8859_1);
            try (FastReader r = FastReader.builder(UTF_8).skipBom().build(HostileInputStream.of(b, Mode.ONE_BYTE, 0))) {
                assertEquals(jdkDecode(b, UTF_8), readAll(r, 3), "short input " + hex(b));
            }
        }
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02X ", x));
        }
        return sb.toString().trim();
    }

    static String firstDifference(String expected, String got) {
        int i = 0;
        while (i < expected.length() && i < got.length() && expected.charAt(i) == got.charAt(i)) {
            i++;
        }
        return "lengths " + expected.length() + " vs " + got.length() + ", first difference at char " + i
                + ": expected " + codes(expected, i) + ", got " + codes(got, i);
    }

    private static String codes(String s, int from) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < Math.min(s.length(), from + 6); i++) {
            sb.append(String.format("U+%04X ", (int) s.charAt(i)));
        }
        return sb.toString();
    }
}
