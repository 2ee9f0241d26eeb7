package dev.sluice.gzip;

import java.util.Locale;
import java.util.zip.Deflater;

/**
 * Which raw-deflate engines Sluice's gzip streams use, and why. On Java 22+ with native access enabled for Sluice's
 * module ({@code --enable-native-access=dev.sluice} on the module path, {@code ALL-UNNAMED} on the class path), the
 * system's ISA-L ({@code libisal.so.2}) decodes every {@link GzipInputStream} and encodes levels 1-3, and libdeflate
 * ({@code libdeflate.so.0}) encodes independent members at levels 4 and up; elsewhere the JDK's zlib does everything.
 *
 * <p>The system property {@code sluice.gzip.native} chooses: {@code auto} (default) takes a native engine when it is
 * there and silently falls back to zlib otherwise; {@code off} always uses zlib; {@code require} throws
 * {@link IllegalStateException} naming what is missing when a stream would need a native engine that cannot be used.
 * The choice is probed once, at first use, before any restricted call, so nothing is ever printed. Thread-safe.
 */
public final class GzipEngines {
    private GzipEngines() {}

    /** The property that chooses between native engines and the JDK's zlib. */
    public static final String PROPERTY = "sluice.gzip.native";

    private static final String ZLIB = "zlib (JDK)";

    /**
     * One line saying which engine decodes gzip and, when it is zlib, why no native one: for example
     * {@code "ISA-L (libisal.so.2)"} or {@code "zlib (JDK): native access is not enabled ..."}.
     */
    public static String inflateEngine() {
        String why = problem(NativeEngines.isalInflateProblem());
        return why == null ? "ISA-L isal_inflate (libisal.so.2)" : ZLIB + ": " + why;
    }

    /** One line saying which engines encode gzip at each level and, where zlib is used, why. */
    public static String deflateEngine() {
        String isal = problem(NativeEngines.isalDeflateProblem());
        String lib = problem(NativeEngines.libdeflateProblem());
        return "levels 1-3 " + (isal == null ? "ISA-L (libisal.so.2)" : ZLIB)
                + "; levels 4-9 one member " + ZLIB
                + "; levels 4+ independent members " + (lib == null ? "libdeflate (libdeflate.so.0)" : ZLIB)
                + (isal != null ? " [ISA-L: " + isal + "]" : "")
                + (lib != null && !lib.equals(isal) ? " [libdeflate: " + lib + "]" : "");
    }

    /** The native inflater, or null for zlib. */
    static InflateEngine inflater() {
        return !off() && use(NativeEngines.isalInflateProblem(), "ISA-L") ? NativeEngines.isalInflater() : null;
    }

    /** A native streaming deflater for {@code level}, or null for zlib (levels 4-9 and non-default strategies). */
    static DeflateEngine streamDeflater(int level, int strategy) {
        if (level < 1 || level > 3 || strategy != Deflater.DEFAULT_STRATEGY) {
            return null;
        }
        return !off() && use(NativeEngines.isalDeflateProblem(), "ISA-L") ? NativeEngines.isalDeflater(level) : null;
    }

    /** A native one-shot member deflater for {@code level}, or null for zlib. */
    static DeflateEngine memberDeflater(int level, int strategy) {
        if (level < 1 || strategy != Deflater.DEFAULT_STRATEGY) {
            return null;
        }
        if (level <= 3) {
            return streamDeflater(level, strategy);
        }
        return !off() && use(NativeEngines.libdeflateProblem(), "libdeflate")
                ? NativeEngines.libdeflateDeflater(level) : null;
    }

    /**
     * True for {@code off}: asked before a backend's problem, because finding the problem binds and self-tests the
     * native library (tens of milliseconds of start-up that {@code off} exists to avoid).
     */
    private static boolean off() {
        return mode().equals("off");
    }

    /** The mode's verdict on a backend: true to use it; false for zlib; throws when required but unusable. */
    private static boolean use(String problem, String backend) {
        String mode = mode();
        if (mode.equals("off")) {
            return false;
        }
        if (problem != null && mode.equals("require")) {
            throw new IllegalStateException(PROPERTY + "=require, but " + backend + " cannot be used: " + problem);
        }
        return problem == null;
    }

    /** The backend's problem as the current mode sees it ({@code off} is a reason of its own). */
    private static String problem(String backendProblem) {
        return mode().equals("off") ? PROPERTY + "=off" : backendProblem;
    }

    private static String mode() {
        String mode = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        if (!mode.equals("auto") && !mode.equals("off") && !mode.equals("require")) {
            throw new IllegalArgumentException(PROPERTY + " is not auto, off or require: " + mode);
        }
        return mode;
    }
}
