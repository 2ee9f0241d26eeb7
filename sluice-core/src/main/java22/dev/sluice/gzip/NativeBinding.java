package dev.sluice.gzip;

/**
 * The native engines' binding on Java 22+: this class replaces the base one of the same name in the multi-release
 * jar, and its one method, the only member the two versions share, hands out {@link NativeEngines}' binding.
 */
final class NativeBinding {
    private NativeBinding() {}

    /** The binding of ISA-L and libdeflate; each library is probed at the first question about one of its engines. */
    static EngineBinding get() {
        return NativeEngines.BINDING;
    }
}
