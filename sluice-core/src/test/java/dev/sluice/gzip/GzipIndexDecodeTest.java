package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential tests of {@link GzipInputStream.Builder#index}: decoding through an index, in pieces on worker
 * threads, must give exactly what decoding without it gives, over the index tests' cases (every block type, member
 * layout, empty members, trailing zeros), files from real tools, at several spacings, piece sizes from one checkpoint
 * to a few, 1 to 4 threads and every read style; an index that does not fit is a {@link ZipException}, never wrong
 * bytes; closing midway leaves no thread behind. Seeds are printed.
 */
@Timeout(300)
class GzipIndexDecodeTest {

    @TempDir
    Path tmp;

    @Test
    void everyCaseEveryStyleEqualsTheOneThreadPath() throws IOException {
        long seed = GzipIndexTest.seed("GzipIndexDecodeTest");
        Random r = new Random(seed);
        BitSet startBits = new BitSet();
        for (GzipIndexTest.Case c : GzipIndexTest.cases(seed)) {
            Path gz = write(c.name() + ".gz", c.gz());
            for (long spacing : new long[] {1 + r.nextInt(5000), 65_536, GzipIndex.DEFAULT_SPACING}) {
                GzipIndex built = GzipIndex.build(gz, spacing);
                for (int i = 0; i < built.cpBit.length; i++) {
                    startBits.set((int) (built.cpBit[i] & 7));
                }
                Path saved = tmp.resolve("ix");
                GzipIndex.Format format = GzipIndex.Format.values()[r.nextInt(2)];
                built.save(saved, format);
                for (GzipIndex ix : List.of(built, GzipIndex.load(saved))) {
                    String what = c.name() + " spacing " + spacing + " " + format + " seed " + seed;
                    check(c.gz(), c.data(), ix, r, what);
                }
            }
        }
        assertEquals(8, startBits.cardinality(), "checkpoints at every bit offset 0-7: " + startBits);
    }

