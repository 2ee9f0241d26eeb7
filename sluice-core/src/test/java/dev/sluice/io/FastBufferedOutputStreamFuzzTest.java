package dev.sluice.io;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sluice.testing.FuzzedRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided version of {@link FastBufferedOutputStreamDifferentialTest}: the fuzzer picks the buffer size and
 * every write(int), write(b, off, len), flush and failing-sink episode, run in lock step with
 * {@link java.io.BufferedOutputStream}; both sinks must hold the bytes written after every flush and at the end.
 */
class FastBufferedOutputStreamFuzzTest {

    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void fuzz(FuzzedDataProvider data) throws Exception {
        FastBufferedOutputStreamDifferentialTest.runSequence(new FuzzedRandom(data));
    }
}
