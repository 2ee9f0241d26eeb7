package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GzipIndexEngineBuild}, the index build whose every byte the stream's engine decodes (ISA-L in the native
 * test run, the JDK's zlib in the others: the crafted-end protocol is the same): on seeded files of every block type
 * and member layout, with small spacings for many checkpoints, the member table and sizes of the scanner's build,
 * every checkpoint decoded by a fresh JDK Inflater from its bit and window equal to the data there, every window the
 * bytes before it, the spacing rule, the same checkpoints with one thread as with two, and reads through the index;
 * bad input gets the exception of the build it falls back to. Seeds are printed ({@code -Dsluice.test.seed=N} replays a run).
 */
@Timeout(120)
class GzipIndexEngineBuildTest {

    @TempDir
    Path tmp;

    @Test
    void everyCheckpointDecodesToTheDataThere() throws IOException {
        long seed = GzipIndexTest.seed("GzipIndexEngineBuildTest");
        Random r = new Random(seed);
        List<GzipIndexTest.Case> cases = new ArrayList<>(GzipIndexTest.cases(seed));
        cases.add(mixedMembers(r));
        int checkpoints = 0;
        int scanned = 0;
        int[] totals = new int[4];
        for (GzipIndexTest.Case c : cases) {
            long spacing = r.nextBoolean() ? 1 + r.nextInt(8_000) : 16_384;
            boolean twoThreads = r.nextBoolean();
            int search = r.nextBoolean() ? GzipIndexEngineBuild.SEARCH : 1 + r.nextInt(20_000); // many reads
            Path gz = tmp.resolve(c.name() + ".gz");
            Files.write(gz, c.gz());
            String what = c.name() + " spacing " + spacing + " twoThreads " + twoThreads + " search " + search
                    + " seed " + seed;
            GzipIndex scan = GzipIndexTest.build(gz, spacing, 0, 0);
            int[] stats = new int[4];
            GzipIndex ix;
            try (FileChannel ch = FileChannel.open(gz)) {
                ix = GzipIndexEngineBuild.build(ch, ch.size(), spacing, GzipEngines.inflater(), twoThreads, () -> {
                    throw new AssertionError("fell back on a good file: " + what);
                }, stats, search);
            }
            // Reproducible: the targets are the walk's own (GzipIndexEngineBuild.setTargets), so the other thread
            // count, whose searches run at other times, builds the same checkpoints.
            GzipIndex other;
            try (FileChannel ch = FileChannel.open(gz)) {
                other = GzipIndexEngineBuild.build(ch, ch.size(), spacing, GzipEngines.inflater(), !twoThreads,
                        () -> {
                            throw new AssertionError("fell back on a good file: " + what);
                        }, null, search);
            }
            assertArrayEquals(ix.cpBit, other.cpBit, what + ": one thread against two");
            assertArrayEquals(ix.cpU, other.cpU, what + ": one thread against two");
            assertEquals(c.data().length, ix.uncompressedSize, what);
            assertArrayEquals(scan.memHeader, ix.memHeader, what);
            assertArrayEquals(scan.memDeflate, ix.memDeflate, what);
            assertArrayEquals(scan.memU, ix.memU, what);
            GzipIndexTest.checkWindows(ix, c.data(), what);
            checkpointsDecode(ix, c.gz(), c.data(), what);
            // The searches' targets never fall behind the last candidate or the walk (issue 32: at spacing 1 a
            // target every 64 bits made 44 s of a 350 KB file): a search is wasted only where two ran side by side
            // onto one candidate, or where the walk passed its target by streaming a member (AHEAD at most each).
            long bound = 2L * stats[0] + 2L * GzipIndexEngineBuild.AHEAD * (ix.memU.length + 1);
            assertTrue(stats[3] <= bound, what + ": " + stats[3] + " searches for " + stats[0] + " stretches and "
                    + ix.memU.length + " members");
            checkpoints += ix.cpU.length;
            scanned += scan.cpU.length;
            for (int i = 0; i < 4; i++) {
                totals[i] += stats[i];
            }
            GzipIndexTest.checkReads(ix, gz, c.data(), r, what);
            // Every checkpoint a piece's end: a decoder that starts before it stops exactly there.
            try (GzipInputStream whole = GzipInputStream.builder().index(ix).threads(2).pieceSize(1)
                    .ignoreTrailingGarbage(true).build(new java.io.ByteArrayInputStream(c.gz()))) {
                assertArrayEquals(c.data(), whole.readAllBytes(), what + " (pieces)");
            }
            Path saved = tmp.resolve(c.name() + ".ix");
            ix.save(saved, GzipIndex.Format.values()[r.nextInt(3)]);
            GzipIndexTest.checkReads(GzipIndex.load(saved), gz, c.data(), r, what + " (saved)");
        }
        String stats = "engine build: " + checkpoints + " checkpoints (the scanner's: " + scanned + "), " + totals[0]
                + " stretches, " + totals[1] + " refused, " + totals[2] + " streamed, " + totals[3] + " searches, seed "
                + seed;
        System.out.println(stats);
        // The walk takes its checkpoints by candidates, not by streaming whole members: about as many as the
        // scanner's, which has every block end to choose from.
        assertTrue(checkpoints * 3 >= scanned && checkpoints > 20, stats);
    }

