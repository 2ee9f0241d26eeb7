package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine seam on whichever engines this JVM selects: zlib under plain {@code mvn test} (a classes directory has no
 * META-INF/versions), ISA-L and libdeflate in the build's second run on the packaged jar with native access enabled.
 * With {@code sluice.test.expectNative=true} or {@code SLUICE_EXPECT_NATIVE=1} (set by that run and by .ci/run on the
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
    private static boolean expectNative() {
        if (Boolean.getBoolean("sluice.test.expectNative")) {
            return true;
        }
        String location = String.valueOf(GzipEngines.class.getProtectionDomain().getCodeSource().getLocation());
        return "1".equals(System.getenv("SLUICE_EXPECT_NATIVE")) && location.endsWith(".jar");
    }

    private static boolean nativeInUse() {
        return InflateEngine.create().getClass().getSimpleName().startsWith("Isal");
    }

    @Test
    void nativeEnginesAreUsedWhenExpected() {
        assumeTrue(expectNative(), "native engines not expected in this run");
        assertTrue(Runtime.version().feature() >= 22, "native engines need Java 22+, this is "
                + Runtime.version());
        assertEquals("IsalInflateEngine", InflateEngine.create().getClass().getSimpleName(),
                GzipEngines.inflateEngine());
        assertEquals("IsalDeflateEngine", DeflateEngine.create(1, Deflater.DEFAULT_STRATEGY).getClass()
                .getSimpleName(), GzipEngines.deflateEngine());
        assertEquals("IsalDeflateEngine", DeflateEngine.createForMembers(3, Deflater.DEFAULT_STRATEGY).getClass()
                .getSimpleName(), GzipEngines.deflateEngine());
        assertEquals("LibdeflateEngine", DeflateEngine.createForMembers(6, Deflater.DEFAULT_STRATEGY).getClass()
                .getSimpleName(), GzipEngines.deflateEngine());
        assertTrue(GzipEngines.inflateEngine().startsWith("ISA-L"), GzipEngines.inflateEngine());
    }

    @Test
    void streamingDeflaterWithDictionaryAndFlushesDecodesWithTheJdk() throws DataFormatException {
        Random r = new Random(SEED);
        for (int level = 1; level <= 9; level++) {
            byte[] data = TestData.mixed(r, 300_000 + r.nextInt(100_000));
            int dictLen = r.nextInt(40_000);
            DeflateEngine e = DeflateEngine.create(level, Deflater.DEFAULT_STRATEGY);
            try {
                for (int round = 0; round < 2; round++) { // the second round checks reset()
                    e.reset();
                    e.setDictionary(data, 0, dictLen);
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    byte[] buf = new byte[1 + r.nextInt(70_000)];
                    int pos = dictLen;
                    while (pos < data.length) {
                        int n = Math.min(data.length - pos, 1 + r.nextInt(150_000));
                        e.setInput(data, pos, n);
                        pos += n;
                        while (!e.needsInput()) {
                            out.write(buf, 0, e.deflate(buf, 0, buf.length, DeflateEngine.NO_FLUSH));
                        }
                        if (r.nextBoolean()) {
                            int w;
                            do {
                                w = e.deflate(buf, 0, buf.length, DeflateEngine.SYNC_FLUSH);
                                out.write(buf, 0, w);
                            } while (w == buf.length);
                        }
                    }
                    e.finish();
                    while (!e.finished()) {
                        out.write(buf, 0, e.deflate(buf, 0, buf.length, DeflateEngine.NO_FLUSH));
                    }
                    assertArrayEquals(Arrays.copyOfRange(data, dictLen, data.length),
                            jdkInflate(out.toByteArray(), data, dictLen), "level " + level + " seed " + SEED);
                }
            } finally {
                e.end();
                e.end(); // twice is allowed
            }
        }
    }

    @Test
    void memberDeflaterAtEveryLevelDecodesWithTheJdk() throws DataFormatException {
        Random r = new Random(SEED);
        for (int level = 1; level <= (nativeInUse() ? 12 : 9); level++) {
            DeflateEngine e = DeflateEngine.createForMembers(level, Deflater.DEFAULT_STRATEGY);
            try {
                for (int size : new int[] {0, 1, 1000, 1 << 20}) {
                    byte[] data = TestData.mixed(r, size);
                    e.reset();
                    e.setInput(data, 0, data.length);
                    e.finish();
                    byte[] out = new byte[64];
                    int n = 0;
                    while (!e.finished()) {
                        if (n == out.length) {
                            out = Arrays.copyOf(out, out.length * 2);
                        }
                        n += e.deflate(out, n, out.length - n, DeflateEngine.NO_FLUSH);
                    }
                    assertArrayEquals(data, jdkInflate(Arrays.copyOf(out, n), data, 0), "level " + level);
                }
            } finally {
                e.end();
            }
        }
    }

    @Test
    void libdeflateRefusesStreamingUse() {
        assumeTrue(nativeInUse());
        DeflateEngine e = DeflateEngine.createForMembers(6, Deflater.DEFAULT_STRATEGY);
        try {
            byte[] b = new byte[100];
            e.setInput(b, 0, 10);
            assertEquals(0, e.deflate(b, 0, b.length, DeflateEngine.NO_FLUSH)); // nothing before finish()
            assertThrows(IllegalStateException.class, () -> e.setInput(b, 0, 10));
            assertThrows(IllegalStateException.class, () -> e.setDictionary(b, 0, 10));
            assertThrows(IllegalStateException.class, () -> e.deflate(b, 0, b.length, DeflateEngine.SYNC_FLUSH));
        } finally {
            e.end();
        }
    }

    @Test
    void inflaterHandsBackTheBytesAfterTheStreamWhateverTheChunking() throws DataFormatException {
        Random r = new Random(SEED);
        byte[] data = TestData.mixed(r, 200_000);
        byte[] packed = jdkDeflate(data, 6);
        byte[] withTail = Arrays.copyOf(packed, packed.length + 8);
        for (int chunk : new int[] {1, 2, 7, 4096, 65_536, withTail.length}) {
            InflateEngine e = InflateEngine.create();
            try {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] buf = new byte[1 + r.nextInt(100_000)];
                int pos = 0;
                int len = 0;
                while (!e.finished()) {
                    if (e.needsInput()) {
                        len = Math.min(chunk, withTail.length - pos);
                        e.setInput(withTail, pos, len);
                        pos += len;
                    }
                    out.write(buf, 0, e.inflate(buf, 0, buf.length));
                }
                assertArrayEquals(data, out.toByteArray(), "chunk " + chunk);
                assertEquals(withTail.length - packed.length, pos - e.remaining() == packed.length
                        ? 8 : -1, "unused bytes after the stream, chunk " + chunk);
            } finally {
                e.end();
            }
        }
    }

    /**
     * ISA-L decoders hand their native memory to a bounded pool when they end, and the next decoder takes it: at most
     * MemoryPool.MAX stay idle however many were open, and a decoder on reused memory starts clean, even after one that
     * ended mid-stream on corrupt data.
     */
    @Test
    void decoderMemoryIsPooledBoundedAndStartsClean() throws Exception {
        assumeTrue(nativeInUse(), "ISA-L not in use in this run");
        Class<?> isal = Class.forName("dev.sluice.gzip.IsalInflateEngine");
        java.lang.reflect.Method pooled = isal.getDeclaredMethod("pooled");
        pooled.setAccessible(true);
        java.lang.reflect.Field maxField = Class.forName("dev.sluice.gzip.MemoryPool").getDeclaredField("MAX");
        maxField.setAccessible(true);
        int max = maxField.getInt(null);
        java.util.List<InflateEngine> open = new java.util.ArrayList<>();
        for (int i = 0; i < max + 5; i++) {
            open.add(InflateEngine.create());
        }
        for (InflateEngine e : open) {
            e.end();
            e.end(); // twice: the memory goes back once
        }
        assertEquals(max, (int) pooled.invoke(null));
        InflateEngine ended = open.get(0);
        assertThrows(IllegalStateException.class, () -> ended.inflate(new byte[10], 0, 10));

        Random r = new Random(SEED);
        for (int round = 0; round < 50; round++) {
            byte[] data = TestData.mixed(r, r.nextInt(600_000));
            byte[] member = TestData.member(GzipHeader.minimal(), data, 1 + r.nextInt(9));
            byte[] corrupt = member.clone();
            corrupt[10 + r.nextInt(member.length - 18)] ^= (byte) (1 + r.nextInt(255));
            // A stream that fails (or ends) part-way, its decoder ended with state left behind...
            try (GzipInputStream g = new GzipInputStream(new ByteArrayInputStream(
                    Arrays.copyOf(corrupt, 1 + r.nextInt(corrupt.length))))) {
                g.readNBytes(r.nextInt(100_000));
            } catch (IOException expected) {
                // corrupt or truncated: the stream closes on the way out
            }
            // ...and the next stream, on the same memory, decodes exactly.
            try (GzipInputStream g = new GzipInputStream(new ByteArrayInputStream(member))) {
                assertArrayEquals(data, g.readAllBytes(), "seed " + SEED + " round " + round);
            }
        }
        assertTrue((int) pooled.invoke(null) <= max);
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

    private static byte[] jdkInflate(byte[] packed, byte[] dictSource, int dictLen) throws DataFormatException {
        Inflater inf = new Inflater(true);
        try {
            if (dictLen > 0) {
                inf.setDictionary(dictSource, 0, dictLen);
            }
            inf.setInput(packed);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[65_536];
            while (!inf.finished()) {
                int n = inf.inflate(buf);
                if (n == 0 && !inf.finished() && (inf.needsInput() || inf.needsDictionary())) {
                    throw new DataFormatException("truncated deflate stream");
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } finally {
            inf.end();
        }
    }

    private static byte[] jdkDeflate(byte[] data, int level) {
        Deflater d = new Deflater(level, true);
        d.setInput(data);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[65_536];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }
}
