package dev.sluice.gzip;

/** {@link EngineContractTest} on ISA-L's encoder, levels 1-3 (JDK 22+ on the packaged jar with native access). */
class IsalDeflateEngineTest extends EngineContractTest {
    @Override
    Engine engine() {
        return Engine.ISAL_DEFLATE;
    }
}