    /** Members of every level and strategy (stored, fixed and dynamic blocks, flushes), then garbage. */
    private static GzipIndexTest.Case mixedMembers(Random r) {
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
        int[] strategies = {Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY};
        for (int i = 0; i < 8; i++) {
            int size = r.nextInt(4) == 0 ? r.nextInt(300) : r.nextInt(200_000);
            byte[] part = r.nextBoolean() ? TestData.text(r, size) : TestData.mixed(r, size);
            int level = r.nextInt(10);
            gz.writeBytes(level == 0 || r.nextBoolean() ? TestData.member(GzipHeader.minimal(), part, level)
                    : GzipIndexTest.deflateMember(part, level, strategies[r.nextInt(3)], 1 + r.nextInt(30_000),
                            r.nextBoolean() ? Deflater.SYNC_FLUSH : Deflater.FULL_FLUSH));
            data.writeBytes(part);
        }
        byte[] garbage = TestData.random(r, 1 + r.nextInt(5000));
        garbage[0] = 0x1f; // not the magic: 0x1f, then anything but 0x8b
        garbage[Math.min(1, garbage.length - 1)] = (byte) (garbage.length == 1 ? 0x1f : 0x8c);
        gz.writeBytes(garbage);
        return new GzipIndexTest.Case("mixed-members-garbage", gz.toByteArray(), data.toByteArray());
    }

    /**
     * Decodes up to 8 KiB from each checkpoint with a fresh JDK Inflater (its window as dictionary, the empty blocks
     * of {@link BitStarts#prefix} to reach a bit inside a byte) and compares with the data at its offset.
     */
    static void checkpointsDecode(GzipIndex ix, byte[] gz, byte[] data, String what) throws IOException {
        for (int i = 0; i < ix.cpU.length; i++) {
            long bit = ix.cpBit[i];
            int at = (int) (bit >>> 3);
            int k = (int) (bit & 7);
            int m = ix.cpMember[i];
            long memberEnd = m + 1 < ix.memU.length ? ix.memU[m + 1] : ix.uncompressedSize;
            int want = (int) Math.min(8192, memberEnd - ix.cpU[i]);
            Inflater inf = new Inflater(true);
            try {
                byte[] w = ix.windows[i].bytes();
                if (w.length > 0) {
                    inf.setDictionary(w);
                }
                byte[] input;
                if (k != 0) {
                    byte[] head = BitStarts.prefix(k, gz[at]);
                    input = GzipIndexTest.concat(head, java.util.Arrays.copyOfRange(gz, at + 1, gz.length));
                } else {
                    input = java.util.Arrays.copyOfRange(gz, at, gz.length);
                }
                inf.setInput(input);
                byte[] got = new byte[want];
                int n = 0;
                while (n < want && !inf.finished()) {
                    int g = inf.inflate(got, n, want - n);
                    if (g == 0 && (inf.needsInput() || inf.needsDictionary())) {
                        break;
                    }
                    n += g;
                }
                assertEquals(want, n, what + ": checkpoint " + i);
                assertTrue(java.util.Arrays.equals(data, (int) ix.cpU[i], (int) ix.cpU[i] + want, got, 0, want),
                        what + ": checkpoint " + i + " at bit " + bit + " decodes to other bytes");
            } catch (DataFormatException e) {
                throw new AssertionError(what + ": checkpoint " + i + " at bit " + bit + ": " + e, e);
            } finally {
                inf.end();
            }
        }
    }

    /**
     * Cut and flipped files: the engine build fails with the exception of the build it falls back to (here the
     * scanner's, whose verdict it hands on), or both succeed and the index reads the data.
     */
    @Test
    void badInputGetsTheFallbacksVerdict() throws IOException {
        long seed = GzipIndexTest.seed("GzipIndexEngineBuildTest bad");
        Random r = new Random(seed);
        byte[] data = TestData.mixed(r, 200_000);
        byte[] gz = GzipIndexTest.concat(TestData.member(GzipHeader.minimal(), data, 6),
                TestData.member(GzipHeader.minimal(), data, 1), new byte[3]);
        byte[] both = GzipIndexTest.concat(data, data);
        int fellBack = 0;
        for (int i = 0; i < 40; i++) {
            byte[] bad = i < 12 ? java.util.Arrays.copyOf(gz, i == 0 ? 0 : r.nextInt(gz.length - 3)) : gz.clone();
            if (i >= 12) {
                bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
            }
            Path f = tmp.resolve("bad.gz");
            Files.write(f, bad);
            String what = (i < 12 ? "cut at " + bad.length : "flip " + i) + " seed " + seed;
            long spacing = 1 + r.nextInt(30_000);
            IOException scanFailure = GzipIndexTest.failure(() -> GzipIndexTest.build(f, spacing, 0, 0));
            boolean[] called = new boolean[1];
            GzipIndex[] got = new GzipIndex[1];
            IOException engineFailure = GzipIndexTest.failure(() -> {
                try (FileChannel ch = FileChannel.open(f)) {
                    got[0] = GzipIndexEngineBuild.build(ch, ch.size(), spacing, GzipEngines.inflater(),
                            r.nextBoolean(), () -> {
                                called[0] = true;
                                return GzipIndexTest.build(f, spacing, 0, 0);
                            }, null, 1 + r.nextInt(GzipIndexEngineBuild.SEARCH));
                }
            });
            String all = what + ": " + engineFailure + " / " + scanFailure;
            assertEquals(scanFailure == null ? null : scanFailure.getClass(),
                    engineFailure == null ? null : engineFailure.getClass(), all);
            if (scanFailure != null) {
                assertTrue(called[0], "the walk took a file the scanner refuses: " + all);
                fellBack++;
            } else if (!called[0]) {
                // A flip nothing checks (MTIME, OS, the trailing zeros): the walk's own index reads the data.
                GzipIndexTest.checkReads(got[0], f, both, r, what);
            }
        }
        assertTrue(fellBack >= 12, fellBack + " failures, seed " + seed);
    }
}
