package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * {@link BlockFinder}, {@link MarkerInflater} and {@link SpeculativeReader} on arbitrary bytes. The finder's
 * candidates are decoded from (as a worker does) and must never throw or hang; the reader, with fuzzed chunk size
 * (tiny chunks: every boundary, false candidate and fallback), threads and read-ahead, must give the one-thread
 * {@link GzipInputStream}'s bytes where it succeeds and an exception of its type where it fails, after a prefix of
 * what zlib decodes. The payload goes behind a minimal gzip header unless the input asks for it raw.
 */
class SpeculativeFuzzTest {
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};

    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void fuzz(FuzzedDataProvider data) throws IOException {
        int chunk = data.consumeBoolean() ? data.consumeInt(1, 64) : data.consumeInt(1, 70_000);
        int threads = data.consumeInt(1, 3);
        int ahead = data.consumeInt(0, 1 << 16);
        boolean ignore = data.consumeBoolean();
        boolean raw = data.consumeBoolean();
        byte[] payload = data.consumeRemainingAsBytes();
        byte[] gz = raw ? payload : concat(HEADER, payload);

        // The finder and the decoder alone, over the whole input as one chunk.
        MarkerInflater m = new MarkerInflater();
        byte[] in = Arrays.copyOf(gz, gz.length + 16);
        long stop = (long) gz.length << 3;
        int tries = 0;
        for (long from = 0; from < stop && tries < 64; tries++) {
            long bit = BlockFinder.next(m, in, gz.length, from, stop);
            if (bit < 0) {
                break;
            }
            m.decode(in, gz.length, bit, stop / 2, false, 1 << 20, 2 << 20);
            // The memory bound: the hard cap in symbols (and the byte phase's slack).
            assertTrue(m.out.length <= (2 << 20) + MarkerInflater.SLACK
                    && (m.bytes == null || m.bytes.length <= (2 << 20) + MarkerInflater.SLACK));
            from = bit + 1;
        }

        if (gz.length < 10 || gz[0] != 0x1f || gz[1] != (byte) 0x8b) {
            return; // the reader starts after a first header that GzipInputStream has read
        }
        Speculative.Outcome want = Speculative.serial(gz, ignore);
        if (want.failure() != null && want.bytes().length == 0 && firstHeaderFails(gz)) {
            return;
        }
        Speculative.Outcome got = Speculative.speculative(gz, threads, chunk, ahead, ignore);
        if (want.failure() == null) {
            assertEquals(null, got.failure());
            assertArrayEquals(want.bytes(), got.bytes());
            assertEquals(want.garbageIgnored(), got.garbageIgnored());
        } else {
            assertEquals(want.failure().getClass(), got.failure() == null ? null : got.failure().getClass(),
                    want.failure() + " vs " + got.failure());
            int n = got.bytes().length;
            byte[] ref = want.bytes();
            if (n > ref.length || !Arrays.equals(ref, 0, n, got.bytes(), 0, n)) {
                ref = Speculative.zlibPrefix(gz);
            }
            assertTrue(n <= ref.length + 1, n + " bytes before " + got.failure() + "; the one-thread stream: "
                    + want.bytes().length + " before " + want.failure() + ", zlib " + ref.length + "; chunk " + chunk
                    + " threads " + threads + " ahead " + ahead);
            assertArrayEquals(Arrays.copyOf(ref, Math.min(n, ref.length)), Arrays.copyOf(got.bytes(), Math.min(n,
                    ref.length)));
        }
    }

    /** True if the first member's header itself is bad: the reader is never handed such input. */
    private static boolean firstHeaderFails(byte[] gz) {
        try {
            Speculative.headerLength(gz);
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
