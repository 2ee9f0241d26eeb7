package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link GzipStats} from {@link GzipInputStream#stats()}: the span's figures, their line, and when there are none. */
@Timeout(60)
class GzipStatsTest {
    static final Pattern LINE = Pattern.compile("sluice-stats: wall_s=(\\d+\\.\\d{3}) cpu_s=(\\d+\\.\\d{3})"
            + " caller_cpu_s=(\\d+\\.\\d{3}) threads=(\\d+) in_bytes=(\\d+) out_bytes=(\\d+)");

    private static byte[] members(byte[] data) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ParallelGzipOutputStream out = ParallelGzipOutputStream.builder().threads(2).blockSize(64 * 1024)
                .format(ParallelGzipOutputStream.Format.INDEPENDENT_MEMBERS)
                .build(b)) {
            out.write(data);
        }
        return b.toByteArray();
    }

    @Test
    void figuresOfAWholeReadOnOneThreadAndOnWorkers() throws IOException {
        long seed = System.nanoTime();
        System.out.println("GzipStatsTest seed " + seed);
        byte[] data = TestData.mixed(new Random(seed), 1 << 20);
        byte[] gz = members(data);
        for (int threads : new int[] {1, 3}) {
            for (boolean transfer : new boolean[] {false, true}) {
                GzipInputStream in = GzipInputStream.builder().threads(threads).stats(true)
                        .build(new ByteArrayInputStream(gz));
                assertThrows(IllegalStateException.class, in::stats, "nothing read yet");
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                if (transfer) {
                    in.transferTo(out);
                } else {
                    byte[] buf = new byte[1000];
                    for (int n; (n = in.read(buf)) >= 0; ) {
                        out.write(buf, 0, n);
                    }
                }
                assertArrayEquals(data, out.toByteArray());
                GzipStats s = in.stats();
                assertEquals(s.line(), in.stats().line(), "the span ended with the data: the same figures after");
                in.close();
                assertEquals(threads, s.threads());
                assertEquals(gz.length, s.inBytes());
                assertEquals(data.length, s.outBytes());
                assertTrue(s.wallSeconds() > 0, s.line());
                assertTrue(s.callerCpuSeconds() >= 0 && s.cpuSeconds() >= s.callerCpuSeconds() - 0.021, s.line());
                Matcher m = LINE.matcher(s.line());
                assertTrue(m.matches(), s.line());
                assertEquals(String.valueOf(gz.length), m.group(5));
                assertEquals(String.valueOf(data.length), m.group(6));
            }
        }
    }

    @Test
    void aStreamBuiltWithoutStatsHasNone() throws IOException {
        byte[] gz = members(new byte[10]);
        try (GzipInputStream in = GzipInputStream.builder().build(new ByteArrayInputStream(gz))) {
            in.readAllBytes();
            assertThrows(IllegalStateException.class, in::stats);
        }
    }

    static volatile long sink;

    @Test
    void aMeterMeasuresTheThreadThatStopsIt() {
        GzipStats.Meter meter = new GzipStats.Meter();
        assertThrows(IllegalStateException.class, () -> meter.stop(1, 0, 0));
        meter.start();
        long x = 0;
        for (int i = 0; i < 20_000_000; i++) {
            x += i * (long) i ^ x >>> 3; // some CPU on this thread
        }
        sink = x; // keeps the loop
        GzipStats s = meter.stop(4, 10, 20);
        assertEquals(4, s.threads());
        assertTrue(s.callerCpuSeconds() > 0 && s.cpuSeconds() >= s.callerCpuSeconds() - 0.021, s.line());
        assertTrue(s.callerShare() > 0, s.line());
        assertTrue(LINE.matcher(s.line()).matches(), s.line());
    }
}
