package dev.sluice.io;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sluice.testing.FuzzedRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided version of {@link FastBufferedInputStreamDifferentialTest}: the fuzzer picks the buffer size, data
 * size, source behaviour and every operation (read(), read(b, off, len), skip, available, mark/reset, readNBytes,
 * readAllBytes, transferTo, close), run in lock step with {@link java.io.BufferedInputStream}. Same bytes, same
 * exception types, same model position; docs/fuzzing.md says how to run it.
 */
class FastBufferedInputStreamFuzzTest {

    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 10, unit = TimeUnit.SECONDS) // per input; Jazzer passes it on as libFuzzer's -timeout
    void fuzz(FuzzedDataProvider data) throws Exception {
        long seed = data.consumeLong(); // the hostile source's short reads
        FastBufferedInputStreamDifferentialTest.runSequence(new FuzzedRandom(data), seed);
    }
}
