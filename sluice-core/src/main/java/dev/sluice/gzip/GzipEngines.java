package dev.sluice.gzip;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.Deflater;

/**
 * Which raw-deflate engines Sluice's gzip streams use, and why: the selection policy over the package-private
 * registry of engines, and the one-line descriptions {@code sluice info} prints, derived from that policy. On Java
 * 22+ with native access enabled for Sluice's module ({@code --enable-native-access=dev.sluice} on the module path,
 * {@code ALL-UNNAMED} on the class path), the
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

    /** The registry in order of preference, copied once ({@code values()} clones on every call). */
    private static final Engine[] ENGINES = Engine.values();

    /**
     * One line saying which engine decodes gzip and, when it is zlib, why no native one: for example
     * {@code "ISA-L isal_inflate (libisal.so.2)"} or {@code "zlib (JDK): native access is not enabled ..."}.
     */
    public static String inflateEngine() {
        return describe(Engine.Use.INFLATE, 0, 0);
    }

    /**
     * One line saying which engines encode gzip at each level, for one member and for independent members, and why
     * a native engine is passed over: for example {@code "one member: level 0 zlib (JDK), levels 1-3 ISA-L
     * (libisal.so.2), levels 4-9 zlib (JDK); independent members: ..."}.
     */
    public static String deflateEngine() {
        return "one member: " + describe(Engine.Use.STREAM, 0, maxLevel(Engine.Use.STREAM))
                + "; one member on several threads: " + describe(Engine.Use.PARALLEL, 0,
                        maxLevel(Engine.Use.PARALLEL))
                + "; independent members: " + describe(Engine.Use.MEMBERS, 0, maxLevel(Engine.Use.MEMBERS));
    }

    /** A new decoder of the engine the policy chooses. */
    static InflateEngine inflater() {
        InflateEngine e = choose(Engine.Use.INFLATE, 0, Deflater.DEFAULT_STRATEGY, true).inflater();
        if (!mode().equals("off")) {
            inflateBound = true; // choose() probed the native decoder, whatever its verdict
        }
        return e;
    }

    /**
     * True if {@link #inflater()} gives a native decoder (ISA-L): for a caller that hands work to it only where it is
     * faster than its own Java code (the speculative decoder's {@link EngineRest}; zlib is not). Never throws.
     */
    static boolean nativeInflater() {
        Engine e = choose(Engine.Use.INFLATE, 0, Deflater.DEFAULT_STRATEGY, false);
        return e != null && e.isNative();
    }

    /**
     * Throws what {@link #inflater()} would, without making a decoder where that is not needed yet: an unknown mode's
     * IllegalArgumentException, and under {@code require} the IllegalStateException of a native decoder that cannot
     * be used (probing it here). A stream that makes its decoder only when a member is decoded on its own thread
     * calls this when it is made, so that those errors still come from its construction.
     */
    static void checkInflater() {
        if (mode().equals("require")) {
            choose(Engine.Use.INFLATE, 0, Deflater.DEFAULT_STRATEGY, true);
        }
    }

    /** True once a probe of the inflate engine's library has finished (on any thread); never false again. */
    private static volatile boolean inflateBound;
    /** True once {@link #bindInflaterSoon} started its thread. */
    private static final AtomicBoolean BINDING = new AtomicBoolean();
    /** True once some call asked for the dictionary entry point to be linked ahead of the first decode. */
    private static volatile boolean dictionaryWanted;
    /** True once the binder thread has looked at {@link #dictionaryWanted} for the last time. */
    private static volatile boolean binderDone;
    /** True once a thread took on linking the dictionary entry point (so that only one does). */
    private static final AtomicBoolean DICTIONARY = new AtomicBoolean();

    /**
     * Starts binding the native gzip decoder (ISA-L) on a daemon thread, for a program that knows it will decode gzip
     * soon and has other start-up work to do first (parsing its arguments, opening files, loading an index): on Java
     * 22+ the binding (loading the library, linking its entry points through {@code java.lang.foreign}, a self-test)
     * takes 60-150 ms of the first decode otherwise, on the thread that first decodes. The first
     * {@link GzipInputStream} then finds the decoder bound, or waits only for the rest of it.
     *
     * <p>Optional: streams bind the decoder themselves when they first need it, with the same result. Idempotent (the
     * binding starts at most once per JVM) and thread-safe; returns at once; never throws and prints nothing. It does
     * nothing where there is no native decoder to bind (Java 17-21, or the JDK's zlib chosen with
     * {@code sluice.gzip.native=off} at the time of the call), and under {@code require}, whose failure must come from
     * the stream that needs the engine. Where the native decoder cannot be used the thread finds that out and the
     * streams use the JDK's zlib, silently, as they would without this call.
     */
    public static void prepareInflater() {
        try {
            bindInflaterSoon(false);
        } catch (IllegalArgumentException unknownMode) {
            // An unknown sluice.gzip.native: the stream that decodes throws it, as it would without this call.
        }
    }

    /**
     * Starts the inflate engine's probe on a daemon thread (once per JVM; nothing where it is already done, on a JVM
     * without the native classes, or outside {@code auto} mode), so that a caller with other work before its first
     * decode (loading an index: 50-90 ms on 2 cores for a 1.1 GB file's) finds ISA-L bound, or half bound, when it
     * gets there, rather than binding it then (60-90 ms: the library, its downcall stubs, the self-test). A thread
     * that needs the engine meanwhile waits for the probe's class initialisation, as it would for its own. With
     * {@code dictionary}, the dictionary entry point that decoding from an index checkpoint needs is linked too
     * (20-30 ms on the worker that first links it otherwise): by the probe's thread after the probe, or, when that
     * thread was started without it and has finished, by a thread of its own. Any thread.
     */
    static void bindInflaterSoon(boolean dictionary) {
        // The mode first: NativeBinding.get() loads the native classes, which a zlib-only run (sluice gunzip of a
        // small file sets mode off) would otherwise load for nothing: 8-14 ms of a 100-ms indexed gunzip.
        if (!mode().equals("auto") || NativeBinding.get() == null) {
            return;
        }
        if (dictionary) {
            dictionaryWanted = true;
        }
        if (!inflateBound && BINDING.compareAndSet(false, true)) {
            start(new Binder(true));
        } else if (dictionary && binderDone && !DICTIONARY.get()) {
            // The binder (started by prepareInflater) may have looked before this call wanted the dictionary; the
            // volatile write above and its read of binderDone's write order the two, so one of them links it.
            start(new Binder(false));
        }
    }

    private static void start(Runnable r) {
        Thread t = new Thread(r, "sluice-bind");
        t.setDaemon(true);
        t.start();
    }

    /** {@link #bindInflaterSoon}'s thread; a class rather than a lambda, whose first linking costs start-up time. */
    private static final class Binder implements Runnable {
        /** Whether this thread probes the engines (false: it only links the dictionary entry point). */
        private final boolean probe;

        Binder(boolean probe) {
            this.probe = probe;
        }

        @Override
        public void run() {
            if (probe) {
                // The probe itself, whatever the mode is by now (a caller may set off for a while); choose() then
                // finds its verdict ready.
                try {
                    for (Engine e : ENGINES) {
                        if (e.isNative() && e.serves(Engine.Use.INFLATE, 0, Deflater.DEFAULT_STRATEGY)) {
                            e.problem();
                        }
                    }
                } finally {
                    inflateBound = true; // even where the probe threw: inflater() throws it again where it is asked
                    binderDone = true;
                }
            }
            if (!dictionaryWanted || !DICTIONARY.compareAndSet(false, true)) {
                return;
            }
            for (Engine e : ENGINES) {
                if (e.isNative() && e.serves(Engine.Use.INFLATE, 0, Deflater.DEFAULT_STRATEGY)
                        && e.problem() == null) {
                    InflateEngine d = e.inflater();
                    try {
                        d.reset();
                        d.setDictionary(new byte[1], 0, 1);
                    } finally {
                        d.end();
                    }
                }
            }
        }
    }

    /**
     * The engine a streaming writer uses: one member whose blocks may be sync-flushed and may start with a dictionary
     * (GzipOutputStream, ParallelGzipOutputStream's single-member layout).
     */
    static DeflateEngine streamDeflater(int level, int strategy) {
        return choose(Engine.Use.STREAM, level, strategy, true).deflater(level, strategy);
    }

    /**
     * The engine for ParallelGzipOutputStream's one member: as {@link #streamDeflater}, and the system's zlib where
     * it can be used, whose binding costs more than a small stream gains.
     */
    static DeflateEngine parallelDeflater(int level, int strategy) {
        return choose(Engine.Use.PARALLEL, level, strategy, true).deflater(level, strategy);
    }

    /**
     * The engine for one-shot members (independent members, BGZF): per member the caller calls
     * {@link DeflateEngine#reset()}, {@link DeflateEngine#setInput} once with the whole member,
     * {@link DeflateEngine#finish()}, then {@link DeflateEngine#deflate} with NO_FLUSH until finished. Never
     * {@link DeflateEngine#setDictionary} or other flush modes: a one-shot compressor (libdeflate) needs all input
     * before it writes anything and says so with an IllegalStateException.
     */
    static DeflateEngine memberDeflater(int level, int strategy) {
        return choose(Engine.Use.MEMBERS, level, strategy, true).deflater(level, strategy);
    }

    /**
     * The policy, the one place it is written: the first engine in the registry's order that serves {@code use} at
     * {@code level} and {@code strategy} and can be used; {@code sluice.gzip.native=off} passes over every native
     * engine, {@code require} throws {@link IllegalStateException} for a native engine that would serve but cannot be
     * used. zlib serves every level 0-9, so only a level above 9 with no native engine for it finds none:
     * {@link IllegalArgumentException}. Not {@code strict} (for the descriptions), it never throws, and returns null
     * where there is none.
     */
    static Engine choose(int use, int level, int strategy, boolean strict) {
        String mode = mode();
        for (Engine e : ENGINES) {
            // off is asked before a native engine's problem: finding the problem binds and self-tests its library
            // (tens of milliseconds of start-up that off exists to avoid).
            if (!e.serves(use, level, strategy) || e.isNative() && mode.equals("off")) {
                continue;
            }
            String problem = e.problem();
            if (problem == null) {
                return e;
            }
            if (strict && mode.equals("require")) {
                throw new IllegalStateException(PROPERTY + "=require, but " + e.shortName() + " cannot be used: "
                        + problem);
            }
        }
        if (!strict) {
            return null;
        }
        throw new IllegalArgumentException("no gzip engine serves level " + level + " with strategy " + strategy);
    }

    /**
     * What {@link #choose} picks for {@code use} over the levels {@code from..to}, runs of levels with the same engine
     * together, then why each native engine it passed over was passed over. Derived from the policy, never kept
     * beside it.
     */
    private static String describe(int use, int from, int to) {
        StringBuilder sb = new StringBuilder();
        StringBuilder why = new StringBuilder();
        boolean off = mode().equals("off");
        for (int level = from; level <= to; ) {
            Engine e = choose(use, level, Deflater.DEFAULT_STRATEGY, false);
            if (e == null) {
                break; // levels above zlib's 9 with no usable native engine: not offered here
            }
            int last = level;
            while (last < to && choose(use, last + 1, Deflater.DEFAULT_STRATEGY, false) == e) {
                last++;
            }
            if (use != Engine.Use.INFLATE) {
                sb.append(sb.length() == 0 ? "" : ", ").append(level == last ? "level " + level
                        : "levels " + level + "-" + last).append(' ');
            }
            sb.append(e.label());
            level = last + 1;
        }
        for (Engine e : ENGINES) {
            if (e.isNative() && serves(e, use, from, to)) {
                String problem = off ? PROPERTY + "=off" : e.problem();
                if (problem != null && why.indexOf(problem) < 0) {
                    why.append(why.length() == 0 ? "" : "; ").append(e.shortName()).append(": ").append(problem);
                }
            }
        }
        if (why.length() == 0) {
            return sb.toString();
        }
        return use == Engine.Use.INFLATE ? sb + ": " + why : sb + " [" + why + "]";
    }

    private static boolean serves(Engine e, int use, int from, int to) {
        for (int level = from; level <= to; level++) {
            if (e.serves(use, level, Deflater.DEFAULT_STRATEGY)) {
                return true;
            }
        }
        return false;
    }

    /** The highest level any engine serves for {@code use}: 9 (zlib) for streams, 12 (libdeflate) for members. */
    private static int maxLevel(int use) {
        int max = 0;
        for (Engine e : ENGINES) {
            if (e.serves(use, e.maxLevel(), Deflater.DEFAULT_STRATEGY)) {
                max = Math.max(max, e.maxLevel());
            }
        }
        return max;
    }

    private static String mode() {
        String mode = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        if (!mode.equals("auto") && !mode.equals("off") && !mode.equals("require")) {
            throw new IllegalArgumentException(PROPERTY + " is not auto, off or require: " + mode);
        }
        return mode;
    }
}
