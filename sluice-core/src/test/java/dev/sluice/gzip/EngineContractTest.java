package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of the engine seam, run against each engine of the {@link Engine} registry on its own, whatever the
 * policy would choose: one subclass per engine (as aircompressor tests each implementation), skipped where the engine
 * cannot load on this JVM, and failing instead when the run expects the native engines (the build's run on the
 * packaged jar with JDK 22+). Decoders must match the JDK's Inflater on its output, hand back the bytes after the
 * stream whatever the chunking, and answer corrupt or cut input with a DataFormatException or by wanting more input;
 * encoders' output must decode with the JDK's Inflater at every level they serve, streaming (with dictionaries and
 * sync flushes) where they stream; engines that pool native memory keep the pool bounded and start clean on reused
 * memory, even after a stream abandoned midway.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class EngineContractTest {
    static final long SEED = System.nanoTime();

    /** The engine under test. */
    abstract Engine engine();

    @BeforeEach
    void engineCanLoad() {
        String problem = engine().problem();
        System.out.println(getClass().getSimpleName() + " seed " + SEED + ": " + engine().label()
                + (problem == null ? "" : ", cannot be used: " + problem));
        if (problem != null && engine().isNative() && NativeEnginesTest.expectNative()) {
            fail(engine() + " must be usable in this run: " + problem);
        }
        assumeTrue(problem == null, engine() + " cannot be used here: " + problem);
    }

    private boolean inflates() {
        return engine().serves(Engine.Use.INFLATE, 0, Deflater.DEFAULT_STRATEGY);
    }

    private List<Integer> levels(int use) {
        List<Integer> levels = new ArrayList<>();
        for (int level = 0; level <= engine().maxLevel(); level++) {
            if (engine().serves(use, level, Deflater.DEFAULT_STRATEGY)) {
                levels.add(level);
            }
        }
        return levels;
    }

    @Test
    void decodesWhatTheJdkEncodesAndHandsBackTheBytesAfterTheStreamWhateverTheChunking()
            throws DataFormatException {
        assumeTrue(inflates(), "not a decoder");
        Random r = new Random(SEED);
        byte[] data = TestData.mixed(r, 200_000);
        byte[] packed = jdkDeflate(data, 1 + r.nextInt(9));
        byte[] withTail = Arrays.copyOf(packed, packed.length + 8);
        InflateEngine e = engine().inflater();
        try {
            for (int chunk : new int[] {1, 2, 7, 4096, 65_536, withTail.length}) {
                e.reset(); // each round after the first checks that reset() starts a new stream
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] buf = new byte[1 + r.nextInt(100_000)];
                int pos = 0;
                while (!e.finished()) {
                    if (e.needsInput()) {
                        int len = Math.min(chunk, withTail.length - pos);
                        e.setInput(withTail, pos, len);
                        pos += len;
                    }
                    out.write(buf, 0, e.inflate(buf, 0, buf.length));
                }
                assertArrayEquals(data, out.toByteArray(), "chunk " + chunk + " seed " + SEED);
                assertEquals(packed.length, pos - e.remaining(), "bytes used of the input, chunk " + chunk);
                assertCrc(e, data, 0, data.length, "chunk " + chunk);
            }
        } finally {
            e.end();
            e.end(); // twice is allowed
        }
    }

    /**
     * Corrupt streams (random bytes flipped) end in a DataFormatException or in output that is not the data; cut
     * streams never claim to have finished. Neither may crash, throw anything else, or run on without input.
     */
    @Test
    void corruptAndCutInputIsADataFormatExceptionOrAnUnfinishedStream() {
        assumeTrue(inflates(), "not a decoder");
        Random r = new Random(SEED);
        InflateEngine e = engine().inflater();
        try {
            for (int round = 0; round < 300; round++) {
                byte[] data = TestData.mixed(r, r.nextInt(100_000));
                byte[] packed = jdkDeflate(data, 1 + r.nextInt(9));
                byte[] bad = packed.clone();
                boolean cut = r.nextBoolean();
                if (cut) {
                    bad = Arrays.copyOf(packed, r.nextInt(packed.length));
                } else {
                    for (int flips = 1 + r.nextInt(3); flips > 0; flips--) {
                        bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
                    }
                }
                e.reset();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] buf = new byte[1 + r.nextInt(70_000)];
                int pos = 0;
                String ctx = (cut ? "cut" : "corrupt") + " round " + round + " seed " + SEED;
                try {
                    for (int calls = 0; !e.finished(); calls++) {
                        if (e.needsInput()) {
                            if (pos == bad.length) {
                                break; // an unfinished stream that wants more input: the caller's EOFException
                            }
                            int len = Math.min(bad.length - pos, 1 + r.nextInt(20_000));
                            e.setInput(bad, pos, len);
                            pos += len;
                        }
                        int n = e.inflate(buf, 0, buf.length);
                        out.write(buf, 0, n);
                        assertTrue(calls < 100_000 && out.size() <= 1032L * bad.length + 1024,
                                "a decoder that runs on: " + ctx);
                    }
                    if (cut) {
                        assertFalse(e.finished(), "a cut stream claimed its end: " + ctx);
                    }
                } catch (DataFormatException expected) {
                    // the corrupt data's answer
                }
            }
        } finally {
            e.end();
        }
    }

    @Test
    void streamingDeflaterWithDictionaryAndFlushesDecodesWithTheJdk() throws DataFormatException {
        List<Integer> levels = levels(Engine.Use.STREAM | Engine.Use.PARALLEL);
        assumeTrue(!levels.isEmpty(), "not a streaming encoder");
        Random r = new Random(SEED);
        for (int level : levels) {
            byte[] data = TestData.mixed(r, 300_000 + r.nextInt(100_000));
            int dictLen = r.nextInt(40_000);
            DeflateEngine e = engine().deflater(level, Deflater.DEFAULT_STRATEGY);
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
        List<Integer> levels = levels(Engine.Use.MEMBERS);
        assumeTrue(!levels.isEmpty(), "not a member encoder");
        Random r = new Random(SEED);
        for (int level : levels) {
            DeflateEngine e = engine().deflater(level, Deflater.DEFAULT_STRATEGY);
            try {
                for (int size : new int[] {0, 1, 1000, 1 << 20}) {
                    byte[] data = TestData.mixed(r, size);
                    assertArrayEquals(data, jdkInflate(oneShot(e, data, data.length), data, 0), "level " + level);
                }
            } finally {
                e.end();
            }
        }
    }

    /**
     * Engines that keep their native memory in a pool (ISA-L's, both directions) give it back when they end: at most
     * MemoryPool.MAX stay idle however many were open, ending twice gives back once, and an engine on reused memory
     * starts clean, even after one that ended midway through a stream (corrupt input, or input never finished).
     */
    @Test
    void pooledNativeMemoryIsBoundedAndStartsClean() throws Exception {
        Object sample = make();
        Method pooled = pooledCount(sample.getClass());
        end(sample);
        assumeTrue(pooled != null, engine() + " keeps no pool");
        java.lang.reflect.Field maxField = Class.forName("dev.sluice.gzip.MemoryPool").getDeclaredField("MAX");
        maxField.setAccessible(true);
        int max = maxField.getInt(null);
        List<Object> open = new ArrayList<>();
        for (int i = 0; i < max + 5; i++) {
            open.add(make());
        }
        for (Object e : open) {
            end(e);
            end(e); // twice: the memory goes back once
        }
        assertEquals(max, (int) pooled.invoke(null));

        Random r = new Random(SEED);
        for (int round = 0; round < 50; round++) {
            byte[] data = TestData.mixed(r, r.nextInt(300_000));
            Object dirty = make();
            try {
                leaveMidway(dirty, data, r);
            } catch (DataFormatException expected) {
                // corrupt input: the engine ends with its state left behind
            }
            end(dirty);
            Object clean = make();
            try {
                assertArrayEquals(data, roundTrip(clean, data), "seed " + SEED + " round " + round);
            } finally {
                end(clean);
            }
        }
        assertTrue((int) pooled.invoke(null) <= max);
    }

    private Object make() {
        if (inflates()) {
            return engine().inflater();
        }
        List<Integer> levels = levels(Engine.Use.MEMBERS);
        if (levels.isEmpty()) {
            levels = levels(Engine.Use.PARALLEL); // a streaming-only engine (the system zlib)
        }
        return engine().deflater(levels.get(0), Deflater.DEFAULT_STRATEGY);
    }

    private static void end(Object engine) {
        if (engine instanceof InflateEngine) {
            ((InflateEngine) engine).end();
        } else {
            ((DeflateEngine) engine).end();
        }
    }

    private static Method pooledCount(Class<?> c) {
        try {
            Method m = c.getDeclaredMethod("pooled");
            m.setAccessible(true);
            return m;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** Feeds the engine part of a stream (corrupt for a decoder) and stops before its end. */
    private static void leaveMidway(Object engine, byte[] data, Random r) throws DataFormatException {
        byte[] buf = new byte[4096];
        if (engine instanceof InflateEngine) {
            InflateEngine e = (InflateEngine) engine;
            byte[] corrupt = jdkDeflate(data, 6);
            corrupt[r.nextInt(corrupt.length)] ^= (byte) (1 + r.nextInt(255));
            e.setInput(corrupt, 0, 1 + r.nextInt(corrupt.length));
            e.inflate(buf, 0, buf.length);
        } else {
            DeflateEngine e = (DeflateEngine) engine;
            e.setInput(data, 0, data.length);
            e.finish();
            e.deflate(buf, 0, buf.length, DeflateEngine.NO_FLUSH);
        }
    }

    /** {@code data} through the engine and back through the JDK (or the JDK's encoding through the decoder). */
    private static byte[] roundTrip(Object engine, byte[] data) throws DataFormatException {
        if (engine instanceof DeflateEngine) {
            return jdkInflate(oneShot((DeflateEngine) engine, data, data.length), data, 0);
        }
        InflateEngine e = (InflateEngine) engine;
        byte[] packed = jdkDeflate(data, 6);
        e.setInput(packed, 0, packed.length);
        byte[] out = new byte[data.length + 1];
        int n = 0;
        for (int i = 0; i < 1000 && !e.finished(); i++) {
            n += e.inflate(out, n, out.length - n);
        }
        return Arrays.copyOf(out, n);
    }

    /** One member's deflate data, as the member writers use an engine: reset, all input, finish, NO_FLUSH. */
    static byte[] oneShot(DeflateEngine e, byte[] data, int len) {
        e.reset();
        e.setInput(data, 0, len);
        e.finish();
        byte[] out = new byte[64];
        int n = 0;
        while (!e.finished()) {
            if (n == out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            n += e.deflate(out, n, out.length - n, DeflateEngine.NO_FLUSH);
        }
        return Arrays.copyOf(out, n);
    }

    static byte[] jdkInflate(byte[] packed, byte[] dictSource, int dictLen) throws DataFormatException {
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

    /** A stream made with a preset dictionary (the JDK's raw Deflater) decodes after {@link InflateEngine#setDictionary}. */
    @Test
    void decodesWithADictionary() throws DataFormatException {
        assumeTrue(inflates(), "not a decoder");
        Random r = new Random(SEED);
        InflateEngine e = engine().inflater();
        try {
            for (int round = 0; round < 20; round++) {
                byte[] all = TestData.mixed(r, 40_000 + r.nextInt(200_000));
                int dictLen = round == 0 ? 0 : 1 + r.nextInt(InflateEngine.MAX_DICTIONARY);
                Deflater d = new Deflater(1 + r.nextInt(9), true);
                d.setDictionary(all, 0, dictLen);
                d.setInput(all, dictLen, all.length - dictLen);
                d.finish();
                ByteArrayOutputStream packed = new ByteArrayOutputStream();
                byte[] buf = new byte[65_536];
                while (!d.finished()) {
                    packed.write(buf, 0, d.deflate(buf));
                }
                d.end();
                e.reset();
                e.setDictionary(all, 0, dictLen);
                byte[] p = packed.toByteArray();
                e.setInput(p, 0, p.length);
                byte[] out = new byte[all.length - dictLen + 1];
                int n = 0;
                for (int i = 0; i < 1000 && !e.finished(); i++) {
                    n += e.inflate(out, n, out.length - n);
                }
                assertTrue(e.finished(), "round " + round + " seed " + SEED);
                assertArrayEquals(Arrays.copyOfRange(all, dictLen, all.length), Arrays.copyOf(out, n),
                        "dictionary of " + dictLen + ", seed " + SEED);
                assertCrc(e, all, dictLen, all.length - dictLen, "dictionary of " + dictLen);
            }
        } finally {
            e.end();
        }
    }

    /**
     * From every checkpoint of an index (every bit offset 0-7) to the next, a {@link Piece} decoded with this engine
     * (window as dictionary, empty blocks before, an empty final block at the next checkpoint) gives exactly the bytes
     * between them and finishes exactly at the next checkpoint.
     */
    @Test
    void decodesEveryPieceBetweenCheckpoints(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws java.io.IOException {
        assumeTrue(inflates(), "not a decoder");
        Random r = new Random(SEED);
        byte[] data = TestData.mixed(r, 1_000_000);
        byte[] gz = TestData.member(GzipHeader.minimal(), data, 1 + r.nextInt(9));
        java.nio.file.Path file = tmp.resolve("pieces.gz");
        java.nio.file.Files.write(file, gz);
        GzipIndex ix = GzipIndex.build(file, 1 + r.nextInt(5_000));
        InflateEngine e = engine().inflater();
        try {
            for (int c = 0; c + 1 < ix.checkpoints(); c++) {
                long from = ix.cpBit[c] >>> 3;
                long to = (ix.cpBit[c + 1] + 7) >>> 3;
                byte[] in = new byte[Piece.ROOM + (int) (to - from) + BitStarts.MAX_SUFFIX];
                System.arraycopy(gz, (int) from, in, Piece.ROOM, (int) (to - from));
                long target = ix.cpU[c + 1] - ix.cpU[c];
                Piece p = new Piece(from, in, (int) (to - from), (int) (ix.cpBit[c] & 7), ix.windows[c], ix.cpU[c],
                        target, false, (int) (ix.cpBit[c + 1] & 7), ix.windows[c + 1], false, false);
                // Into an array's buffer and a direct one in turn (the engine writes into the latter itself); one
                // byte short of the room a piece gets, so that the buffer must grow.
                java.nio.ByteBuffer out = c % 2 == 0 ? java.nio.ByteBuffer.allocate((int) target)
                        : java.nio.ByteBuffer.allocateDirect((int) target);
                ParallelInflate.Decoded d = p.decode(e, out, new byte[GzipIndexBuild.WINDOW]);
                byte[] got = new byte[d.len];
                d.out.get(0, got);
                assertArrayEquals(Arrays.copyOfRange(data, (int) ix.cpU[c], (int) ix.cpU[c + 1]), got,
                        "checkpoint " + c + (c % 2 == 0 ? " (array)" : " (direct)") + " seed " + SEED);
                // The piece's CRC32 (the engine's own, or Java's): what PieceReader combines into the member's.
                java.util.zip.CRC32 want = new java.util.zip.CRC32();
                want.update(got);
                assertEquals(want.getValue(), p.segments.get(0).crc, "segment CRC32, checkpoint " + c + " seed " + SEED);
            }
        } finally {
            e.end();
        }
        assertTrue(ix.checkpoints() > 5, ix.toString());
    }

    /**
     * For an engine that computes the CRC32 of its output ({@link InflateEngine#computesCrc()}; ISA-L must), its
     * value once finished is the JDK's CRC32 of {@code data[off..off+len)}; for one that does not, crc() refuses.
     */
    private void assertCrc(InflateEngine e, byte[] data, int off, int len, String ctx) {
        if (engine() == Engine.ISAL_INFLATE) {
            assertTrue(e.computesCrc(), "ISA-L computes the CRC32 as it decodes");
        }
        if (!e.computesCrc()) {
            org.junit.jupiter.api.Assertions.assertThrows(UnsupportedOperationException.class, e::crc);
            return;
        }
        java.util.zip.CRC32 want = new java.util.zip.CRC32();
        want.update(data, off, len);
        assertEquals(want.getValue(), e.crc(), "engine's CRC32, " + ctx + " seed " + SEED);
    }

    static byte[] jdkDeflate(byte[] data, int level) {
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
