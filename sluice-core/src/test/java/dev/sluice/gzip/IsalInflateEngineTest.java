package dev.sluice.gzip;

/** {@link EngineContractTest} on ISA-L's decoder (JDK 22+ on the packaged jar with native access). */
class IsalInflateEngineTest extends EngineContractTest {
    @Override
    Engine engine() {
        return Engine.ISAL_INFLATE;
    }
}
