package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.gzip.ParallelGzipOutputStream.Format;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link GzipInputStream#PARALLEL_AFTER}: independent members go to workers only once the stream's output and the
 * next member's claim reach the threshold, so a small file never starts a thread and a large one still decodes on
 * its workers. The suites run with the threshold at 0 (sluice-core's pom), so these tests set it themselves.
 */
@Timeout(60)
class ParallelAfterTest {
    private static final int THRESHOLD = 128 * 1024;

    @Test
    void aSmallFileOfIndependentMembersIsDecodedOnTheCallersThread() throws IOException {
        byte[] data = TestData.text(new Random(1), 10_000);
        for (Format format : new Format[] {Format.BGZF, Format.INDEPENDENT_MEMBERS}) {
            byte[] gz = ParallelGzipInputTest.write(format, data, 4096);
            assertEquals(1, decode(gz, data, THRESHOLD), format + ": no workers below the threshold");
            // The same file reaches the workers when the threshold is 0, so the assertion above can fail.
            assertEquals(4, decode(gz, data, 0), format + " at threshold 0");
        }
    }

    @Test
    void manySmallMembersReachTheWorkersOnceTheOutputReachesTheThreshold() throws IOException {
        byte[] data = TestData.mixed(new Random(2), 3 * THRESHOLD);
        for (Format format : new Format[] {Format.BGZF, Format.INDEPENDENT_MEMBERS}) {
            byte[] gz = ParallelGzipInputTest.write(format, data, 4096);
            assertEquals(4, decode(gz, data, THRESHOLD), format.toString());
            // Past all of the output: every member on the caller's thread, the same bytes.
            assertEquals(1, decode(gz, data, 4L * THRESHOLD), format + " with a threshold past the output");
        }
    }

    @Test
    void aNegativeThresholdIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> GzipInputStream.builder().parallelAfter(-1));
    }

    /** Decodes {@code gz} on 4 threads at {@code threshold}, checks the bytes, returns the threads that worked. */
    private static int decode(byte[] gz, byte[] expected, long threshold) throws IOException {
        try (GzipInputStream in = GzipInputStream.builder().threads(4).strategy("auto").parallelAfter(threshold)
                .stats(true).build(new ByteArrayInputStream(gz))) {
            assertArrayEquals(expected, in.readAllBytes());
            return in.stats().threads();
        }
    }
}
