package dev.sluice.gzip;

import java.util.zip.Deflater;

/**
 * Every raw-deflate engine Sluice's gzip streams can use, registered here and nowhere else: its name, the library it
 * needs, what it does, the levels it serves, and ({@link #problem()}) why it cannot be used on this JVM. The order of
 * the constants is the order of preference: {@link GzipEngines} takes the first engine that serves a use and level and
 * that its mode allows, and describes its choice from the same table. zlib serves everything, so there is always one.
 *
 * <p>Adding an engine: its class in {@code src/main/java22} (or here, if it needs no native code), its probe in the
 * Java 22 {@code NativeEngines}, and one constant here; the policy and its description follow. The contract test
 * ({@code EngineContractTest}) then wants a subclass naming the new constant. Thread-safe.
 */
enum Engine {
    /**
     * ISA-L's inflate (igzip's decoder): {@code isal_inflate} 1553 MB/s against the JDK Inflater's 676 MB/s through
     * java.lang.foreign, GzipInputStream 2.48x GZIPInputStream (docs/benchmarks/gzip.md, issue 13 and later).
     */
    ISAL_INFLATE("ISA-L isal_inflate", "libisal.so.2", Use.INFLATE, 0, 0),
    /**
     * ISA-L's deflate at its levels 1-3 (Sluice level n = {@code igzip -n}: sizes within 0.1% of igzip's, smaller than
     * zlib's at the same level), streaming with flushes and dictionaries, for both layouts. ISA-L has no levels above
     * 3 (docs/benchmarks/gzip.md, issue 13).
     */
    ISAL_DEFLATE("ISA-L", "libisal.so.2", Use.STREAM | Use.PARALLEL | Use.MEMBERS, 1, 3),
    /**
     * libdeflate's one-shot compressor: independent members only (it needs a member's whole input at once and has no
     * streaming or dictionary), levels 4-12: level 6 on 1 MiB members 103 MB/s against zlib's 48 MB/s
     * (docs/benchmarks/gzip.md, issue 13). Levels 1-3 stay ISA-L's, which comes first.
     */
    LIBDEFLATE("libdeflate", "libdeflate.so.0", Use.MEMBERS, 4, 12),
    /**
     * The system's zlib (what pigz links) for ParallelGzipOutputStream's one member, every level ISA-L does not take:
     * the same output as the JDK's zlib, at about 10% less CPU than the JDK's build of it at level 6
     * (docs/benchmarks/gzip.md, issue 31). Not for {@link GzipOutputStream}: binding it costs a JVM's first small
     * stream about 180 ms ({@link Use#PARALLEL}).
     */
    SYSTEM_ZLIB("zlib", "libz.so.1", Use.PARALLEL, 0, 9),
    /** The JDK's zlib ({@link java.util.zip.Inflater}): always there. */
    ZLIB_INFLATE("zlib", null, Use.INFLATE, 0, 0),
    /** The JDK's zlib ({@link Deflater}): always there, every level 0-9 and every strategy. */
    ZLIB_DEFLATE("zlib", null, Use.STREAM | Use.PARALLEL | Use.MEMBERS, 0, 9);

    /** What an engine is used for: bits of {@link #uses}. */
    static final class Use {
        /** Decoding raw deflate ({@link InflateEngine}). */
        static final int INFLATE = 1;
        /** Streaming deflate: one member, sync flushes, dictionaries (GzipOutputStream, the single-member layout). */
        static final int STREAM = 2;
        /** One-shot deflate of a whole member at a time (independent members, BGZF). */
        static final int MEMBERS = 4;
        /**
         * Streaming deflate as {@link #STREAM}, for ParallelGzipOutputStream's one member: the bulk work that an
         * engine with a costly first binding pays back (the system zlib: 243 against 66 ms for a JVM that writes
         * one 6-byte GzipOutputStream at level 6, Temurin 25, docs/benchmarks/gzip.md).
         */
        static final int PARALLEL = 8;

        private Use() {}
    }

    /** Why no native engine can be used when the Java 22 classes are not there. */
    private static final String NO_JAVA_22 = Runtime.version().feature() < 22
            ? "native engines need Java 22+ (this is Java " + Runtime.version().feature() + ")"
            : "sluice-core was loaded without its Java 22 classes (META-INF/versions/22 of the multi-release jar)";

    private final String name;
    private final String library;
    private final int uses;
    private final int minLevel;
    private final int maxLevel;

    Engine(String name, String library, int uses, int minLevel, int maxLevel) {
        this.name = name;
        this.library = library;
        this.uses = uses;
        this.minLevel = minLevel;
        this.maxLevel = maxLevel;
    }

    /** How {@code sluice info} names it, with its library: {@code "libdeflate (libdeflate.so.0)"}. */
    String label() {
        return name + " (" + (library == null ? "JDK" : library) + ")";
    }

    /** The engine's short name, {@code "ISA-L"}, {@code "libdeflate"}, {@code "zlib"}. */
    String shortName() {
        return name.split(" ")[0];
    }

    /** The soname of the native library this engine binds, or null for the JDK's own. */
    String library() {
        return library;
    }

    /** True for an engine that needs a native library (and Java 22+). */
    boolean isNative() {
        return library != null;
    }

    /** True if this engine does {@code use} (a {@link Use} bit) at {@code level} with {@code strategy}. */
    boolean serves(int use, int level, int strategy) {
        if ((uses & use) == 0) {
            return false;
        }
        if (use == Use.INFLATE) {
            return true;
        }
        return level >= minLevel && level <= maxLevel && (!isNative() || strategy == Deflater.DEFAULT_STRATEGY);
    }

    /** The highest level this engine serves (0 for a decoder). */
    int maxLevel() {
        return maxLevel;
    }

    /**
     * Null if this engine can be used on this JVM, else why not, as a sentence: the Java version, native access, the
     * library that would not load, a symbol missing, a failed self-test. Probed once, at the first call for the
     * engine's library, before any restricted call, so nothing is ever printed.
     */
    String problem() {
        if (!isNative()) {
            return null;
        }
        EngineBinding b = NativeBinding.get();
        return b == null ? NO_JAVA_22 : b.problem(this);
    }

    /** A new decoder of this engine; only for an inflate engine whose {@link #problem()} is null. */
    InflateEngine inflater() {
        if (!serves(Use.INFLATE, 0, Deflater.DEFAULT_STRATEGY)) {
            throw new IllegalArgumentException(this + " does not inflate");
        }
        return isNative() ? NativeBinding.get().inflater(this) : new JdkInflateEngine();
    }

    /** A new encoder of this engine at {@code level}; only for a deflate engine whose {@link #problem()} is null. */
    DeflateEngine deflater(int level, int strategy) {
        if (!serves(Use.STREAM, level, strategy) && !serves(Use.PARALLEL, level, strategy)
                && !serves(Use.MEMBERS, level, strategy)) {
            throw new IllegalArgumentException(this + " does not deflate at level " + level + ", strategy "
                    + strategy);
        }
        return isNative() ? NativeBinding.get().deflater(this, level) : new JdkDeflateEngine(level, strategy);
    }
}
