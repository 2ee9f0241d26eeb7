package dev.sluice.gzip;

/**
 * The native engines' binding as Java 17 sees it: there is none. The multi-release jar's
 * {@code META-INF/versions/22} has a class of this name whose {@link #get()} returns the binding of ISA-L and
 * libdeflate; this one method is all the two versions share, so nothing else has to be kept alike by hand. What the
 * engines are, and why one cannot be used when there is no binding, is said once, in {@link Engine}.
 */
final class NativeBinding {
    private NativeBinding() {}

    /** The binding of the native engines, or null when this JVM runs the base classes (Java 17-21, or no jar). */
    static EngineBinding get() {
        return null;
    }
}
