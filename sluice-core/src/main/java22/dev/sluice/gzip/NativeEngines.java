package dev.sluice.gzip;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The binding of the native gzip engines on Java 22+ (this file compiles into {@code META-INF/versions/22} and has no
 * base version; {@link NativeBinding} hands out {@link #BINDING}). Each library is probed once, at first use, in a
 * holder class: native access must already be enabled for Sluice's module (checked with
 * {@link Module#isNativeAccessEnabled()} before any restricted call, so the JDK never prints its warning), the library
 * must load by soname, every symbol must resolve and a self-test must pass. Any failure is remembered as a sentence
 * ({@link EngineBinding#problem}) and the policy ({@link GzipEngines}) uses the JDK's zlib; nothing is printed.
 * Thread-safe (class initialisation).
 */
final class NativeEngines {
    private NativeEngines() {}

    static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    static final ValueLayout.OfLong C_SIZE_T = ValueLayout.JAVA_LONG;
    /** A raw deflate stream (made by zlib -6) of {@link #SELF_TEST_TEXT} repeated 40 times, CRC32 0x0d0ff3f9. */
    private static final byte[] SELF_TEST_DEFLATE = {-19, -52, -51, 13, -128, 32, 12, 6, -48, 85, -70, 0, 12, -32, -51,
        -93, -119, 55, 38, -88, 82, 126, 76, 3, 9, 20, -25, 119, 16, -65, 55, -64, 11, -70, -22, 45, 52, 69, -109, 51,
        -103, -74, -47, 17, 118, 119, 18, -73, 72, 90, -81, 40, 73, -39, -124, -84, -116, -66, 114, -95, -121, 95, -10,
        -54, 45, -5, -44, -121, -44, -36, 60, 5, 12, 24, 48, 96, -64, -128, 1, 3, 6, 12, 63, 30, 62};
    private static final String SELF_TEST_TEXT = "Sluice self-test: ISA-L and libdeflate through java.lang.foreign. ";
    private static final long SELF_TEST_CRC = 0x0d0ff3f9L;

    /** What {@link NativeBinding#get()} hands out: each engine's probe and constructor, by its {@link Engine}. */
    static final EngineBinding BINDING = new Binding();

    private static final class Binding implements EngineBinding {
        @Override
        public String problem(Engine engine) {
            if (engine == Engine.ISAL_INFLATE) {
                return IsalInflate.PROBLEM;
            }
            if (engine == Engine.ISAL_DEFLATE) {
                return IsalDeflate.PROBLEM;
            }
            if (engine == Engine.LIBDEFLATE) {
                return Libdeflate.PROBLEM;
            }
            if (engine == Engine.SYSTEM_ZLIB) {
                return SystemZlib.PROBLEM;
            }
            throw new IllegalArgumentException("not a native engine: " + engine);
        }

        @Override
        public InflateEngine inflater(Engine engine) {
            if (engine != Engine.ISAL_INFLATE) {
                throw new IllegalArgumentException("not a native inflate engine: " + engine);
            }
            return new IsalInflateEngine();
        }

        @Override
        public DeflateEngine deflater(Engine engine, int level) {
            if (engine == Engine.ISAL_DEFLATE) {
                return new IsalDeflateEngine(level);
            }
            if (engine == Engine.LIBDEFLATE) {
                return new LibdeflateEngine(level);
            }
            if (engine == Engine.SYSTEM_ZLIB) {
                return new SystemZlibDeflateEngine(level);
            }
            throw new IllegalArgumentException("not a native deflate engine: " + engine);
        }
    }

    /**
     * The function shapes more than one library shares, in a holder of their own: a FunctionDescriptor's first
     * making runs the JDK's stream and reflection machinery (5-6 ms on 2 cores), which belongs on the thread that
     * binds, not on the one that first asks {@link NativeBinding#get()} (a caller starting the binding).
     */
    static final class Shapes {
        /**
         * {@code int f(void *)}, the shape most of ISA-L's entry points share, and the one its
         * {@code void f(void *)} ones (init, reset) are bound with too: the first downcall handle of each shape spins
         * its classes and a native stub, 10-12 ms of every start that binds ISA-L on 2 cores, and a second shape on
         * the decode's path bought nothing. Safe on every ABI the JDK's linker supports: a scalar result comes back
         * in a register, which a void function leaves with some value, and {@link NativeEngines#call} hands that to
         * callers that ignore it.
         */
        static final FunctionDescriptor INT_PTR = FunctionDescriptor.of(C_INT, ValueLayout.ADDRESS);

        private Shapes() {}
    }

    /**
     * ISA-L's library, loaded at first use by either direction. Each direction binds and self-tests its own entry
     * points in a holder of its own, so that {@code sluice gunzip} never pays for the deflate side's downcall stubs
     * (each new function shape spins classes and a native stub: milliseconds at start-up) nor its self-test.
     */
    static final class IsalLib {
        static final String SONAME = Engine.ISAL_INFLATE.library();
        static final SymbolLookup LIB;
        static final String PROBLEM;

        static {
            SymbolLookup lib = null;
            String problem = access();
            if (problem == null) {
                try {
                    lib = SymbolLookup.libraryLookup(SONAME, Arena.global());
                } catch (IllegalArgumentException e) {
                    problem = SONAME + " cannot be loaded: " + e.getMessage();
                }
            }
            LIB = lib;
            PROBLEM = problem;
        }

        private IsalLib() {}
    }

    /** ISA-L's inflate entry points, bound and self-tested at first use. */
    static final class IsalInflate {
        static final MethodHandle INIT;
        static final MethodHandle RESET;
        static final MethodHandle INFLATE;
        /**
         * {@code int isal_inflate_set_dict(struct inflate_state *, uint8_t *, uint32_t)} (igzip_lib.h, 2.30): found
         * here, so that a library without it fails the probe, but linked only at first use ({@link Dict}). Only
         * decoding from an index checkpoint needs it, and a function shape of its own costs 3-4 ms of every start
         * that binds ISA-L (the first downcall handle of a shape spins its classes).
         */
        static final MemorySegment SET_DICT_SYMBOL;
        static final String PROBLEM;

        static {
            MethodHandle[] h = new MethodHandle[3];
            MemorySegment setDict = null;
            String problem = IsalLib.PROBLEM;
            if (problem == null) {
                try {
                    h[0] = bind(IsalLib.LIB, "isal_inflate_init", Shapes.INT_PTR);
                    h[1] = bind(IsalLib.LIB, "isal_inflate_reset", Shapes.INT_PTR);
                    h[2] = bind(IsalLib.LIB, "isal_inflate", Shapes.INT_PTR);
                    setDict = symbol(IsalLib.LIB, "isal_inflate_set_dict");
                } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
                    problem = IsalLib.SONAME + " cannot be used: " + e.getMessage();
                }
            }
            INIT = h[0];
            RESET = h[1];
            INFLATE = h[2];
            SET_DICT_SYMBOL = setDict;
            PROBLEM = problem != null ? problem : selfTest("ISA-L inflate", new IsalInflateEngine(), null);
        }

        private IsalInflate() {}

        /** {@code isal_inflate_set_dict}'s downcall handle, linked when a decoder first sets a window. */
        static final class Dict {
            static final MethodHandle SET_DICT = Linker.nativeLinker().downcallHandle(SET_DICT_SYMBOL,
                    FunctionDescriptor.of(C_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, C_INT));

            private Dict() {}
        }
    }

    /** ISA-L's deflate entry points, bound and self-tested at first use. */
    static final class IsalDeflate {
        static final MethodHandle INIT;
        static final MethodHandle RESET;
        static final MethodHandle SET_DICT;
        static final MethodHandle DEFLATE;
        static final String PROBLEM;

        static {
            MethodHandle[] h = new MethodHandle[4];
            String problem = IsalLib.PROBLEM;
            if (problem == null) {
                try {
                    h[0] = bind(IsalLib.LIB, "isal_deflate_init", Shapes.INT_PTR);
                    h[1] = bind(IsalLib.LIB, "isal_deflate_reset", Shapes.INT_PTR);
                    h[2] = bind(IsalLib.LIB, "isal_deflate_set_dict",
                            FunctionDescriptor.of(C_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, C_INT));
                    h[3] = bind(IsalLib.LIB, "isal_deflate", Shapes.INT_PTR);
                } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
                    problem = IsalLib.SONAME + " cannot be used: " + e.getMessage();
                }
            }
            INIT = h[0];
            RESET = h[1];
            SET_DICT = h[2];
            DEFLATE = h[3];
            PROBLEM = problem != null ? problem : selfTest("ISA-L deflate", null, new IsalDeflateEngine(1));
        }

        private IsalDeflate() {}
    }

    /** libdeflate's entry points, bound at first use. */
    static final class Libdeflate {
        static final String SONAME = Engine.LIBDEFLATE.library();
        static final MethodHandle ALLOC_COMPRESSOR;
        static final MethodHandle COMPRESS;
        static final MethodHandle COMPRESS_BOUND;
        static final MethodHandle FREE_COMPRESSOR;
        static final String PROBLEM;

        static {
            MethodHandle[] h = new MethodHandle[4];
            String problem = access();
            if (problem == null) {
                try {
                    SymbolLookup lib = SymbolLookup.libraryLookup(SONAME, Arena.global());
                    h[0] = bind(lib, "libdeflate_alloc_compressor", FunctionDescriptor.of(ValueLayout.ADDRESS, C_INT));
                    h[1] = bind(lib, "libdeflate_deflate_compress", FunctionDescriptor.of(C_SIZE_T,
                            ValueLayout.ADDRESS, ValueLayout.ADDRESS, C_SIZE_T, ValueLayout.ADDRESS, C_SIZE_T));
                    h[2] = bind(lib, "libdeflate_deflate_compress_bound",
                            FunctionDescriptor.of(C_SIZE_T, ValueLayout.ADDRESS, C_SIZE_T));
                    h[3] = bind(lib, "libdeflate_free_compressor", FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
                } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
                    problem = SONAME + " cannot be loaded: " + e.getMessage();
                }
            }
            ALLOC_COMPRESSOR = h[0];
            COMPRESS = h[1];
            COMPRESS_BOUND = h[2];
            FREE_COMPRESSOR = h[3];
            PROBLEM = problem != null ? problem : selfTest("libdeflate", null, new LibdeflateEngine(6));
        }

        private Libdeflate() {}
    }

    /**
     * The system zlib's deflate entry points, bound at first use. {@code deflateInit2_} gets the library's own
     * {@code zlibVersion()}, so that its version check passes for any zlib 1.x; the z_stream's size is checked there.
     */
    static final class SystemZlib {
        static final String SONAME = Engine.SYSTEM_ZLIB.library();
        static final MethodHandle INIT;
        static final MethodHandle SET_DICT;
        static final MethodHandle DEFLATE;
        static final MethodHandle RESET;
        static final MethodHandle END;
        /** The library's version string, static in the library. */
        static final MemorySegment VERSION;
        static final String PROBLEM;

        static {
            MethodHandle[] h = new MethodHandle[5];
            MemorySegment version = null;
            String problem = access();
            if (problem == null) {
                try {
                    SymbolLookup lib = SymbolLookup.libraryLookup(SONAME, Arena.global());
                    h[0] = bind(lib, "deflateInit2_", FunctionDescriptor.of(C_INT, ValueLayout.ADDRESS, C_INT,
                            C_INT, C_INT, C_INT, C_INT, ValueLayout.ADDRESS, C_INT));
                    h[1] = bind(lib, "deflateSetDictionary",
                            FunctionDescriptor.of(C_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, C_INT));
                    h[2] = bind(lib, "deflate", FunctionDescriptor.of(C_INT, ValueLayout.ADDRESS, C_INT));
                    h[3] = bind(lib, "deflateReset", Shapes.INT_PTR);
                    h[4] = bind(lib, "deflateEnd", Shapes.INT_PTR);
                    version = ((MemorySegment) bind(lib, "zlibVersion", FunctionDescriptor.of(ValueLayout.ADDRESS))
                            .invokeExact()).reinterpret(64);
                    String v = version.getString(0);
                    if (!v.startsWith("1.")) {
                        problem = SONAME + " is zlib " + v + ", not 1.x";
                    }
                } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
                    problem = SONAME + " cannot be loaded: " + e.getMessage();
                } catch (Throwable t) {
                    problem = SONAME + " cannot be used: " + t;
                }
            }
            INIT = h[0];
            SET_DICT = h[1];
            DEFLATE = h[2];
            RESET = h[3];
            END = h[4];
            VERSION = version;
            PROBLEM = problem != null ? problem : selfTest();
        }

        /** The self-test, where even making the engine may fail (deflateInit2_'s version or size check). */
        private static String selfTest() {
            DeflateEngine e;
            try {
                e = new SystemZlibDeflateEngine(6);
            } catch (RuntimeException ex) {
                return "system zlib self-test failed: " + ex;
            }
            return NativeEngines.selfTest("system zlib", null, e);
        }

        private SystemZlib() {}
    }

    /** Null when Sluice's module may make restricted calls without a warning, else how to allow it. */
    private static String access() {
        Module m = NativeEngines.class.getModule();
        if (m.isNativeAccessEnabled()) {
            return null;
        }
        return "native access is not enabled for " + (m.isNamed() ? "module " + m.getName() : "the class path")
                + " (java --enable-native-access=" + (m.isNamed() ? m.getName() : "ALL-UNNAMED") + ")";
    }

    private static MethodHandle bind(SymbolLookup lib, String name, FunctionDescriptor fd) {
        return Linker.nativeLinker().downcallHandle(symbol(lib, name), fd);
    }

    private static MemorySegment symbol(SymbolLookup lib, String name) {
        return lib.find(name).orElseThrow(() -> new IllegalArgumentException("symbol " + name + " not found"));
    }

    /**
     * Null if the backend decodes the embedded stream (when it has an inflater) and its deflater's output of the same
     * text decodes with the JDK's Inflater (when it has a deflater); else what went wrong. Ends the engines given.
     */
    private static String selfTest(String backend, InflateEngine inflater, DeflateEngine deflater) {
        byte[] text = SELF_TEST_TEXT.repeat(40).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        try {
            if (inflater != null) {
                inflater.setInput(SELF_TEST_DEFLATE, 0, SELF_TEST_DEFLATE.length);
                byte[] out = new byte[text.length + 1];
                int n = 0;
                for (int i = 0; i < 8 && !inflater.finished(); i++) {
                    n += inflater.inflate(out, n, out.length - n);
                }
                CRC32 crc = new CRC32();
                crc.update(out, 0, n);
                if (!inflater.finished() || n != text.length || crc.getValue() != SELF_TEST_CRC
                        || inflater.remaining() != 0) {
                    return backend + " self-test failed: inflate gave " + n + " bytes, CRC 0x"
                            + Long.toHexString(crc.getValue());
                }
                // An engine's own CRC32 (read from its state at a fixed offset) must be right too: a library whose
                // layout differs would otherwise refuse every member with a CRC mismatch rather than fall back.
                if (inflater.computesCrc() && inflater.crc() != SELF_TEST_CRC) {
                    return backend + " self-test failed: its CRC32 0x" + Long.toHexString(inflater.crc())
                            + ", expected 0x" + Long.toHexString(SELF_TEST_CRC);
                }
            }
            if (deflater == null) {
                return null;
            }
            deflater.setInput(text, 0, text.length);
            deflater.finish();
            byte[] packed = new byte[text.length + 256];
            int m = 0;
            for (int i = 0; i < 8 && !deflater.finished(); i++) {
                m += deflater.deflate(packed, m, packed.length - m, Deflater.NO_FLUSH);
            }
            Inflater check = new Inflater(true);
            try {
                check.setInput(packed, 0, m);
                byte[] back = new byte[text.length + 1];
                int k = check.inflate(back);
                if (!deflater.finished() || !check.finished() || !Arrays.equals(text, 0, text.length, back, 0, k)) {
                    return backend + " self-test failed: deflate output does not decode to its input";
                }
            } finally {
                check.end();
            }
            return null;
        } catch (DataFormatException | RuntimeException e) {
            return backend + " self-test failed: " + e;
        } finally {
            if (inflater != null) {
                inflater.end();
            }
            if (deflater != null) {
                deflater.end();
            }
        }
    }

    /**
     * Calls an ISA-L function that takes its stream or state struct, returning its int result (meaningless for the
     * void ones, which are bound as {@link Shapes#INT_PTR} too).
     */
    static int call(MethodHandle h, MemorySegment struct) {
        try {
            return (int) h.invokeExact(struct);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A downcall's Throwable as an unchecked exception (downcall handles declare Throwable; C code throws none). */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
