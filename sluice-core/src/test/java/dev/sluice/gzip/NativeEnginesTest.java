package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The selection policy ({@link GzipEngines}) and the streams on whichever engines it selects: zlib under plain
 * {@code mvn test} (a classes directory has no META-INF/versions), ISA-L and libdeflate in the build's second run on
 * the packaged jar with native access enabled. Each engine's own contract is {@link EngineContractTest}'s. With
 * {@code sluice.test.expectNative=true} or {@code SLUICE_EXPECT_NATIVE=1} (set by that run and by .ci/run on the
 * newest JDK) the native engines must be the ones in use, so a silent fallback fails the build.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NativeEnginesTest {
    private static final long SEED = System.nanoTime();

    static {
        System.out.println("NativeEnginesTest seed " + SEED + "; inflate: " + GzipEngines.inflateEngine()
                + "; deflate: " + GzipEngines.deflateEngine());
    }

    /**
     * Whether this run must use the native engines: the build's run on the packaged jar says so with a property;
     * {@code SLUICE_EXPECT_NATIVE=1} (from .ci/run) counts wherever sluice-core was loaded from a jar, since a
     * classes directory, as in the build's first run, can never hold the Java 22 classes.
     */
    static boolean expectNative() {
        if (Boolean.getBoolean("sluice.test.expectNative")) {
            return true;
        }
        String location = String.valueOf(GzipEngines.class.getProtectionDomain().getCodeSource().getLocation());
        return "1".equals(System.getenv("SLUICE_EXPECT_NATIVE")) && location.endsWith(".jar");
    }

    @Test
    void nativeEnginesAreUsedWhenExpected() {
        assumeTrue(expectNative(), "native engines not expected in this run");
        assertTrue(Runtime.version().feature() >= 22, "native engines need Java 22+, this is "
                + Runtime.version());
        assertEquals("IsalInflateEngine", GzipEngines.inflater().getClass().getSimpleName(),
                GzipEngines.inflateEngine());
        assertEquals("IsalDeflateEngine", GzipEngines.streamDeflater(1, Deflater.DEFAULT_STRATEGY).getClass()
                .getSimpleName(), GzipEngines.deflateEngine());
        assertEquals("IsalDeflateEngine", GzipEngines.memberDeflater(3, Deflater.DEFAULT_STRATEGY).getClass()
                .getSimpleName(), GzipEngines.deflateEngine());
        assertEquals("LibdeflateEngine", GzipEngines.memberDeflater(6, Deflater.DEFAULT_STRATEGY).getClass()
                .getSimpleName(), GzipEngines.deflateEngine());
        assertEquals("SystemZlibDeflateEngine", GzipEngines.parallelDeflater(6, Deflater.DEFAULT_STRATEGY)
                .getClass().getSimpleName(), GzipEngines.deflateEngine());
        assertEquals("JdkDeflateEngine", GzipEngines.streamDeflater(6, Deflater.DEFAULT_STRATEGY).getClass()
                .getSimpleName(), GzipEngines.deflateEngine()); // a small stream does not pay for binding libz
        assertTrue(GzipEngines.inflateEngine().startsWith("ISA-L"), GzipEngines.inflateEngine());
    }

    /**
     * The descriptions are derived from the policy: every engine the policy picks for a level is named for it, zlib
     * takes what no usable native engine serves, and every engine the registry lists is either usable or says why.
     */
    @Test
    void descriptionsNameWhatThePolicyPicksAtEveryLevel() {
        String deflate = GzipEngines.deflateEngine();
        String[] parts = deflate.split("; independent members: ");
        assertEquals(2, parts.length, deflate);
        for (int level = 0; level <= 12; level++) {
            for (int use : new int[] {Engine.Use.STREAM, Engine.Use.PARALLEL, Engine.Use.MEMBERS}) {
                if (level > 9 && use != Engine.Use.MEMBERS) {
                    continue;
                }
                Engine e = GzipEngines.choose(use, level, Deflater.DEFAULT_STRATEGY, false);
                if (e == null) {
                    assertTrue(level > 9, "zlib serves every level to 9");
                    assertThrows(IllegalArgumentException.class, () -> GzipEngines.choose(Engine.Use.MEMBERS, 10,
                            Deflater.DEFAULT_STRATEGY, true));
                    continue;
                }
                assertTrue(e.serves(use, level, Deflater.DEFAULT_STRATEGY), e + " at level " + level);
                assertTrue(parts[use == Engine.Use.MEMBERS ? 1 : 0].contains(e.label()), deflate);
                if (e.isNative()) {
                    assertEquals(null, e.problem());
                }
            }
            // A strategy other than the default is zlib's alone.
            assertEquals(Engine.ZLIB_DEFLATE, GzipEngines.choose(Engine.Use.STREAM, Math.min(level, 9),
                    Deflater.FILTERED, false));
        }
        Engine inflater = GzipEngines.choose(Engine.Use.INFLATE, 0, Deflater.DEFAULT_STRATEGY, false);
        assertTrue(GzipEngines.inflateEngine().startsWith(inflater.label()), GzipEngines.inflateEngine());
        for (Engine e : Engine.values()) {
            String problem = e.problem();
            assertTrue(problem == null || !problem.isEmpty(), e.toString());
            assertEquals(!e.isNative(), e.library() == null, e.toString());
        }
        assertThrows(IllegalArgumentException.class, () -> Engine.ZLIB_DEFLATE.inflater());
        assertThrows(IllegalArgumentException.class, () -> Engine.ZLIB_INFLATE.deflater(6, 0));
    }

    /**
     * Streams read to the end and dropped without close(), as many callers do: their native memory must come back
     * when the garbage collector finds them (3,000 of each kind would otherwise hold about 4 GB).
     */
    @Test
    void streamsDroppedWithoutCloseGiveTheirNativeMemoryBack() throws Exception {
        byte[] data = TestData.text(new Random(SEED), 20_000);
        byte[] member = TestData.member(GzipHeader.minimal(), data, 6);
        System.gc();
        long before = nativeOtherKiB();
        for (int i = 0; i < 3_000; i++) {
            GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(member));
            assertEquals(data.length, in.readAllBytes().length);
            GzipOutputStream out = GzipOutputStream.builder().level(1 + i % 3) // ISA-L where it is in use
                    .build(java.io.OutputStream.nullOutputStream());
            out.write(data);
            if (i % 100 == 99) {
                System.gc(); // what a busy program's allocation would do on its own
            }
        }
        System.gc();
        Thread.sleep(200); // the cleaner thread runs after the collection
        long after = nativeOtherKiB();
        System.out.println("NMT Other before 3000 dropped streams " + before + " KiB, after " + after + " KiB");
        if (before > 0) {
            assertTrue(after - before < 512 * 1024, "native memory (NMT Other) grew from " + before + " to " + after
                    + " KiB: streams dropped unclosed keep their native memory");
        }
    }

    /** 10^4 streams opened and closed, a third corrupt and a third truncated: must neither crash nor leak. */
    @Test
    void manyOpenCloseCyclesWithFailuresLeaveNativeMemoryFlat() throws IOException {
        Random r = new Random(SEED);
        byte[] good = TestData.member(GzipHeader.minimal(),
                TestData.text(r, 50_000), 6);
        byte[] corrupt = good.clone();
        corrupt[good.length / 2] ^= 0x55;
        byte[] truncated = Arrays.copyOf(good, good.length / 2);
        long before = 0;
        for (int i = 0; i < 10_000; i++) {
            if (i == 2_000) {
                before = nativeOtherKiB();
            }
            byte[] in = i % 3 == 0 ? good : i % 3 == 1 ? corrupt : truncated;
            try (GzipInputStream g = new GzipInputStream(new ByteArrayInputStream(in))) {
                g.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (ZipException | EOFException expected) {
                // corrupt and truncated inputs end here, and close the stream on the way out
            }
            try (GzipOutputStream g = GzipOutputStream.builder().level(1 + i % 9)
                    .build(java.io.OutputStream.nullOutputStream())) {
                g.write(in, 0, Math.min(in.length, 1000));
            }
        }
        long after = nativeOtherKiB();
        System.out.println("NMT Other after 2000 cycles " + before + " KiB, after 10000 " + after + " KiB");
        if (before > 0) {
            assertTrue(after - before < 16 * 1024, "native memory (NMT Other) grew from " + before + " to " + after + " KiB");
        }
    }

    /**
     * Native memory malloc'd outside the JVM's own structures (NMT's "Other": what arenas and Unsafe allocate) in
     * KiB, or 0 when Native Memory Tracking is off (the native run turns it on). RSS is no measure here: the Java
     * heap's garbage from 10^4 streams moves it by hundreds of MB either way. Reflection, because the tests compile
     * inside module dev.sluice, which does not read java.management.
     */
    private static long nativeOtherKiB() {
        try {
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            Object server = factory.getMethod("getPlatformMBeanServer").invoke(null);
            Class<?> objectName = Class.forName("javax.management.ObjectName");
            Object name = objectName.getConstructor(String.class).newInstance("com.sun.management:type=DiagnosticCommand");
            Object out = Class.forName("javax.management.MBeanServer").getMethod("invoke", objectName, String.class, Object[].class, String[].class)
                    .invoke(server, name, "vmNativeMemory", new Object[] {new String[] {"summary"}},
                            new String[] {String[].class.getName()});
            java.util.regex.Matcher m = java.util.regex.Pattern
                    .compile("Other \\(reserved=\\d+KB, committed=(\\d+)KB").matcher(String.valueOf(out));
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return 0;
        }
    }

}
