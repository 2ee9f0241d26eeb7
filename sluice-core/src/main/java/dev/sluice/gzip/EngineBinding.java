package dev.sluice.gzip;

/**
 * How the native engines of the {@link Engine} registry are reached: implemented only in the Java 22 classes of the
 * multi-release jar (which bind ISA-L and libdeflate through java.lang.foreign), and handed out by
 * {@link NativeBinding#get()}. The registry says what each engine is; this says whether it works here and makes one.
 */
interface EngineBinding {

    /** Null if the native {@code engine} is bound and passed its self-test, else why not. */
    String problem(Engine engine);

    /** A new decoder of the native inflate {@code engine}, whose {@link #problem} is null. */
    InflateEngine inflater(Engine engine);

    /** A new encoder of the native deflate {@code engine} at {@code level}, whose {@link #problem} is null. */
    DeflateEngine deflater(Engine engine, int level);
}
