package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GzipIndex#load} of gztool's indexes (issue 23): {@code gztool -i} indexes of a single-member, a
 * multi-member, a BGZF and an SL file, in both of gztool's index versions, load and give byte-exact ranges (compared
 * with a full decompression); and Sluice's indexes saved in gztool's format give gztool byte-exact ranges. The live tests skip only where gztool is not on the PATH; the committed fixture (made
 * by {@code index/make-gztool-fixture.sh}, gztool 1.5.1) is read everywhere.
 */
@Timeout(180)
class GztoolIndexInteropTest {

    @TempDir
    Path tmp;

    /** Index points every 1 MiB, gztool's smallest span: files of a few MiB get several. */
    private static final String SPAN_MIB = "1";

    private static byte[] independent(ParallelGzipOutputStream.Format format, byte[] data) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ParallelGzipOutputStream out = ParallelGzipOutputStream.builder().format(format).threads(2).build(b)) {
            out.write(data);
        }
        return b.toByteArray();
    }

    private static final String[] NAMES = {"single", "multi", "bgzf", "sl"};

    /** {@code data} as one member, as three (cut at {@code cut}, an empty one between), as BGZF and as SL members. */
    private static byte[][] kinds(byte[] data, int cut) throws IOException {
        return new byte[][] {
            TestData.member(GzipHeader.builder().name("data").build(), data, 6),
            GzipIndexTest.concat(TestData.member(GzipHeader.minimal(), java.util.Arrays.copyOf(data, cut), 1),
                    TestData.member(GzipHeader.minimal(), new byte[0], 6),
                    TestData.member(GzipHeader.minimal(), java.util.Arrays.copyOfRange(data, cut, data.length), 9)),
            independent(ParallelGzipOutputStream.Format.BGZF, data),
            independent(ParallelGzipOutputStream.Format.INDEPENDENT_MEMBERS, data)};
    }

    /** Runs {@code gztool -i} on {@code gz} (extra options first) and loads what it wrote. */
    private GzipIndex gztoolIndex(Path gz, String... options) throws Exception {
        Path idx = tmp.resolve(gz.getFileName() + "." + String.join("", options) + ".gzi");
        String[] command = new String[options.length + 7];
        command[0] = "gztool";
        System.arraycopy(options, 0, command, 1, options.length);
        System.arraycopy(new String[] {"-s", SPAN_MIB, "-I", idx.toString(), "-i", gz.toString()}, 0, command,
                options.length + 1, 6);
        Tools.run(new byte[0], command);
        return GzipIndex.load(idx);
    }

    @Test
    void gztoolIndexesOfEveryKindOfFileGiveExactRanges() throws Exception {
        if (!Tools.installed("gztool")) {
            System.out.println("gztool not installed: only the committed fixture is read");
            return;
        }
        long seed = GzipIndexTest.seed("gztool interop");
        Random r = new Random(seed);
        byte[] data = TestData.mixed(r, 5_000_000 + r.nextInt(1000));
        byte[][] files = kinds(data, 1_500_000 + r.nextInt(1000));
        for (int i = 0; i < files.length; i++) {
            Path gz = tmp.resolve(NAMES[i] + ".gz");
            Files.write(gz, files[i]);
            for (String[] version : new String[][] {{"-x"}, {"-z"}}) {
                GzipIndex ix = gztoolIndex(gz, version);
                String what = NAMES[i] + " " + version[0] + ", seed " + seed;
                assertEquals(data.length, ix.uncompressedSize(), what);
                assertTrue(ix.checkpoints() + ix.members() >= 4, what + ": " + ix);
                GzipIndexTest.checkReads(ix, gz, data, r, what);
                // Saved in Sluice's format and loaded again, it reads the same.
                Path sgzi = tmp.resolve(NAMES[i] + ".sgzi");
                ix.save(sgzi);
                GzipIndexTest.checkReads(GzipIndex.load(sgzi), gz, data, r, what + " via .sgzi");
            }
        }
    }

    /** Sluice's index saved in gztool's format: gztool extracts byte-exact ranges with it, and Sluice reads it back. */
    @Test
    void sluiceIndexUsedByGztool() throws Exception {
        if (!Tools.installed("gztool")) {
            System.out.println("gztool not installed: Sluice's gztool index not checked with gztool");
            return;
        }
        long seed = GzipIndexTest.seed("sluice->gztool");
        Random r = new Random(seed);
        byte[] data = TestData.mixed(r, 2_000_000 + r.nextInt(1000));
        byte[][] files = kinds(data, 700_000 + r.nextInt(1000));
        for (int i = 0; i < files.length; i++) {
            Path gz = tmp.resolve(NAMES[i] + ".gz");
            Files.write(gz, files[i]);
            GzipIndex ix = GzipIndex.build(gz, 200_000);
            Path idx = tmp.resolve(NAMES[i] + ".gzi");
            ix.save(idx, GzipIndex.Format.GZTOOL);
            byte[] saved = Files.readAllBytes(idx);
            String what = NAMES[i] + ", seed " + seed;
            GzipIndexTest.checkReads(GzipIndex.load(idx), gz, data, r, what + " loaded back");
            // gztool reads it as an index of its own: every point, and the uncompressed size.
            String listing = new String(Tools.run(new byte[0], "gztool", "-l", "-I", idx.toString(), gz.toString()),
                    java.nio.charset.StandardCharsets.UTF_8).replaceAll("\\s+", " ");
            assertTrue(listing.contains("Number of index points : " + (ix.members() + ix.checkpoints()) + " "),
                    what + ": " + listing);
            assertTrue(listing.contains("(" + data.length + " Bytes)"), what + ": " + listing);
            for (int k = 0; k < 8; k++) {
                int p = k == 0 ? 0 : k == 1 ? data.length - 1000 : r.nextInt(data.length);
                int n = Math.min(1 + r.nextInt(300_000), data.length - p);
                // -W: use the index as it is and never write it.
                byte[] got = Tools.run(new byte[0], "gztool", "-W", "-I", idx.toString(), "-b", Integer.toString(p),
                        "-r", Integer.toString(n), gz.toString());
                assertArrayEquals(java.util.Arrays.copyOfRange(data, p, p + n), got, what + ": gztool -b " + p
                        + " -r " + n);
            }
            assertArrayEquals(saved, Files.readAllBytes(idx), what + ": gztool left the index as it was");
        }
    }

    @Test
    void committedGztoolFixture() throws IOException {
        Path dir = TestData.fixtureDir().resolve("index");
        Path gz = dir.resolve("two-members-gztool.gz");
        GzipIndex ix = GzipIndex.load(dir.resolve("two-members-gztool.gzi"));
        byte[] data = GzipIndexInteropTest.gunzip(gz);
        assertEquals(data.length, ix.uncompressedSize());
        assertTrue(ix.checkpoints() >= 2, ix.toString());
        GzipIndexTest.checkReads(ix, gz, data, new Random(GzipIndexTest.seed("gztool fixture")), "gztool fixture");
    }

    /** gztool's index does not record the gzip file's size: its points are checked against the file when opened. */
    @Test
    void aGztoolIndexOpenedOnAShorterFileIsRefusedNamingThePoint() throws IOException {
        Path dir = TestData.fixtureDir().resolve("index");
        GzipIndex ix = GzipIndex.load(dir.resolve("two-members-gztool.gzi"));
        byte[] gz = Files.readAllBytes(dir.resolve("two-members-gztool.gz"));
        Path shorter = tmp.resolve("short.gz");
        Files.write(shorter, java.util.Arrays.copyOf(gz, gz.length / 3));
        ZipException e = assertThrows(ZipException.class, () -> ix.openChannel(shorter));
        assertTrue(e.getMessage().startsWith("index checkpoint") || e.getMessage().startsWith("index member start"),
                e.getMessage());
        assertThrows(IllegalStateException.class, () -> ix.save(tmp.resolve("x.gzidx"),
                GzipIndex.Format.INDEXED_GZIP));
    }

    /** Hostile edits of a gztool index: each is refused at load with the field or point named. */
    @Test
    void corruptGztoolIndexesAreRefused() throws IOException {
        Path dir = TestData.fixtureDir().resolve("index");
        byte[] good = Files.readAllBytes(dir.resolve("two-members-gztool.gzi"));
        Path f = tmp.resolve("bad.gzi");
        int p0 = 16 + 4 + 16; // version 1: line-ending format, then the point count twice
        byte[] bad = good.clone();
        ByteBuffer.wrap(bad).putLong(p0 + 32 + 8, 0); // point 1 (a checkpoint) at compressed offset 0
        Files.write(f, bad);
        assertTrue(assertThrows(ZipException.class, () -> GzipIndex.load(f)).getMessage().contains("point 1"));
        bad = good.clone();
        ByteBuffer.wrap(bad).putLong(p0, 1L << 62); // point 0 at uncompressed 2^62
        Files.write(f, bad);
        assertThrows(ZipException.class, () -> GzipIndex.load(f));
        bad = good.clone();
        ByteBuffer.wrap(bad).putLong(p0 - 8, 7); // the two counts differ: an index gztool has not finished
        Files.write(f, bad);
        assertTrue(assertThrows(ZipException.class, () -> GzipIndex.load(f)).getMessage().contains("incomplete"));
        for (int cut : new int[] {17, p0, p0 + 20, good.length / 2, good.length - 1}) {
            Files.write(f, java.util.Arrays.copyOf(good, cut));
            IOException e = assertThrows(IOException.class, () -> GzipIndex.load(f), "cut at " + cut);
            assertTrue(e instanceof java.io.EOFException || e instanceof ZipException, e.toString());
        }
    }
}