    @Test
    void filesFromRealTools() throws Exception {
        long seed = GzipIndexTest.seed("GzipIndexDecodeTest tools");
        Random r = new Random(seed);
        byte[] data = TestData.mixed(r, 3_000_000 + r.nextInt(1000));
        ByteArrayOutputStream sluice = new ByteArrayOutputStream();
        try (GzipOutputStream out = new GzipOutputStream(sluice)) {
            out.write(data);
        }
        check(sluice.toByteArray(), data, "sluice", r, seed);
        for (ParallelGzipOutputStream.Format f : ParallelGzipOutputStream.Format.values()) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (ParallelGzipOutputStream out = ParallelGzipOutputStream.builder().format(f).threads(2).build(b)) {
                out.write(data);
            }
            check(b.toByteArray(), data, "sluice " + f, r, seed);
        }
        String[][] tools = {{"gzip", "-6", "-c"}, {"gzip", "-1", "-c"}, {"pigz", "-6", "-p", "4", "-c"},
            {"pigz", "-9", "-c"}, {"igzip", "-c", "-1"}, {"igzip", "-c", "-3"}, {"bgzip", "-c"}};
        for (String[] t : tools) {
            if (!Tools.installed(t[0])) {
                System.out.println(t[0] + " not installed: skipped");
                continue;
            }
            check(Tools.run(data, t), data, String.join(" ", t), r, seed);
        }
    }

    private void check(byte[] gz, byte[] data, String name, Random r, long seed) throws IOException {
        Path file = write("tool.gz", gz);
        for (long spacing : new long[] {32_768 + r.nextInt(100_000), GzipIndex.DEFAULT_SPACING}) {
            check(gz, data, GzipIndex.build(file, spacing), r, name + " spacing " + spacing + " seed " + seed);
        }
        // The speculative decoder's index (issue 32 item 3), in chunks small enough to speculate on 3 MB: pigz's
        // empty blocks, igzip's and bgzip's layouts.
        long spacing = 32_768 + r.nextInt(300_000);
        int chunk = 16_384 + r.nextInt(100_000);
        String what = name + " speculative build, spacing " + spacing + " chunk " + chunk + " seed " + seed;
        GzipIndex walk = GzipIndexTest.build(file, spacing, 2, chunk);
        GzipIndexTest.checkWindows(walk, data, what);
        check(gz, data, walk, r, what);
    }

    /** Decodes {@code gz} through {@code ix} in one random style, thread count and piece size; must be {@code data}. */
    private static void check(byte[] gz, byte[] data, GzipIndex ix, Random r, String what) throws IOException {
        int threads = 1 + r.nextInt(4);
        long pieceSize = new long[] {1, 1 + r.nextInt(200_000), PieceReader.PIECE_SIZE}[r.nextInt(3)];
        int style = r.nextInt(5);
        String w = what + " threads " + threads + " piece " + pieceSize + " style " + style;
        try (GzipInputStream in = GzipInputStream.builder().index(ix).threads(threads).pieceSize(pieceSize)
                .build(new ByteArrayInputStream(gz))) {
            assertArrayEquals(data, read(in, style, r, data), w);
            assertEquals(-1, in.read(), w);
        } catch (IOException | RuntimeException e) {
            throw new AssertionError(w + ": " + e, e);
        }
    }

    /**
     * Everything from {@code in}: byte by byte, random arrays, transferTo, skips and reads mixed (a skipped
     * stretch is filled from {@code expected}, so that the comparison checks where the reads after it landed), or
     * some reads and then transferTo into a plain FileOutputStream (whose channel takes direct buffers).
     */
    static byte[] read(GzipInputStream in, int style, Random r, byte[] expected) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (style) {
            case 0:
                for (int b; (b = in.read()) >= 0; ) {
                    out.write(b);
                    if (out.size() > 300_000) { // byte by byte is slow: the rest in arrays
                        return read(in, 1, r, out);
                    }
                }
                return out.toByteArray();
            case 1:
                return read(in, 1, r, out);
            case 2:
                in.transferTo(out);
                return out.toByteArray();
            case 4:
                byte[] head = in.readNBytes(r.nextInt(3) == 0 ? r.nextInt(5_000_000) : 0);
                out.write(head);
                out.write(ParallelGzipInputTest.toFile(in));
                return out.toByteArray();
            default:
                byte[] buf = new byte[1 + r.nextInt(70_000)];
                while (true) {
                    if (r.nextInt(4) == 0) {
                        long n = in.skip(r.nextInt(100_000));
                        out.write(expected, out.size(), (int) Math.min(n, expected.length - out.size()));
                        continue;
                    }
                    int n = in.read(buf, 0, 1 + r.nextInt(buf.length));
                    if (n < 0) {
                        return out.toByteArray();
                    }
                    out.write(buf, 0, n);
                }
        }
    }

    private static byte[] read(GzipInputStream in, int style, Random r, ByteArrayOutputStream out)
            throws IOException {
        byte[] buf = new byte[1 + r.nextInt(600_000)];
        for (int n; (n = in.read(buf, 0, 1 + r.nextInt(buf.length))) >= 0; ) {
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    /**
     * Decodes {@code gz} through {@code ix}: with an index that does not fit ({@code badIndex}), an exception of
     * {@code type} and, before it, only the start of {@code data} (a lying checkpoint that no piece starts at may
     * also pass unnoticed, if the output is all of {@code data}); with corrupt data, an exception of {@code type}.
     */
    private static void expectFailure(Class<? extends IOException> type, byte[] gz, byte[] data, GzipIndex ix,
            Random r, String what, boolean badIndex) {
        int threads = 2 + r.nextInt(3);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        IOException e = null;
        boolean toFile = r.nextInt(3) == 0;
        what += toFile ? " (to a file)" : "";
        Path file = null;
        try (GzipInputStream in = GzipInputStream.builder().index(ix).threads(threads)
                .pieceSize(1 + r.nextInt(300_000)).build(new ByteArrayInputStream(gz))) {
            if (toFile) {
                // Through the channel path; what reached the file before the exception is what it wrote.
                file = Files.createTempFile("sluice-index", ".out");
                try (java.io.FileOutputStream out = new java.io.FileOutputStream(file.toFile())) {
                    in.transferTo(out);
                }
            } else {
                byte[] buf = new byte[1 + r.nextInt(100_000)];
                for (int n; (n = in.read(buf)) >= 0; ) {
                    got.write(buf, 0, n);
                }
            }
        } catch (IOException x) {
            e = x;
        }
        byte[] out = got.toByteArray();
        if (file != null) {
            try {
                out = Files.readAllBytes(file);
                Files.delete(file);
            } catch (IOException x) {
                throw new java.io.UncheckedIOException(x);
            }
        }
        if (e == null) {
            assertTrue(badIndex && Arrays.equals(data, out), what + ": nothing thrown");
            return;
        }
        assertTrue(type.isInstance(e), what + ": " + e);
        if (badIndex) {
            assertTrue(out.length <= data.length && Arrays.equals(out, 0, out.length, data, 0, out.length),
                    what + ": " + out.length + " bytes before " + e + " are not the data's first bytes");
        }
    }

    @Test
    void indexOfAnotherFileIsAZipException() throws IOException {
        long seed = GzipIndexTest.seed("GzipIndexDecodeTest another file");
        Random r = new Random(seed);
        for (int round = 0; round < 6; round++) {
            byte[] a = TestData.mixed(r, 400_000 + r.nextInt(400_000));
            byte[] b = TestData.mixed(r, a.length);
            Path fa = write("a.gz", TestData.member(GzipHeader.minimal(), a, 6));
            byte[] gzb = TestData.member(GzipHeader.minimal(), b, 6);
            GzipIndex ix = GzipIndex.build(fa, 20_000 + r.nextInt(100_000));
            Path saved = tmp.resolve("a.gzidx");
            ix.save(saved, GzipIndex.Format.INDEXED_GZIP); // no record of the file's bytes: the pieces must notice
            for (GzipIndex x : List.of(ix, GzipIndex.load(saved))) {
                expectFailure(ZipException.class, gzb, b, x, r, "round " + round + " seed " + seed, true);
                assertThrows(ZipException.class, () -> TestData.readAll(GzipInputStream.builder().index(x)
                        .threads(2).pieceSize(1).build(new ByteArrayInputStream(gzb))), "seed " + seed);
            }
        }
    }

    @Test
    void truncatedInputIsAZipExceptionAndCorruptDataAnIOException() throws IOException {
        long seed = GzipIndexTest.seed("GzipIndexDecodeTest truncated/corrupt");
        Random r = new Random(seed);
        byte[] data = TestData.mixed(r, 1_500_000);
        byte[] gz = TestData.member(GzipHeader.minimal(), data, 6);
        GzipIndex ix = GzipIndex.build(write("c.gz", gz), 50_000);
        assertTrue(ix.checkpoints() > 10, ix.toString());
        for (int round = 0; round < 20; round++) {
            int cut = r.nextInt(gz.length);
            expectFailure(ZipException.class, Arrays.copyOf(gz, cut), data, ix, r, "cut at " + cut + " seed " + seed,
                    true);
        }
        for (int round = 0; round < 30; round++) {
            byte[] bad = gz.clone();
            int c = r.nextInt(ix.checkpoints());
            int at = (int) (ix.cpBit[c] >>> 3) + 1 + r.nextInt(20);
            bad[at] ^= (byte) (1 + r.nextInt(255));
            // The index's record of the last bytes would catch a flip there before anything; keep it in the middle.
            if (at < gz.length - GzipIndex.CHECK_BYTES && at > GzipIndex.CHECK_BYTES) {
                String what = "byte " + at + " after checkpoint " + c + " seed " + seed;
                if (jdkDecodes(bad, data)) {
                    // The flip hit only bits that deflate ignores (such as the padding after a stored block's
                    // header): the JDK reads the same data from it, and so must the index's pieces (seen in CI:
                    // -Dsluice.test.seed=16624499021129, byte 493477).
                    try (GzipInputStream in = GzipInputStream.builder().index(ix).threads(2 + r.nextInt(3))
                            .pieceSize(1 + r.nextInt(300_000)).build(new ByteArrayInputStream(bad))) {
                        assertArrayEquals(data, TestData.readAll(in), what);
                    }
                    continue;
                }
                expectFailure(IOException.class, bad, data, ix, r, what, false);
            }
        }
    }

    /** True if the JDK's GZIPInputStream reads {@code gz} without an error, to exactly {@code data}. */
    private static boolean jdkDecodes(byte[] gz, byte[] data) {
        try {
            return Arrays.equals(data, TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(gz))));
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void lyingCheckpointsAreZipExceptions() throws IOException {
        long seed = GzipIndexTest.seed("GzipIndexDecodeTest lying index");
        Random r = new Random(seed);
        byte[] data = TestData.mixed(r, 1_500_000);
        byte[] gz = TestData.member(GzipHeader.minimal(), data, 6);
        GzipIndex ix = GzipIndex.build(write("l.gz", gz), 40_000);
        for (int round = 0; round < 20; round++) {
            int c = r.nextInt(ix.checkpoints());
            Window[] windows = ix.windows.clone();
            long[] bits = ix.cpBit.clone();
            long[] us = ix.cpU.clone();
            switch (round % 3) {
                case 0:
                    byte[] w = windows[c].bytes().clone();
                    w[r.nextInt(w.length)] ^= (byte) (1 + r.nextInt(255));
                    windows[c] = Window.of(w);
                    break;
                case 1:
                    bits[c] += r.nextBoolean() ? 1 + r.nextInt(30) : -1 - r.nextInt(30);
                    break;
                default:
                    us[c] += r.nextBoolean() ? 1 + r.nextInt(30) : -1 - r.nextInt(30);
                    break;
            }
            GzipIndex lying = new GzipIndex(ix.compressedSize, ix.uncompressedSize, ix.spacing, ix.memHeader,
                    ix.memDeflate, ix.memU, bits, us, ix.cpMember, windows, ix.fileCheck, true);
            expectFailure(IOException.class, gz, data, lying, r, "round " + round + " checkpoint " + c + " seed "
                    + seed, true);
            // With a piece starting at every checkpoint, the lie is always noticed.
            assertThrows(IOException.class, () -> TestData.readAll(GzipInputStream.builder().index(lying)
                    .threads(2).pieceSize(1).build(new ByteArrayInputStream(gz))), "seed " + seed);
        }
    }

    @Test
    void closingMidwayLeavesNoWorkerBehind() throws Exception {
        Random r = new Random(11);
        byte[] data = TestData.mixed(r, 4_000_000);
        byte[] gz = TestData.member(GzipHeader.minimal(), data, 6);
        GzipIndex ix = GzipIndex.build(write("m.gz", gz), 100_000);
        for (int round = 0; round < 20; round++) {
            GzipInputStream in = GzipInputStream.builder().index(ix).threads(1 + r.nextInt(4)).pieceSize(200_000)
                    .build(new ByteArrayInputStream(gz));
            byte[] buf = new byte[1 + r.nextInt(300_000)];
            int n = in.read(buf);
            assertTrue(n > 0);
            assertArrayEquals(Arrays.copyOf(data, n), Arrays.copyOf(buf, n));
            in.close();
            assertThrows(IOException.class, in::read);
        }
        // The pools' threads end once the pieces running at close are done (a second idle at most).
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (workers() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(0, workers(), "gunzip workers still alive 20 s after every stream was closed");
    }

    private static long workers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("sluice-gunzip"))
                .count();
    }

    Path write(String name, byte[] bytes) throws IOException {
        Path p = tmp.resolve(name);
        Files.write(p, bytes);
        return p;
    }
}
