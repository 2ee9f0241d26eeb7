package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.gzip.TestData.Fixture;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GzipInputStreamTest {

    static List<Fixture> fixtures() throws IOException {
        return TestData.fixtures();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void decodesFixturesExactlyAsGzipDoes(Fixture f) throws IOException {
        byte[] gz = f.bytes();
        for (int mode = 0; mode < 3; mode++) {
            InputStream src = new ByteArrayInputStream(gz);
            src = mode == 1 ? new TestData.OneByteInputStream(src)
                    : mode == 2 ? new TestData.RandomShortInputStream(src, mode) : src;
            GzipInputStream in = GzipInputStream.builder().ignoreTrailingGarbage(f.gzipExit() == 2).build(src);
            byte[] out = TestData.readAll(in);
            assertEquals(f.size(), out.length, f + " mode " + mode);
            assertEquals(f.sha256(), TestData.sha256(out), f + " mode " + mode);
            assertEquals(f.gzipExit() == 2, in.trailingGarbageIgnored(), f + " garbage flag");
            in.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void trailingGarbageIsAnErrorByDefaultLikeGzipsWarning(Fixture f) throws IOException {
        GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(f.bytes()));
        if (f.gzipExit() == 0) {
            assertEquals(f.sha256(), TestData.sha256(TestData.readAll(in)));
        } else {
            ZipException e = assertThrows(ZipException.class, () -> TestData.readAll(in));
            assertTrue(e.getMessage().contains("trailing garbage") && e.getMessage().contains("offset 8749"),
                    e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void agreesWithTheJdkOnEveryValidFixture(Fixture f) throws IOException {
        if (f.gzipExit() != 0 || f.size() == 0) {
            return; // the JDK skips garbage silently and cannot start on a member-less stream
        }
        byte[] jdk = TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(f.bytes())));
        byte[] ours = TestData.readAll(new GzipInputStream(new ByteArrayInputStream(f.bytes())));
        assertArrayEquals(jdk, ours, f.toString());
    }

    @Test
    void exposesEveryHeaderField() throws IOException {
        GzipInputStream in = new GzipInputStream(Files.newInputStream(
                TestData.fixtureDir().resolve("python-all-fields.gz")));
        GzipHeader h = in.header();
        assertEquals("text.txt", h.name().orElseThrow());
        assertEquals("made by make-fixtures.sh", h.comment().orElseThrow());
        assertArrayEquals("Sl\4\0abcd".getBytes(StandardCharsets.ISO_8859_1), h.extra().orElseThrow());
        assertEquals(Instant.ofEpochSecond(1700000000), h.modificationTime().orElseThrow());
        assertTrue(h.text());
        assertTrue(h.headerCrc());
        assertEquals(GzipHeader.OS_UNIX, h.os());
        assertEquals(48035, TestData.readAll(in).length);
        assertEquals(h, in.header());
    }

    @Test
    void latin1NameAndGzipsStoredName() throws IOException {
        Path dir = TestData.fixtureDir();
        GzipInputStream in = new GzipInputStream(Files.newInputStream(dir.resolve("python-latin1-name.gz")));
        assertEquals("caf\u00e9.bin", in.header().name().orElseThrow());
        assertEquals(255, in.header().os());
        in.close();
        GzipInputStream g = new GzipInputStream(Files.newInputStream(dir.resolve("gzip-6.gz")));
        assertEquals("text.txt", g.header().name().orElseThrow());
        assertFalse(g.header().comment().isPresent());
        g.close();
    }

    @Test
    void headerOfEachMemberInTurn() throws IOException {
        byte[] a = TestData.member(GzipHeader.builder().name("a").build(), new byte[] {1, 2, 3}, 6);
        byte[] b = TestData.member(GzipHeader.builder().name("b").build(), new byte[] {4}, 6);
        GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(concat(a, b)));
        assertEquals("a", in.header().name().orElseThrow());
        byte[] buf = new byte[10];
        assertEquals(3, in.read(buf));
        assertEquals(1, in.read(buf));
        assertEquals("b", in.header().name().orElseThrow());
        assertEquals(-1, in.read(buf));
        assertEquals(-1, in.read());
    }

    @Test
    void crcMismatchNamesFieldValuesAndMember() throws IOException {
        byte[] a = TestData.member(GzipHeader.minimal(), "hello".getBytes(StandardCharsets.US_ASCII), 6);
        byte[] b = TestData.member(GzipHeader.minimal(), "world".getBytes(StandardCharsets.US_ASCII), 6);
        b[b.length - 8] ^= 1;
        ZipException e = assertThrows(ZipException.class,
                () -> TestData.readAll(new GzipInputStream(new ByteArrayInputStream(concat(a, b)))));
        assertTrue(e.getMessage().startsWith("CRC32 mismatch: expected 0x"), e.getMessage());
        assertTrue(e.getMessage().endsWith("in member at offset " + a.length), e.getMessage());
    }

    @Test
    void isizeMismatch() {
        byte[] a = TestData.member(GzipHeader.minimal(), new byte[1000], 6);
        a[a.length - 3] ^= 1;
        ZipException e = assertThrows(ZipException.class,
                () -> TestData.readAll(new GzipInputStream(new ByteArrayInputStream(a))));
        assertEquals("ISIZE mismatch: expected 744 (trailer), actual 1000 (decoded size mod 2^32) in member at"
                + " offset 0", e.getMessage());
    }

    @Test
    void headerCrcIsVerified() {
        byte[] a = TestData.member(GzipHeader.builder().headerCrc(true).name("n").build(), new byte[10], 6);
        a[4] ^= 1; // MTIME: harmless by itself, but covered by FHCRC
        ZipException e = assertThrows(ZipException.class,
                () -> TestData.readAll(new GzipInputStream(new ByteArrayInputStream(a))));
        assertTrue(e.getMessage().startsWith("header CRC16 (FHCRC) mismatch"), e.getMessage());
    }

    @Test
    void badMagicMethodAndFlags() {
        byte[] a = TestData.member(GzipHeader.minimal(), new byte[10], 6);
        byte[] magic = a.clone();
        magic[1] = (byte) 0x8c;
        assertEquals("not in gzip format: magic expected 0x1f8b, actual 0x1f8c at offset 0",
                assertThrows(ZipException.class, () -> drain(magic)).getMessage());
        byte[] method = a.clone();
        method[2] = 7;
        assertTrue(assertThrows(ZipException.class, () -> drain(method)).getMessage().contains("CM: expected 8"));
        byte[] flags = a.clone();
        flags[3] = (byte) 0x20;
        assertTrue(assertThrows(ZipException.class, () -> drain(flags)).getMessage().contains("reserved FLG"));
        byte[] deflate = a.clone();
        deflate[10] = (byte) 0xff; // BTYPE 11 is reserved
        assertTrue(assertThrows(ZipException.class, () -> drain(deflate)).getMessage()
                .startsWith("invalid deflate data in member at offset 0"));
    }

    @Test
    void truncationIsEofWithOffset() {
        byte[] a = TestData.member(GzipHeader.builder().name("name").build(), new byte[5000], 6);
        assertEquals("truncated gzip input: empty stream, no gzip header at offset 0",
                assertThrows(EOFException.class, () -> drain(new byte[0])).getMessage());
        assertEquals("truncated gzip input: end of stream at offset 5 while reading MTIME of member at offset 0",
                assertThrows(EOFException.class, () -> drain(Arrays.copyOf(a, 5))).getMessage());
        assertTrue(assertThrows(EOFException.class, () -> drain(Arrays.copyOf(a, 20))).getMessage()
                .contains("inside the deflate data"));
        assertEquals("truncated gzip input: end of stream at offset " + (a.length - 1)
                        + " while reading the ISIZE trailer of member at offset 0",
                assertThrows(EOFException.class, () -> drain(Arrays.copyOf(a, a.length - 1))).getMessage());
        // A second member that stops after its first magic byte is truncated too, not garbage.
        assertThrows(EOFException.class, () -> drain(concat(a, new byte[] {0x1f})));
    }

    @Test
    void trailingZerosPassAndGarbageAfterThemDoesNot() throws IOException {
        byte[] a = TestData.member(GzipHeader.minimal(), new byte[] {9}, 6);
        assertArrayEquals(new byte[] {9}, drain(concat(a, new byte[100_000])));
        byte[] zerosThenGarbage = concat(a, new byte[70_000], new byte[] {5});
        ZipException e = assertThrows(ZipException.class, () -> drain(zerosThenGarbage));
        assertTrue(e.getMessage().contains("offset " + (a.length + 70_000)), e.getMessage());
        GzipInputStream lenient = GzipInputStream.builder().ignoreTrailingGarbage(true)
                .build(new ByteArrayInputStream(concat(a, new byte[] {0x1f, 0x1f})));
        assertArrayEquals(new byte[] {9}, TestData.readAll(lenient));
        assertTrue(lenient.trailingGarbageIgnored());
    }

    @Test
    void outputLimitStopsABombButAllowsExactFit() throws IOException {
        byte[] data = new byte[1 << 20];
        byte[] a = TestData.member(GzipHeader.minimal(), data, 9);
        assertEquals(data.length, TestData.readAll(GzipInputStream.builder().maxOutputBytes(data.length)
                .build(new ByteArrayInputStream(concat(a, TestData.member(GzipHeader.minimal(), new byte[0], 6)))))
                .length);
        IOException e = assertThrows(IOException.class, () -> TestData.readAll(
                GzipInputStream.builder().maxOutputBytes(data.length - 1).build(new ByteArrayInputStream(a))));
        assertEquals("gzip output exceeds the limit of 1048575 bytes (member at offset 0)", e.getMessage());
        assertThrows(IOException.class, () -> TestData.readAll(
                GzipInputStream.builder().maxOutputBytes(0).build(new ByteArrayInputStream(a))));
    }

    @Test
    void outputLimitHoldsForSingleByteAndShortReads() throws IOException {
        byte[] data = TestData.text(new Random(12), 10_000);
        byte[] a = TestData.member(GzipHeader.minimal(), data, 6);
        GzipInputStream in = GzipInputStream.builder().maxOutputBytes(100).build(new ByteArrayInputStream(a));
        for (int i = 0; i < 100; i++) {
            assertEquals(data[i] & 0xff, in.read());
        }
        assertTrue(in.available() > 0, "short reads are served from decoded output");
        assertThrows(IOException.class, in::read);
        GzipInputStream exact = GzipInputStream.builder().maxOutputBytes(10_000).build(new ByteArrayInputStream(a));
        byte[] buf = new byte[777];
        long total = 0;
        for (int n; (n = exact.read(buf)) >= 0; ) {
            total += n;
        }
        assertEquals(10_000, total);
    }

    @Test
    void badArgumentsAndClosedStream() throws IOException {
        assertThrows(NullPointerException.class, () -> new GzipInputStream(null));
        assertThrows(NullPointerException.class, () -> GzipInputStream.builder().build(null));
        assertThrows(IllegalArgumentException.class, () -> GzipInputStream.builder().bufferSize(0));
        assertThrows(IllegalArgumentException.class, () -> GzipInputStream.builder().maxOutputBytes(-1));
        byte[] a = TestData.member(GzipHeader.minimal(), new byte[10], 6);
        TestData.ThrowingInputStream src = new TestData.ThrowingInputStream(a);
        GzipInputStream in = new GzipInputStream(src);
        assertThrows(NullPointerException.class, () -> in.read(null, 0, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> in.read(new byte[4], 3, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> in.read(new byte[4], -1, 2));
        assertEquals(0, in.read(new byte[4], 4, 0));
        assertFalse(in.markSupported());
        in.close();
        assertTrue(src.closed);
        in.close();
        assertEquals("Stream closed", assertThrows(IOException.class, in::read).getMessage());
        assertEquals("Stream closed", assertThrows(IOException.class, () -> in.read(new byte[1])).getMessage());
        assertEquals("Stream closed", assertThrows(IOException.class, in::available).getMessage());
        assertEquals("Stream closed", assertThrows(IOException.class, in::header).getMessage());
    }

    @Test
    void sourceFailureSurfacesAndSticks() throws IOException {
        byte[] a = TestData.member(GzipHeader.minimal(), TestData.text(new Random(1), 100_000), 6);
        GzipInputStream in = new GzipInputStream(new TestData.ThrowingInputStream(Arrays.copyOf(a, 500)));
        IOException e = assertThrows(IOException.class, () -> TestData.readAll(in));
        assertEquals("disk on fire", e.getMessage());
        assertTrue(assertThrows(IOException.class, in::read).getMessage().startsWith("gzip stream failed earlier"));
    }

    @Test
    void skipDecodesAndChecks() throws IOException {
        byte[] data = TestData.text(new Random(2), 200_000);
        GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(TestData.member(GzipHeader.minimal(), data,
                6)));
        assertEquals(0, in.skip(-5));
        assertEquals(150_000, in.skip(150_000));
        assertEquals(data[150_000] & 0xff, in.read());
        assertEquals(49_999, in.skip(1_000_000));
        assertEquals(0, in.skip(10));
        assertEquals(-1, in.read());
        assertEquals(0, in.available());
    }

    @Test
    void randomSizesAndBufferSizesAgreeWithJdk() throws IOException {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < 60; i++) {
            int size = r.nextInt(4) == 0 ? r.nextInt(10) : r.nextInt(300_000);
            byte[] data = r.nextBoolean() ? TestData.text(r, size) : TestData.mixed(r, size);
            ByteArrayOutputStream gz = new ByteArrayOutputStream();
            int members = 1 + r.nextInt(3);
            for (int m = 0; m < members; m++) {
                gz.writeBytes(TestData.member(GzipHeader.minimal(), data, r.nextInt(10)));
            }
            byte[] expected = TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(gz.toByteArray())));
            int bufferSize = 1 + r.nextInt(r.nextBoolean() ? 64 : 100_000);
            GzipInputStream in = GzipInputStream.builder().bufferSize(bufferSize)
                    .build(new TestData.RandomShortInputStream(new ByteArrayInputStream(gz.toByteArray()), seed + i));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            // Short reads go through the output buffer, reads of OUTPUT_CHUNK or more straight to the array.
            byte[] buf = new byte[1 + r.nextInt(r.nextBoolean() ? 70_000 : 2 * GzipInputStream.OUTPUT_CHUNK)];
            for (int n; (n = in.read(buf, 0, 1 + r.nextInt(buf.length))) >= 0; ) {
                out.write(buf, 0, n);
            }
            assertArrayEquals(expected, out.toByteArray(), "seed " + seed + " case " + i);
        }
    }

    /**
     * transferTo into a plain FileOutputStream writes through its channel, from the native decoder's memory when the
     * engine is ISA-L: the same bytes as the JDK over random members, after random reads, with random output limits.
     */
    @Test
    void transferToAFileAgreesWithJdkAfterReadsAndUnderLimits(@TempDir Path dir) throws IOException {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < 40; i++) {
            String what = "seed " + seed + " case " + i;
            ByteArrayOutputStream gz = new ByteArrayOutputStream();
            for (int m = 1 + r.nextInt(3); m > 0; m--) {
                int size = r.nextInt(4) == 0 ? r.nextInt(10) : r.nextInt(700_000);
                gz.writeBytes(TestData.member(GzipHeader.minimal(),
                        r.nextBoolean() ? TestData.text(r, size) : TestData.mixed(r, size), r.nextInt(10)));
            }
            byte[] all = TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(gz.toByteArray())));
            long limit = r.nextBoolean() ? Long.MAX_VALUE : r.nextInt(all.length + 2);
            Path target = dir.resolve("out" + i);
            try (GzipInputStream in = GzipInputStream.builder().maxOutputBytes(limit).bufferSize(1 + r.nextInt(70_000))
                    .build(new TestData.RandomShortInputStream(new ByteArrayInputStream(gz.toByteArray()), seed + i));
                    FileOutputStream out = new FileOutputStream(target.toFile())) {
                int before = (int) Math.min(r.nextInt(3) == 0 ? r.nextInt(1000) : 0, Math.min(limit, all.length));
                byte[] head = in.readNBytes(before);
                out.write(head);
                if (limit >= all.length) {
                    assertEquals(all.length - before, in.transferTo(out), what);
                    assertEquals(-1, in.read(), what);
                } else {
                    IOException e = assertThrows(IOException.class, () -> in.transferTo(out), what);
                    assertTrue(e.getMessage().startsWith("gzip output exceeds the limit of " + limit), what);
                    assertThrows(IOException.class, in::read, what + ": the failure sticks");
                }
            }
            byte[] written = Files.readAllBytes(target);
            assertArrayEquals(Arrays.copyOf(all, (int) Math.min(limit, all.length)), written, what);
        }
    }

    @Test
    void transferToAFileReportsCorruptionAndTheFailureSticks(@TempDir Path dir) throws IOException {
        byte[] data = TestData.text(new Random(5), 600_000);
        byte[] a = TestData.member(GzipHeader.minimal(), data, 6);
        byte[] b = a.clone();
        b[b.length - 8] ^= 1; // the second member's CRC
        try (GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(concat(a, b)));
                FileOutputStream out = new FileOutputStream(dir.resolve("x").toFile())) {
            ZipException e = assertThrows(ZipException.class, () -> in.transferTo(out));
            assertTrue(e.getMessage().endsWith("in member at offset " + a.length), e.getMessage());
            IOException again = assertThrows(IOException.class, () -> in.transferTo(out));
            assertEquals("gzip stream failed earlier: " + e.getMessage(), again.getMessage());
        }
        byte[] cut = Arrays.copyOf(a, a.length / 2);
        try (GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(cut));
                FileOutputStream out = new FileOutputStream(dir.resolve("y").toFile())) {
            assertThrows(EOFException.class, () -> in.transferTo(out));
        }
    }

    /** A FileOutputStream subclass may override write: transferTo must call it, never go around it to the channel. */
    @Test
    void transferToASubclassOfFileOutputStreamCallsItsWrite(@TempDir Path dir) throws IOException {
        byte[] data = TestData.text(new Random(6), 900_000);
        long[] seen = new long[1];
        try (GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(
                TestData.member(GzipHeader.minimal(), data, 6)));
                FileOutputStream out = new FileOutputStream(dir.resolve("z").toFile()) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        seen[0] += len;
                        super.write(b, off, len);
                    }
                }) {
            assertEquals(data.length, in.transferTo(out));
        }
        assertEquals(data.length, seen[0]);
        assertArrayEquals(data, Files.readAllBytes(dir.resolve("z")));
    }

    static byte[] drain(byte[] gz) throws IOException {
        return TestData.readAll(new GzipInputStream(new ByteArrayInputStream(gz)));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
