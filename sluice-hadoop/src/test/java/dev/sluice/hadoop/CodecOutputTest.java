package dev.sluice.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.gzip.GzipMembers;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link SplittableGzipCodec#createOutputStream} writes: gzip the JDK decodes to the same bytes, made of members
 * that each say their length ('SL'), at most one block of input each, which the codec then splits back into the same
 * lines; Hadoop's finish/resetState in the middle of the data only cut a member short.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CodecOutputTest {
    private static final long SEED = System.nanoTime();

    @TempDir
    Path tmp;

    @Test
    void writtenFilesDecodeWithTheJdkAndSplitIntoTheSameLines() throws IOException {
        System.out.println("CodecOutputTest seed " + SEED);
        Random r = new Random(SEED);
        for (int round = 0; round < 6; round++) {
            int blockSize = 4096 << r.nextInt(4);
            int level = r.nextInt(10);
            byte[] data = LineRecordReaderSplitTest.randomLines(r, r.nextInt(200_000));
            Configuration conf = Splits.conf(tmp);
            conf.setInt(SplittableGzipCodec.BLOCK_SIZE_KEY, blockSize);
            conf.setInt(SplittableGzipCodec.LEVEL_KEY, level);
            SplittableGzipCodec codec = new SplittableGzipCodec();
            codec.setConf(conf);
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            try (CompressionOutputStream out = codec.createOutputStream(sink)) {
                for (int off = 0; off < data.length; ) {
                    int n = Math.min(data.length - off, r.nextInt(3) == 0 ? 1 : r.nextInt(3 * blockSize));
                    if (n == 1) {
                        out.write(data[off]);
                    } else {
                        out.write(data, off, n);
                    }
                    off += n;
                    if (r.nextInt(8) == 0) { // what SequenceFile's block compression does between blocks
                        out.finish();
                        out.resetState();
                    }
                }
            }
            byte[] gz = sink.toByteArray();
            String what = "seed " + SEED + " round " + round + " level " + level + " block " + blockSize;
            if (data.length == 0) {
                assertEquals(0, gz.length, what);
                continue;
            }
            try (GZIPInputStream jdk = new GZIPInputStream(new ByteArrayInputStream(gz))) {
                assertArrayEquals(data, jdk.readAllBytes(), what);
            }
            Path file = Files.write(Files.createTempFile(tmp, "out", ".gz"), gz);
            try (FileChannel ch = FileChannel.open(file)) {
                long total = 0;
                for (long at = 0; at < gz.length; ) {
                    GzipMembers.Member m = GzipMembers.read(ch, at);
                    assertNotNull(m, "an SL subfield at " + at + ", " + what);
                    assertTrue(m.uncompressedSize() <= blockSize, m + ", " + what);
                    total += m.uncompressedSize();
                    at += m.totalLength();
                }
                assertEquals(data.length, total, what);
            }
            long splitSize = Math.max(1, gz.length / 7);
            assertEquals(TestFiles.lines(data), Splits.readAll(conf, file, gz.length, splitSize), what);
        }
    }

    @Test
    void settingsOutsideTheirRangeAndClosedStreamsAreRefused() throws IOException {
        SplittableGzipCodec codec = new SplittableGzipCodec();
        Configuration conf = new Configuration(false);
        codec.setConf(conf);
        conf.setInt(SplittableGzipCodec.BLOCK_SIZE_KEY, 4095);
        assertThrows(IllegalArgumentException.class, () -> codec.createOutputStream(new ByteArrayOutputStream()));
        conf.setInt(SplittableGzipCodec.BLOCK_SIZE_KEY, 4096);
        conf.setInt(SplittableGzipCodec.LEVEL_KEY, 10);
        assertThrows(IllegalArgumentException.class, () -> codec.createOutputStream(new ByteArrayOutputStream()));
        conf.setInt(SplittableGzipCodec.LEVEL_KEY, 1);
        assertThrows(NullPointerException.class, () -> codec.createOutputStream(null));
        CompressionOutputStream out = codec.createOutputStream(new ByteArrayOutputStream());
        assertThrows(IndexOutOfBoundsException.class, () -> out.write(new byte[4], 3, 2));
        out.close();
        out.close(); // twice is safe
        assertThrows(IOException.class, () -> out.write(1));
        assertThrows(IOException.class, out::finish);
    }
}
