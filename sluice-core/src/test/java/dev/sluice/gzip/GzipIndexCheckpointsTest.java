package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint accessors and the index file names that sluice-hadoop and the CLI use: offsets increasing and inside
 * the file, each checkpoint's uncompressed offset a place the channel reads the right bytes from, in every format.
 */
@Timeout(60)
class GzipIndexCheckpointsTest {

    @TempDir
    Path tmp;

    @Test
    void checkpointsAreIncreasingAndReadableFromInEveryFormat() throws IOException {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        byte[] data = TestData.text(r, 400_000);
        byte[] gz = GzipIndexTest.deflateMember(data, 6, java.util.zip.Deflater.DEFAULT_STRATEGY, 7919,
                java.util.zip.Deflater.SYNC_FLUSH);
        Path file = tmp.resolve("t.gz");
        Files.write(file, gz);
        GzipIndex built = GzipIndex.build(file, 1 + r.nextInt(20_000));
        for (GzipIndex.Format f : GzipIndex.Format.values()) {
            Path saved = tmp.resolve(f.fileName("t.gz"));
            built.save(saved, f);
            GzipIndex ix = GzipIndex.load(saved);
            String what = f + " seed " + seed;
            assertEquals(built.checkpoints(), ix.checkpoints(), what);
            assertTrue(ix.checkpoints() > 10, what + ": " + ix.checkpoints());
            long lastC = 0;
            long lastU = -1;
            try (SeekableByteChannel ch = ix.openChannel(file)) {
                for (int i = 0; i < ix.checkpoints(); i++) {
                    long c = ix.checkpointCompressedOffset(i);
                    long u = ix.checkpointUncompressedOffset(i);
                    assertEquals(built.checkpointCompressedOffset(i), c, what);
                    assertEquals(built.checkpointUncompressedOffset(i), u, what);
                    assertTrue(c > lastC && c < gz.length && u > lastU && u <= data.length, what + " #" + i);
                    lastC = c;
                    lastU = u;
                    ByteBuffer b = ByteBuffer.allocate((int) Math.min(3000, data.length - u));
                    ch.position(u);
                    while (b.hasRemaining() && ch.read(b) > 0) {
                        // fill
                    }
                    assertArrayEquals(Arrays.copyOfRange(data, (int) u, (int) u + b.capacity()), b.array(),
                            what + " #" + i);
                }
            }
            assertThrows(IndexOutOfBoundsException.class, () -> ix.checkpointCompressedOffset(-1));
            assertThrows(IndexOutOfBoundsException.class, () -> ix.checkpointUncompressedOffset(ix.checkpoints()));
        }
    }

    @Test
    void indexFileNamesFollowEachToolsConvention() {
        assertEquals("a.csv.gz.sgzi", GzipIndex.Format.SLUICE.fileName("a.csv.gz"));
        assertEquals("a.csv.gz.gzidx", GzipIndex.Format.INDEXED_GZIP.fileName("a.csv.gz"));
        assertEquals("a.csv.gzi", GzipIndex.Format.GZTOOL.fileName("a.csv.gz"));
        assertEquals("a.tgz.gzi", GzipIndex.Format.GZTOOL.fileName("a.tgz"));
        assertThrows(NullPointerException.class, () -> GzipIndex.Format.SLUICE.fileName(null));
    }
}
