package dev.sluice.gzip;

/** {@link EngineContractTest} on the JDK's zlib encoder (every JVM). */
class ZlibDeflateEngineTest extends EngineContractTest {
    @Override
    Engine engine() {
        return Engine.ZLIB_DEFLATE;
    }
}
