package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded corruption of valid gzip files: flipped bytes in every region (header, deflate data, trailer) and
 * truncation at every kind of offset. The contract: the stream either throws an {@link IOException} subtype or
 * decodes exactly the original data (a flip in MTIME, OS or a deflate padding bit is harmless), never another
 * exception, never a hang, never an OutOfMemoryError. Truncation is always an {@link EOFException}.
 */
class GzipCorruptionTest {
    private static final int CASES = 12_000;

    private record Sample(byte[] gz, byte[] data, int headerEnd) {}

    @Test
    void flippedAndTruncatedInputOnlyEverThrowsIoExceptions(@TempDir Path dir) {
        Path file = dir.resolve("out");
        long seed = Long.getLong("sluice.test.seed", System.nanoTime());
        List<Sample> samples = samples(new Random(seed));
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            Random r = new Random(seed);
            int errors = 0;
            int truncations = 0;
            for (int i = 0; i < CASES; i++) {
                Sample s = samples.get(r.nextInt(samples.size()));
                byte[] bad = s.gz.clone();
                boolean truncate = r.nextInt(4) == 0;
                String what;
                if (truncate) {
                    bad = Arrays.copyOf(bad, r.nextInt(bad.length));
                    what = "truncated to " + bad.length;
                    truncations++;
                } else {
                    int region = r.nextInt(3);
                    int at = region == 0 ? r.nextInt(s.headerEnd)
                            : region == 1 ? s.headerEnd + r.nextInt(bad.length - 8 - s.headerEnd)
                            : bad.length - 1 - r.nextInt(8);
                    int flips = 1 + (r.nextInt(8) == 0 ? r.nextInt(4) : 0);
                    for (int k = 0; k < flips; k++) {
                        int pos = k == 0 ? at : Math.min(bad.length - 1, at + r.nextInt(16));
                        bad[pos] ^= (byte) (1 + r.nextInt(255));
                    }
                    what = flips + " flip(s) from offset " + at + " (region " + region + ")";
                }
                InputStream src = new ByteArrayInputStream(bad);
                if (r.nextInt(8) == 0) {
                    src = new TestData.RandomShortInputStream(src, i);
                }
                String ctx = "seed " + seed + " case " + i + ": " + what;
                boolean viaFile = r.nextInt(4) == 0;
                ctx += viaFile ? " (transferTo a file)" : "";
                try {
                    GzipInputStream in = GzipInputStream.builder().bufferSize(1 + r.nextInt(9000))
                            .maxOutputBytes(1 << 22).build(src);
                    // transferTo into a FileOutputStream takes another path: a native decoder's memory straight
                    // to the file's channel.
                    byte[] out = viaFile ? transferToFile(in, file) : TestData.readAll(in);
                    if (truncate) {
                        fail(ctx + ": truncated input decoded without an EOFException");
                    }
                    assertArrayEquals(s.data, out, ctx + ": decoded without error to different data");
                } catch (EOFException e) {
                    errors++;
                } catch (IOException e) {
                    if (truncate) {
                        fail(ctx + ": truncation gave " + e + " instead of EOFException");
                    }
                    errors++;
                } catch (RuntimeException | OutOfMemoryError e) {
                    throw new AssertionError(ctx + ": " + e, e);
                }
            }
            // The contract would hold vacuously if nothing were ever rejected.
            assertTrue(errors > CASES / 2, "seed " + seed + ": only " + errors + " errors");
            assertTrue(truncations > CASES / 8, "seed " + seed);
        });
    }

    private static byte[] transferToFile(GzipInputStream in, Path file) throws IOException {
        try (in; FileOutputStream out = new FileOutputStream(file.toFile())) {
            in.transferTo(out);
        }
        return Files.readAllBytes(file);
    }

    private static List<Sample> samples(Random r) {
        List<Sample> list = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            int size = i == 0 ? 0 : i == 1 ? 1 : r.nextInt(40_000);
            byte[] data = i % 3 == 0 ? TestData.random(r, size) : TestData.text(r, size);
            GzipHeader h = i % 2 == 0 ? GzipHeader.minimal()
                    : GzipHeader.builder().name("file-" + i + ".txt").comment(i % 4 == 1 ? "c" : null)
                            .extra(i % 4 == 3 ? new byte[] {'A', 'B', 2, 0, 7, 7} : null).headerCrc(i % 5 == 0)
                            .modificationTime(Instant.ofEpochSecond(1_700_000_000L + i)).build();
            int level = i % 4 == 2 ? 0 : 1 + r.nextInt(9);
            list.add(new Sample(TestData.member(h, data, level), data, h.encode(0).length));
        }
        return list;
    }
}
