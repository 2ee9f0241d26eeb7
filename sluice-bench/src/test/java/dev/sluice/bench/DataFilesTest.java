package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link DataFiles#inPages}: every byte reaches the file, in writes of exactly one page each (the last may be
 * shorter), whatever sizes the maker writes, so that the page cache holds data files in single pages on every run.
 */
class DataFilesTest {

    /** Records each write's length and the bytes. */
    private static final class Recorder extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<Integer> writes = new ArrayList<>();
        int closes;

        @Override
        public void write(int b) {
            writes.add(1);
            bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writes.add(len);
            bytes.write(b, off, len);
        }

        @Override
        public void close() {
            closes++;
        }
    }

    @Test
    void everyWriteIsOneWholePageButTheLastWhateverTheMakerWrites() throws IOException {
        for (long seed = 1; seed <= 40; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            Recorder rec = new Recorder();
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            try (OutputStream out = DataFiles.inPages(rec)) {
                int ops = r.nextInt(1, 60);
                for (int i = 0; i < ops; i++) {
                    // single bytes, short writes, exact pages and writes of many pages, at every offset
                    int kind = r.nextInt(4);
                    int len = kind == 0 ? 1 : kind == 1 ? r.nextInt(0, DataFiles.PAGE) : kind == 2 ? DataFiles.PAGE
                            : r.nextInt(DataFiles.PAGE, 5 * DataFiles.PAGE + 7);
                    byte[] b = new byte[len + 9];
                    r.nextBytes(b);
                    int off = r.nextInt(0, 10);
                    len = Math.min(len, b.length - off);
                    if (len == 1 && r.nextBoolean()) {
                        out.write(b[off]);
                    } else {
                        out.write(b, off, len);
                    }
                    out.flush(); // a flush never writes a partial page
                    expected.write(b, off, len);
                }
            }
            assertArrayEquals(expected.toByteArray(), rec.bytes.toByteArray(), "seed " + seed);
            for (int i = 0; i < rec.writes.size(); i++) {
                int len = rec.writes.get(i);
                if (i < rec.writes.size() - 1) {
                    assertEquals(DataFiles.PAGE, len, "seed " + seed + ", write " + i);
                } else {
                    assertTrue(len > 0 && len <= DataFiles.PAGE, "seed " + seed + ", last write " + len);
                }
            }
            assertEquals(1, rec.closes, "closes the underlying stream once");
        }
    }

    @Test
    void writesAfterCloseAndBadRangesAreRefused() throws IOException {
        Recorder rec = new Recorder();
        OutputStream out = DataFiles.inPages(rec);
        assertThrows(IndexOutOfBoundsException.class, () -> out.write(new byte[4], 3, 2));
        out.write(new byte[5], 0, 5);
        out.close();
        out.close();
        assertEquals(List.of(5), rec.writes);
        assertEquals(1, rec.closes);
        assertThrows(IOException.class, () -> out.write(1));
    }
}
