package dev.sluice.gzip;

/** {@link EngineContractTest} on the JDK's zlib decoder (every JVM). */
class ZlibInflateEngineTest extends EngineContractTest {
    @Override
    Engine engine() {
        return Engine.ZLIB_INFLATE;
    }
}
