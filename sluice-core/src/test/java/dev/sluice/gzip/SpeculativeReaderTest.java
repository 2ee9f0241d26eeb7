package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link MarkerInflater} and {@link BlockFinder} against the JDK's Inflater, and {@link SpeculativeReader} against
 * the one-thread {@link GzipInputStream}: byte for byte, and exception type for exception type on corrupt, truncated
 * and trailing-garbage input. Tiny chunks make every chunk boundary, false candidate and fallback happen on small
 * data. Seeded; the seed is printed.
 */
@Timeout(120)
class SpeculativeReaderTest {

    /** Raw deflate of {@code data} with random flushes (empty stored blocks), levels and strategies per stretch. */
    static byte[] deflate(Random r, byte[] data, int level, int strategy) {
        Deflater d = new Deflater(level, true);
        d.setStrategy(strategy);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        int at = 0;
        while (at < data.length) {
            int n = Math.min(data.length - at, 1 + r.nextInt(40_000));
            d.setInput(data, at, n);
            at += n;
            if (r.nextInt(4) == 0) {
                d.setLevel(r.nextInt(10));
            }
            int flush = r.nextInt(3) == 0 ? Deflater.SYNC_FLUSH : r.nextInt(6) == 0 ? Deflater.FULL_FLUSH
                    : Deflater.NO_FLUSH;
            for (int k; (k = d.deflate(buf, 0, buf.length, flush)) > 0 || !d.needsInput(); ) {
                out.write(buf, 0, k);
            }
        }
        d.finish();
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(b)) {
            g.write(data);
        }
        return b.toByteArray();
    }

    /** A gzip member around raw deflate data. */
    static byte[] member(byte[] data, byte[] deflated) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(data);
        byte[] m = new byte[10 + deflated.length + 8];
        m[0] = 0x1f;
        m[1] = (byte) 0x8b;
        m[2] = 8;
        m[9] = 3;
        System.arraycopy(deflated, 0, m, 10, deflated.length);
        GzipMembers.putLe(m, 10 + deflated.length, crc.getValue(), 4);
        GzipMembers.putLe(m, 14 + deflated.length, data.length, 4);
        return m;
    }

    static byte[] inflate(byte[] deflated) throws Exception {
        Inflater i = new Inflater(true);
        i.setInput(deflated);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] b = new byte[65536];
        while (!i.finished()) {
            int n = i.inflate(b);
            if (n == 0 && (i.needsInput() || i.needsDictionary())) {
                throw new AssertionError("truncated");
            }
            out.write(b, 0, n);
        }
        i.end();
        return out.toByteArray();
    }

    private static byte[] data(Random r, int size) {
        switch (r.nextInt(3)) {
            case 0:
                return TestData.text(r, size);
            case 1:
                return TestData.mixed(r, size);
            default:
                return TestData.random(r, size);
        }
    }

    @Test
    void markerInflaterMatchesInflaterFromEveryBoundaryItReaches() throws Exception {
        long seed = Long.getLong("seed", new Random().nextLong());
        System.out.println("SpeculativeReaderTest seed " + seed);
        Random r = new Random(seed);
        MarkerInflater m = new MarkerInflater();
        int found = 0;
        int falseFirst = 0;
        for (int t = 0; t < 30; t++) {
            byte[] data = data(r, r.nextInt(300_000));
            int[] strategies = {Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY};
            byte[] def = deflate(r, data, r.nextInt(10), strategies[r.nextInt(3)]);
            assertArrayEquals(data, inflate(def), "seed " + seed);
            byte[] in = Arrays.copyOf(def, def.length + 16);
            // Whole stream from its start.
            assertEquals(MarkerInflater.MEMBER_END, m.decode(in, def.length, 0, Long.MAX_VALUE, true,
                    Integer.MAX_VALUE - 16, Integer.MAX_VALUE - 16), "seed " + seed);
            assertEquals(data.length, m.length);
            assertArrayEquals(data, m.toArray(null), "seed " + seed);
            // From true boundaries at random stops: the known prefix, then markers resolved from its window.
            for (int s = 0; s < 5; s++) {
                long stop = (long) r.nextInt(Math.max(1, def.length)) * 8;
                int st = m.decode(in, def.length, 0, stop, true, Integer.MAX_VALUE - 16, Integer.MAX_VALUE - 16);
                if (st != MarkerInflater.BOUNDARY) {
                    continue;
                }
                int prefix = m.length;
                long boundary = m.endBit;
                // The finder from a little before the boundary finds it, or an earlier false candidate.
                long c = BlockFinder.next(m, in, def.length, Math.max(0, boundary - 200), boundary + 1);
                if (c >= 0) {
                    found++;
                    if (c != boundary) {
                        falseFirst++;
                    }
                }
                st = m.decode(in, def.length, boundary, Long.MAX_VALUE, false, Integer.MAX_VALUE - 16,
                        Integer.MAX_VALUE - 16);
                assertEquals(MarkerInflater.MEMBER_END, st, "seed " + seed);
                byte[] window = new byte[MarkerInflater.WINDOW];
                int wl = Math.min(prefix, window.length);
                System.arraycopy(data, prefix - wl, window, window.length - wl, wl);
                assertTrue(m.minMarker >= MarkerInflater.WINDOW - wl, "seed " + seed);
                byte[] rest = m.toArray(window);
                assertArrayEquals(Arrays.copyOfRange(data, prefix, data.length), rest, "seed " + seed);
            }
        }
        System.out.println("finder: " + found + " candidates near true boundaries, " + falseFirst + " first false");
    }

    /** Inputs: one or more members (JDK gzip, raw deflate with flushes), trailing zeros or garbage, sometimes. */
    private static byte[] input(Random r, int maxSize) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int members = r.nextInt(4) == 0 ? 2 + r.nextInt(3) : 1;
        for (int i = 0; i < members; i++) {
            byte[] data = data(r, r.nextInt(4) == 0 ? r.nextInt(100) : r.nextInt(maxSize));
            if (r.nextBoolean()) {
                b.write(gzip(data));
            } else {
                int[] strategies = {Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY};
                b.write(member(data, deflate(r, data, r.nextInt(10), strategies[r.nextInt(3)])));
            }
        }
        int tail = r.nextInt(8);
        if (tail == 0) {
            b.write(new byte[1 + r.nextInt(100)]);
        } else if (tail == 1) {
            b.write(new byte[r.nextInt(3)]);
            b.write(1 + r.nextInt(255));
            b.write(new byte[r.nextInt(20)]);
        }
        return b.toByteArray();
    }

    private static void same(byte[] gz, int threads, int chunk, int ahead, boolean ignore, String what)
            throws IOException {
        Speculative.Outcome want = Speculative.serial(gz, ignore);
        Speculative.Outcome got = Speculative.speculative(gz, threads, chunk, ahead, ignore);
        if (want.failure() == null) {
            if (got.failure() != null) {
                throw new AssertionError(what + ": unexpected " + got.failure(), got.failure());
            }
            assertArrayEquals(want.bytes(), got.bytes(), what);
            assertEquals(want.garbageIgnored(), got.garbageIgnored(), what);
        } else {
            assertEquals(want.failure().getClass(), got.failure() == null ? null : got.failure().getClass(),
                    what + ": " + want.failure() + " vs " + got.failure());
            // Bytes before the exception: a prefix of what zlib decodes before it fails (the one-thread stream
            // returns less where its read that fails had decoded more into its buffer).
            int n = got.bytes().length;
            byte[] ref = want.bytes();
            if (n > ref.length || !Arrays.equals(ref, 0, n, got.bytes(), 0, n)) {
                ref = Speculative.zlibPrefix(gz);
            }
            assertTrue(n <= ref.length + 1, what + ": " + n + " bytes before the failure");
            assertArrayEquals(Arrays.copyOf(ref, Math.min(n, ref.length)), Arrays.copyOf(got.bytes(), Math.min(n,
                    ref.length)), what);
        }
    }

    @Test
    void sameBytesAndExceptionsAsOneThread() throws Exception {
        long seed = Long.getLong("seed", new Random().nextLong());
        System.out.println("SpeculativeReaderTest seed " + seed);
        Random r = new Random(seed);
        for (int t = 0; t < Integer.getInteger("cases", 60); t++) {
            int chunk = new int[] {17, 300, 4096, 20_000, 1 << 20}[r.nextInt(5)];
            byte[] gz = input(r, chunk < 1000 ? 20_000 : 200_000);
            int threads = 1 + r.nextInt(3);
            int ahead = r.nextInt(3) == 0 ? 0 : r.nextInt(gz.length + 1);
            boolean ignore = r.nextBoolean();
            String what = "seed " + seed + " case " + t + " chunk " + chunk;
            same(gz, threads, chunk, ahead, ignore, what);
            // Truncated, and with a flipped byte.
            if (gz.length > 20) {
                same(Arrays.copyOf(gz, 10 + r.nextInt(gz.length - 10)), threads, chunk, ahead, ignore,
                        what + " truncated");
                byte[] bad = gz.clone();
                int at = 10 + r.nextInt(gz.length - 10);
                bad[at] ^= (byte) (1 << r.nextInt(8));
                same(bad, threads, chunk, ahead, ignore, what + " flipped at " + at);
            }
        }
    }

    /**
     * CI's fuzzing found this shape (XLEN 768, a first subfield whose LEN 17154 runs past it): an extra field that is
     * not a list of subfields, in the first member the stream hands over and in a later one that the reader parses
     * itself. The one-thread stream passes over it (RFC 1952), so the reader must too, at every chunk size.
     */
    @Test
    void extraFieldsThatAreNotSubfieldsAreReadPastAsOnOneThread() throws Exception {
        byte[] extra = new byte[768];
        extra[0] = 'Z';
        extra[1] = 'Z';
        GzipMembers.putLe(extra, 2, 17154, 2);
        byte[] data = TestData.text(new Random(7), 50_000);
        byte[] odd = TestData.member(GzipHeader.builder().extra(extra).build(), data, 6);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(odd);
        b.write(gzip(data));
        b.write(odd);
        byte[] gz = b.toByteArray();
        Speculative.Outcome want = Speculative.serial(gz, false);
        assertEquals(null, want.failure());
        assertEquals(3 * data.length, want.bytes().length);
        for (int chunk : new int[] {17, 4096, 1 << 20}) {
            same(gz, 2, chunk, 0, false, "chunk " + chunk);
        }
    }

    @Test
    void speculationIsUsedOnOrdinaryGzip() throws Exception {
        Random r = new Random(42);
        byte[] data = TestData.text(r, 3 << 20);
        byte[] gz = gzip(data);
        int hl = 10;
        SpeculativeReader s = new SpeculativeReader(2, new java.io.ByteArrayInputStream(gz, hl, gz.length - hl),
                new byte[0], 0, 0, hl, null, false, 64 << 10);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ParallelInflate.Decoded d; (d = s.next()) != null; ) {
            byte[] b = new byte[d.len];
            d.out.get(0, b, 0, d.len);
            out.write(b);
            s.recycle(d);
        }
        s.close();
        assertArrayEquals(data, out.toByteArray());
        System.out.println("3 MiB text in 64 KiB chunks: " + s.stats());
        assertTrue(s.matched > s.redecoded, s.stats());
        assertEquals(0, s.engineFallbacks, s.stats());
    }

    /**
     * Issue 23's crafted incomplete and over-subscribed codes (HuffmanCodeVerdictsTest): the speculative path gives
     * the one-thread stream's verdict with this JVM's engine (zlib's, or ISA-L's, which accepts an incomplete code
     * whose missing codewords are unused): the Java decoder refuses them, and the engine decodes from that boundary.
     */
    @Test
    void huffmanCodeVerdictsAreTheEngines() throws IOException {
        for (HuffmanCodeVerdictsTest.Kind k : HuffmanCodeVerdictsTest.kinds()) {
            byte[] gz = HuffmanCodeVerdictsTest.member(HuffmanCodeVerdictsTest.deflate(k), "plain");
            for (int chunk : new int[] {7, 64, 1 << 16}) {
                String what = k + ", chunk " + chunk;
                Speculative.Outcome want = Speculative.serial(gz, false);
                Speculative.Outcome got = Speculative.speculative(gz, 2, chunk, chunk, false);
                if (want.failure() == null) {
                    assertArrayEquals(want.bytes(), got.bytes(), what);
                    assertEquals(null, got.failure(), what);
                } else {
                    // The same verdict; the bytes before it are the crafted block's data up to the missing codeword,
                    // as far as the decoder that found it returns them (ISA-L decodes an incomplete code until the
                    // data uses a missing codeword, and the one-thread stream drops what its failing call decoded).
                    assertEquals(want.failure().getClass(), got.failure() == null ? null : got.failure().getClass(),
                            what + ": " + want.failure() + " vs " + got.failure());
                    byte[] b = got.bytes();
                    assertTrue(b.length <= HuffmanCodeVerdictsTest.DATA.length, what);
                    assertArrayEquals(Arrays.copyOf(HuffmanCodeVerdictsTest.DATA, b.length), b, what);
                }
            }
        }
    }
}
