package dev.sluice.gzip;

/**
 * The native gzip backends as seen from Java 17: there are none, and every method says so. The multi-release jar
 * replaces this class on Java 22+ with {@code META-INF/versions/22/dev/sluice/gzip/NativeEngines.class}, which binds
 * ISA-L and libdeflate through java.lang.foreign; both versions have exactly these package-private members, and
 * {@link GzipEngines} holds the policy ({@code sluice.gzip.native}) on top of them.
 */
final class NativeEngines {
    private NativeEngines() {}

    private static final String WHY = Runtime.version().feature() < 22
            ? "native engines need Java 22+ (this is Java " + Runtime.version().feature() + ")"
            : "sluice-core was loaded without its Java 22 classes (META-INF/versions/22 of the multi-release jar)";

    /** Null when ISA-L's inflate is bound and passed its self-test, else why not. */
    static String isalInflateProblem() {
        return WHY;
    }

    /** Null when ISA-L's deflate is bound and passed its self-test, else why not. */
    static String isalDeflateProblem() {
        return WHY;
    }

    /** Null when libdeflate is bound and passed its self-test, else why not. */
    static String libdeflateProblem() {
        return WHY;
    }

    /** An ISA-L inflater; only called when {@link #isalInflateProblem()} is null. */
    static InflateEngine isalInflater() {
        throw new UnsupportedOperationException(WHY);
    }

    /** A streaming ISA-L deflater for {@code level} 1..3; only called when {@link #isalDeflateProblem()} is null. */
    static DeflateEngine isalDeflater(int level) {
        throw new UnsupportedOperationException(WHY);
    }

    /** A libdeflate one-shot member compressor; only called when {@link #libdeflateProblem()} is null. */
    static DeflateEngine libdeflateDeflater(int level) {
        throw new UnsupportedOperationException(WHY);
    }
}
