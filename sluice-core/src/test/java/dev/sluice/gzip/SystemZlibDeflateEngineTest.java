package dev.sluice.gzip;

/** {@link EngineContractTest} on the system's zlib encoder, levels 0-9 (JDK 22+ on the packaged jar with native access). */
class SystemZlibDeflateEngineTest extends EngineContractTest {
    @Override
    Engine engine() {
        return Engine.SYSTEM_ZLIB;
    }
}
