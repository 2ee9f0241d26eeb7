package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/** {@link EngineContractTest} on libdeflate's one-shot member encoder (JDK 22+, packaged jar, native access). */
class LibdeflateEngineTest extends EngineContractTest {
    @Override
    Engine engine() {
        return Engine.LIBDEFLATE;
    }

    /** A one-shot compressor refuses what only a streaming one can do, instead of writing a wrong stream. */
    @Test
    void refusesStreamingUse() {
        DeflateEngine e = engine().deflater(6, Deflater.DEFAULT_STRATEGY);
        try {
            byte[] b = new byte[100];
            e.setInput(b, 0, 10);
            assertEquals(0, e.deflate(b, 0, b.length, DeflateEngine.NO_FLUSH)); // nothing before finish()
            assertThrows(IllegalStateException.class, () -> e.setInput(b, 0, 10));
            assertThrows(IllegalStateException.class, () -> e.setDictionary(b, 0, 10));
            assertThrows(IllegalStateException.class, () -> e.deflate(b, 0, b.length, DeflateEngine.SYNC_FLUSH));
        } finally {
            e.end();
        }
    }
}
