package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23: every point of a loaded index is checked against the file it describes (offsets within bounds and
 * increasing, windows where needed), and a bad one is a {@link ZipException} naming the point. Each case edits one
 * field of a good index, in the offsets the format documents (GzipIndexFiles' javadoc).
 */
@Timeout(60)
class GzipIndexValidationTest {

    @TempDir
    Path tmp;

    private Path gz;
    private byte[] data;
    private GzipIndex index;

    /** GZIDX: header bytes before the first point, bytes per point. */
    private static final int GZIDX_POINTS = 35;
    private static final int GZIDX_POINT = 18;
    /** Sluice's format: header bytes before the member table, bytes per member, bytes per checkpoint. */
    private static final int SLUICE_MEMBERS = 60;
    private static final int SLUICE_MEMBER = 24;
    private static final int SLUICE_CHECKPOINT = 28;

    @BeforeEach
    void twoMembers() throws IOException {
        Random r = new Random(23);
        data = TestData.text(r, 800_000);
        gz = tmp.resolve("x.gz");
        Files.write(gz, GzipIndexTest.concat(TestData.member(GzipHeader.minimal(), data, 6),
                TestData.member(GzipHeader.minimal(), data, 1)));
        data = GzipIndexTest.concat(data, data);
        index = GzipIndex.build(gz, 50_000);
        assertTrue(index.checkpoints() >= 5 && index.members() == 2, index.toString());
    }

    private byte[] saved(GzipIndex.Format format) throws IOException {
        Path f = tmp.resolve("good." + format);
        index.save(f, format);
        return Files.readAllBytes(f);
    }

    private ZipException refused(byte[] bytes, String... words) throws IOException {
        Path f = tmp.resolve("bad");
        Files.write(f, bytes);
        ZipException e = assertThrows(ZipException.class, () -> GzipIndex.load(f));
        for (String w : words) {
            assertTrue(e.getMessage().contains(w), e.getMessage());
        }
        return e;
    }

    /** Sluice's format: the number of checkpoints. */
    private static int sluiceCheckpoints(byte[] sluice) {
        return le(sluice).getInt(56);
    }

    /** Sluice's format: the offset of the checkpoint table, after the member table. */
    private static int sluiceCheckpointTable(byte[] sluice) {
        return SLUICE_MEMBERS + SLUICE_MEMBER * le(sluice).getInt(52);
    }

    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Sluice's format ends with a CRC32 of the rest: recompute it so that only the point check can refuse. */
    private static byte[] resealed(byte[] b) {
        CRC32 crc = new CRC32();
        crc.update(b, 0, b.length - 4);
        le(b).putInt(b.length - 4, (int) crc.getValue());
        return b;
    }

    /** The case: the last, window-less point of a GZIDX export claims uncompressed offset 2^62. */
    @Test
    void gzidxPointAtTwoToTheSixtyTwoIsRefused() throws IOException {
        byte[] good = saved(GzipIndex.Format.INDEXED_GZIP);
        int points = le(good).getInt(31);
        byte[] bad = good.clone();
        le(bad).putLong(GZIDX_POINTS + GZIDX_POINT * (points - 1) + 8, 1L << 62);
        refused(bad, "index member start 2", "uncompressed offset " + (1L << 62), "past the end");
        // With the uncompressed size unknown (0 in GZIDX), the compressed size still bounds it.
        le(bad).putLong(15, 0);
        refused(bad, "index member start 2", "past the end of the data (at most");
        // A point's compressed offset past the file, or one going backwards.
        bad = good.clone();
        le(bad).putLong(GZIDX_POINTS + GZIDX_POINT * 3, le(good).getLong(GZIDX_POINTS + GZIDX_POINT) - 1);
        refused(bad, "checkpoint");
        // An uncompressed size larger than the compressed size can hold.
        bad = good.clone();
        le(bad).putLong(15, Long.MAX_VALUE);
        refused(bad, "uncompressed size");
    }

    @Test
    void sluicePointsOutOfBoundsAreRefusedNamingThePoint() throws IOException {
        byte[] good = saved(GzipIndex.Format.SLUICE);
        int cps = sluiceCheckpoints(good);
        int cp0 = sluiceCheckpointTable(good);
        long usize = le(good).getLong(24);

        byte[] bad = good.clone();
        le(bad).putLong(SLUICE_MEMBERS + SLUICE_MEMBER + 16, usize + 1); // member 1 starts past the end
        refused(resealed(bad), "index member start 1", "past the end");

        bad = good.clone();
        le(bad).putLong(SLUICE_MEMBERS + 16, 5); // the first member does not start at 0
        refused(resealed(bad), "index member start 0", "not 0");

        bad = good.clone();
        le(bad).putLong(SLUICE_MEMBERS + SLUICE_MEMBER + 8, le(good).getLong(16) + 1); // past the file
        refused(resealed(bad), "index member start 1", "within the");

        int last = cps - 1;
        bad = good.clone();
        le(bad).putLong(cp0 + SLUICE_CHECKPOINT * last + 8, 1L << 62);
        refused(resealed(bad), "index checkpoint " + last, "past the end");

        bad = good.clone();
        le(bad).putLong(cp0 + SLUICE_CHECKPOINT * 2, le(good).getLong(cp0 + SLUICE_CHECKPOINT)); // bit offsets equal
        refused(resealed(bad), "index checkpoint 2", "bit offset");

        bad = good.clone();
        le(bad).putLong(cp0 + SLUICE_CHECKPOINT * 3 + 8, le(good).getLong(cp0 + SLUICE_CHECKPOINT * 2 + 8) - 1);
        refused(resealed(bad), "index checkpoint 3", "uncompressed offset");

        bad = good.clone();
        le(bad).putInt(cp0 + SLUICE_CHECKPOINT * 2 + 20, 1000); // a window shorter than the 32 KiB it needs
        refused(resealed(bad), "index checkpoint 2", "window of 1000 bytes, 32768 needed");

        bad = good.clone();
        le(bad).putInt(cp0 + 16, 1); // checkpoint 0 said to be in member 1
        refused(resealed(bad), "index checkpoint 0", "not inside its member 1");
    }

    /**
     * Sluice's format keeps a checkpoint's window as stored and decodes it when a read starts there ({@link Window}):
     * stored data that does not decode to the window's length (past the index's CRC32, which the test reseals) is a
     * ZipException naming the checkpoint on every path that starts there, the channel and the parallel pieces, and
     * never wrong bytes.
     */
    @Test
    void aStoredWindowThatDoesNotDecodeIsAZipExceptionWhereAReadStartsThere() throws IOException {
        byte[] good = saved(GzipIndex.Format.SLUICE);
        int cp0 = sluiceCheckpointTable(good);
        int windows = cp0 + SLUICE_CHECKPOINT * sluiceCheckpoints(good);
        int c = 2;
        int at = windows;
        for (int i = 0; i < c; i++) {
            at += le(good).getInt(cp0 + SLUICE_CHECKPOINT * i + 24);
        }
        int stored = le(good).getInt(cp0 + SLUICE_CHECKPOINT * c + 24);
        byte[] gzBytes = Files.readAllBytes(gz);
        for (int edit = 0; edit < 2; edit++) {
            byte[] bad = good.clone();
            if (edit == 0) {
                bad[at] = (byte) 0xff; // a final block of type 3: invalid deflate data
            } else {
                // Half the stored bytes: the data runs out before the window's 32 KiB (and the next window starts
                // inside this one's data, so it is bad too; reads before checkpoint c are not).
                le(bad).putInt(cp0 + SLUICE_CHECKPOINT * c + 24, stored / 2);
            }
            Path f = tmp.resolve("stored-" + edit);
            Files.write(f, resealed(bad));
            GzipIndex loaded = GzipIndex.load(f);
            String named = "of checkpoint " + c + " in the index";
            try (SeekableByteChannel ch = loaded.openChannel(gz)) {
                ByteBuffer buf = ByteBuffer.allocate(100);
                ZipException e = assertThrows(ZipException.class, () -> ch.position(loaded.cpU[c]).read(buf));
                assertTrue(e.getMessage().contains(named), e.getMessage());
                int before = (int) loaded.cpU[c - 1];
                ch.position(before).read(buf.clear());
                assertArrayEquals(java.util.Arrays.copyOfRange(data, before, before + 100), buf.array());
            }
            ZipException e = assertThrows(ZipException.class, () -> TestData.readAll(GzipInputStream.builder()
                    .index(loaded).threads(2).pieceSize(1).build(new java.io.ByteArrayInputStream(gzBytes))));
            assertTrue(e.getMessage().contains(named), e.getMessage());
        }
        assertTrue(stored > 0);
    }

    /** The edits above are refused for what they break, not because the test writes the formats wrong. */
    @Test
    void theUneditedIndexesLoadAndRead() throws IOException {
        for (GzipIndex.Format format : GzipIndex.Format.values()) {
            byte[] good = format == GzipIndex.Format.SLUICE ? resealed(saved(format)) : saved(format);
            Path f = tmp.resolve("ok");
            Files.write(f, good);
            GzipIndex loaded = GzipIndex.load(f);
            try (SeekableByteChannel ch = loaded.openChannel(gz)) {
                ByteBuffer buf = ByteBuffer.allocate(1000);
                ch.position(data.length - 1000).read(buf);
                assertArrayEquals(java.util.Arrays.copyOfRange(data, data.length - 1000, data.length), buf.array());
            }
        }
    }
}
