package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.zip.GZIPInputStream;
import dev.sluice.file.FastFiles;
import dev.sluice.testing.HostileInputStream;
import dev.sluice.testing.HostileInputStream.Mode;
import dev.sluice.testing.HostileInputStream.InjectedIOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParallelGzipOutputStreamTest {
    private static final int BLOCK = 4096;

    @Test
    void roundTripsWithOneToEightThreadsAndBlockBoundarySizes() throws IOException {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        int[] sizes = {0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK, 2 * BLOCK + 1, 32 * 1024 + 3, 3 << 20};
        for (int threads = 1; threads <= 8; threads++) {
            for (int size : sizes) {
                byte[] data = r.nextBoolean() ? TestData.mixed(r, size) : TestData.text(r, size);
                int block = r.nextBoolean() ? BLOCK : BLOCK + r.nextInt(200_000);
                int level = r.nextInt(10);
                byte[] gz = compress(ParallelGzipOutputStream.builder().threads(threads).blockSize(block)
                        .level(level), data, r);
                String ctx = "seed " + seed + " threads " + threads + " size " + size + " block " + block;
                assertArrayEquals(data, TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(gz))), ctx);
                assertArrayEquals(data, TestData.readAll(new GzipInputStream(new ByteArrayInputStream(gz))), ctx);
            }
        }
    }

    static byte[] compress(ParallelGzipOutputStream.Builder b, byte[] data, Random r) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (ParallelGzipOutputStream out = b.build(sink)) {
            GzipOutputStreamTest.writeRandomly(r, out, data);
        }
        return sink.toByteArray();
    }

    /**
     * transferFrom reads straight into the blocks, through streams that return 1 byte or random short reads; the
     * last block is cut into pieces (64 KiB at least, up to 4 per thread), so sizes sit around piece counts too.
     */
    @Test
    void transferFromRoundTripsThroughHostileStreams() throws IOException {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        int piece = 64 * 1024;
        int[] sizes = {0, 1, BLOCK, 2 * piece - 1, 2 * piece, 2 * piece + 1, 5 * piece + 7, 33 * piece, 1 << 20,
            (1 << 20) + 3 * piece + 1};
        for (int threads = 1; threads <= 8; threads++) {
            for (int size : sizes) {
                byte[] data = r.nextBoolean() ? TestData.mixed(r, size) : TestData.text(r, size);
                int block = r.nextBoolean() ? 1 << 20 : BLOCK + r.nextInt(300_000);
                Mode mode = size > 200_000 && r.nextBoolean() ? Mode.RANDOM_SHORT : Mode.values()[r.nextInt(3)];
                ByteArrayOutputStream sink = new ByteArrayOutputStream();
                long n;
                try (ParallelGzipOutputStream out = ParallelGzipOutputStream.builder().threads(threads)
                        .blockSize(block).independentBlocks(r.nextInt(5) == 0).build(sink)) {
                    out.write(data, 0, Math.min(size, 10));
                    n = out.transferFrom(HostileInputStream.of(Arrays.copyOfRange(data, Math.min(size, 10), size),
                            mode, seed));
                }
                String ctx = "seed " + seed + " threads " + threads + " size " + size + " block " + block + " " + mode;
                assertEquals(size - Math.min(size, 10), n, ctx);
                byte[] gz = sink.toByteArray();
                assertArrayEquals(data, TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(gz))), ctx);
                assertArrayEquals(data, TestData.readAll(new GzipInputStream(new ByteArrayInputStream(gz))), ctx);
            }
        }
    }

    /**
     * From a plain FileInputStream or Sluice's file stream, transferFrom reads the file's channel into direct blocks
     * that the compressor reads in place; from a FileInputStream subclass, through its own read (which may count or
     * transform bytes). Bytes written before (a heap first block, or its dictionary) and after (into direct blocks)
     * join them; a stream that was read partly continues where it stands. Every format, native engines included
     * when the suite reruns with them.
     */
    @Test
    void transferFromAFileReadsItsChannelIntoDirectBlocks(@TempDir Path dir) throws IOException {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        ParallelGzipOutputStream.Format[] formats = ParallelGzipOutputStream.Format.values();
        for (int round = 0; round < 36; round++) {
            int size = r.nextInt(4) == 0 ? r.nextInt(100) : r.nextInt(3 << 20);
            byte[] data = r.nextBoolean() ? TestData.mixed(r, size) : TestData.text(r, size);
            Path file = dir.resolve("in-" + round);
            Files.write(file, data);
            ParallelGzipOutputStream.Format format = formats[round % formats.length];
            int source = round / formats.length % 3;
            int threads = 1 + r.nextInt(3);
            int level = r.nextBoolean() ? 1 + r.nextInt(9) : 6;
            int before = r.nextBoolean() ? 0 : Math.min(size, r.nextInt(70_000));
            int skipped = r.nextInt(4) == 0 ? Math.min(size - before, r.nextInt(5000)) : 0;
            int tail = r.nextInt(3) == 0 ? r.nextInt(50_000) : 0;
            byte[] extra = TestData.text(r, tail);
            ParallelGzipOutputStream.Builder b = ParallelGzipOutputStream.builder().format(format).threads(threads)
                    .level(level);
            if (format != ParallelGzipOutputStream.Format.BGZF && r.nextBoolean()) {
                b.blockSize(BLOCK + r.nextInt(300_000));
            }
            String ctx = "seed " + seed + " round " + round + " " + format + " source " + source + " threads "
                    + threads + " level " + level + " size " + size + " before " + before + " skipped " + skipped
                    + " tail " + tail;
            AtomicLong counted = new AtomicLong();
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            try (InputStream in = source == 0 ? new FileInputStream(file.toFile())
                        : source == 1 ? FastFiles.newUnbufferedInputStream(file) : new FileInputStream(file.toFile()) {
                            @Override
                            public int read(byte[] buf, int off, int len) throws IOException {
                                int n = super.read(buf, off, len);
                                counted.addAndGet(Math.max(n, 0));
                                return n;
                            }
                        };
                    ParallelGzipOutputStream out = b.build(sink)) {
                out.write(data, 0, before);
                expected.write(data, 0, before);
                assertEquals(before + skipped, in.skip(before + skipped), ctx);
                assertEquals(size - before - skipped, out.transferFrom(in), ctx);
                expected.write(data, before + skipped, size - before - skipped);
                assertEquals(-1, in.read(), ctx);
                if (tail > 0) {
                    out.write(extra[0]);
                    out.write(extra, 1, tail - 1);
                    expected.write(extra, 0, tail);
                }
            }
            if (source == 2) {
                assertEquals(size - before - skipped, counted.get(), ctx + ": the subclass's read was bypassed");
            }
            byte[] gz = sink.toByteArray();
            assertArrayEquals(expected.toByteArray(),
                    TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(gz))), ctx);
            assertArrayEquals(expected.toByteArray(), TestData.readAll(new GzipInputStream(new ByteArrayInputStream(gz))),
                    ctx);
        }
    }

    /**
     * The last block goes to the workers in pieces (900,000 bytes on 4 threads: 13 pieces of at least 64 KiB), which
     * cost almost nothing in size: the pieces are primed like blocks.
     */
    @Test
    void lastBlockInPiecesStaysWithinOnePercentOfOneThread() throws IOException {
        byte[] data = TestData.text(new Random(13), 900_000); // less than one block: all of it is the last block
        ByteArrayOutputStream single = new ByteArrayOutputStream();
        try (GzipOutputStream out = new GzipOutputStream(single)) {
            out.write(data);
        }
        ByteArrayOutputStream parallel = new ByteArrayOutputStream();
        Engines engines = new Engines();
        try (ParallelGzipOutputStream out = new ParallelGzipOutputStream(
                ParallelGzipOutputStream.builder().threads(4), parallel, engines)) {
            out.transferFrom(new ByteArrayInputStream(data));
        }
        assertEquals(13, engines.calls.get(), "pieces compressed");
        assertTrue(parallel.size() < single.size() * 1.01, "parallel " + parallel.size() + " vs " + single.size());
        byte[] gz = parallel.toByteArray();
        assertArrayEquals(data, TestData.readAll(new GzipInputStream(new ByteArrayInputStream(gz))));
    }

    /** A failing source: its exception comes out of transferFrom, and what came before it is in the member. */
    @Test
    void transferFromKeepsWhatWasReadBeforeTheSourceFailed() throws IOException {
        byte[] data = TestData.text(new Random(14), 300_000);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (ParallelGzipOutputStream out = ParallelGzipOutputStream.builder().threads(2).blockSize(BLOCK)
                .build(sink)) {
            HostileInputStream in = new HostileInputStream(data, Mode.RANDOM_SHORT, 15, false, 123_457);
            assertThrows(InjectedIOException.class, () -> out.transferFrom(in));
        }
        byte[] got = TestData.readAll(new GzipInputStream(new ByteArrayInputStream(sink.toByteArray())));
        assertArrayEquals(Arrays.copyOf(data, 123_457), got);
        assertThrows(NullPointerException.class,
                () -> ParallelGzipOutputStream.builder().build(new ByteArrayOutputStream()).transferFrom(null));
    }

    @Test
    void gzipPigzAndIgzipReadWhatWeWrite() throws Exception {
        byte[] data = TestData.mixed(new Random(6), 3 << 20);
        byte[] gz = compress(ParallelGzipOutputStream.builder().threads(3).blockSize(100_000)
                .header(GzipHeader.builder().name("n").headerCrc(true).build()), data, new Random(7));
        int tools = 0;
        for (String[] cmd : new String[][] {{"gzip", "-dc"}, {"pigz", "-dc"}, {"igzip", "-dc"}}) {
            if (Tools.installed(cmd[0])) {
                assertArrayEquals(data, Tools.run(gz, cmd), cmd[0]);
                tools++;
            }
        }
        assumeTrue(tools > 0, "none of gzip, pigz, igzip installed");
    }

    /**
     * The one-member layout at every level 1-9, on random and text input whose sizes straddle the block size and the
     * last block's pieces, from arrays and from a file (direct blocks, read in place by a native engine): the JDK and
     * our reader give the input back, and gzip and pigz (test mode, then decoding) accept one output per level.
     */
    @Test
    void oneMemberAtEveryLevelIsReadByTheJdkGzipAndPigz(@TempDir Path dir) throws Exception {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        int block = 65_536;
        int[] sizes = {block - 1, block, block + 1, 5 * block + 7};
        int tools = 0;
        for (int level = 1; level <= 9; level++) {
            byte[] largest = null;
            byte[] largestGz = null;
            for (int size : sizes) {
                byte[] data = r.nextBoolean() ? TestData.text(r, size) : TestData.mixed(r, size);
                ParallelGzipOutputStream.Builder b = ParallelGzipOutputStream.builder().threads(2).blockSize(block)
                        .level(level);
                byte[] gz;
                if (r.nextBoolean()) {
                    gz = compress(b, data, r);
                } else {
                    Path f = Files.write(dir.resolve("in"), data);
                    ByteArrayOutputStream sink = new ByteArrayOutputStream();
                    try (ParallelGzipOutputStream out = b.build(sink); InputStream in = new FileInputStream(f.toFile())) {
                        assertEquals(size, out.transferFrom(in));
                    }
                    gz = sink.toByteArray();
                }
                String ctx = "seed " + seed + " level " + level + " size " + size;
                assertArrayEquals(data, TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(gz))), ctx);
                assertArrayEquals(data, TestData.readAll(new GzipInputStream(new ByteArrayInputStream(gz))), ctx);
                largest = data;
                largestGz = gz;
            }
            for (String tool : new String[] {"gzip", "pigz"}) {
                if (Tools.installed(tool)) {
                    Tools.run(largestGz, tool, "-t");
                    assertArrayEquals(largest, Tools.run(largestGz, tool, "-dc"), tool + " seed " + seed + " level "
                            + level);
                    tools++;
                }
            }
        }
        assumeTrue(tools > 0, "neither gzip nor pigz installed");
    }

    @Test
    void sizeWithinOnePercentOfOneThread() throws IOException {
        byte[] data = TestData.text(new Random(8), 8 << 20);
        ByteArrayOutputStream single = new ByteArrayOutputStream();
        try (GzipOutputStream out = new GzipOutputStream(single)) {
            out.write(data);
        }
        ByteArrayOutputStream parallel = new ByteArrayOutputStream();
        try (ParallelGzipOutputStream out = ParallelGzipOutputStream.builder().threads(2).build(parallel)) {
            out.write(data);
        }
        double ratio = (double) parallel.size() / single.size();
        assertTrue(ratio < 1.01, "parallel " + parallel.size() + " vs single " + single.size());
    }

    @Test
    void independentBlocksRoundTripAndCostSomeSize() throws IOException {
        byte[] data = TestData.text(new Random(11), 1 << 20);
        ParallelGzipOutputStream.Builder b = ParallelGzipOutputStream.builder().threads(2).blockSize(BLOCK);
        byte[] primed = compress(b, data, new Random(12));
        byte[] independent = compress(b.independentBlocks(true), data, new Random(12));
        assertArrayEquals(data, TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(independent))));
        assertTrue(independent.length > primed.length, independent.length + " vs " + primed.length);
    }

    @Test
    void flushMakesEverythingSoFarDecodable() throws IOException {
        byte[] data = TestData.text(new Random(9), 50_000);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ParallelGzipOutputStream out = ParallelGzipOutputStream.builder().threads(2).blockSize(BLOCK).build(sink);
        out.write(data, 0, 30_001);
        out.flush();
        GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(sink.toByteArray()));
        byte[] got = new byte[30_001];
        for (int n = 0; n < got.length; ) {
            n += in.read(got, n, got.length - n);
        }
        assertArrayEquals(Arrays.copyOf(data, got.length), got);
        out.flush(); // nothing pending: must not add a block
        out.write(data, 30_001, data.length - 30_001);
        out.close();
        assertArrayEquals(data, TestData.readAll(new GzipInputStream(new ByteArrayInputStream(sink.toByteArray()))));
    }

    /** Counts engines made and ended, and can make one block fail or stall (also used by ParallelGzipStressTest). */
    static final class Engines implements IntFunction<DeflateEngine> {
        final AtomicInteger made = new AtomicInteger();
        final AtomicInteger ended = new AtomicInteger();
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final int level;
        final int strategy;
        volatile int failAtCall = -1;
        volatile CountDownLatch gate;

        Engines() {
            this(6, 0);
        }

        Engines(int level, int strategy) {
            this.level = level;
            this.strategy = strategy;
        }

        @Override
        public DeflateEngine apply(int unused) {
            made.incrementAndGet();
            DeflateEngine real = GzipEngines.streamDeflater(level, strategy);
            return new DeflateEngine() {
                boolean done;

                @Override
                public void setInput(byte[] b, int off, int len) {
                    if (calls.incrementAndGet() == failAtCall) {
                        failed.incrementAndGet();
                        throw new IllegalStateException("injected engine failure");
                    }
                    CountDownLatch g = gate;
                    if (g != null) {
                        try {
                            g.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    real.setInput(b, off, len);
                }

                @Override
                public void setDictionary(byte[] b, int off, int len) {
                    real.setDictionary(b, off, len);
                }

                @Override
                public int deflate(byte[] b, int off, int len, int flush) {
                    return real.deflate(b, off, len, flush);
                }

                @Override
                public void finish() {
                    real.finish();
                }

                @Override
                public boolean finished() {
                    return real.finished();
                }

                @Override
                public boolean needsInput() {
                    return real.needsInput();
                }

                @Override
                public void reset() {
                    real.reset();
                }

                @Override
                public void end() {
                    if (!done) {
                        done = true;
                        ended.incrementAndGet();
                    }
                    real.end();
                }
            };
        }
    }

    @Test
    void workerFailureSurfacesOnTheCallersNextCallAndCloseStillCleansUp() throws Exception {
        Engines engines = new Engines();
        engines.failAtCall = 3;
        boolean[] sinkClosed = {false};
        OutputStream sink = new ByteArrayOutputStream() {
            @Override
            public void close() {
                sinkClosed[0] = true;
            }
        };
        ParallelGzipOutputStream out = new ParallelGzipOutputStream(
                ParallelGzipOutputStream.builder().threads(2).blockSize(BLOCK), sink, engines);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            IOException e = assertThrows(IOException.class, () -> {
                for (int i = 0; i < 1000; i++) {
                    out.write(new byte[BLOCK]);
                }
            });
            assertTrue(e.getMessage().contains("injected engine failure"), e.getMessage());
            assertTrue(assertThrows(IOException.class, () -> out.write(1)).getMessage().contains("failed earlier"));
            assertThrows(IOException.class, out::flush);
            assertThrows(IOException.class, out::close);
        });
        assertTrue(sinkClosed[0]);
        out.close(); // second close: quiet
        awaitNoWorkers();
        assertEquals(engines.made.get(), engines.ended.get(), "every engine ended");
    }

    @Test
    void inFlightBlocksAreBoundedAndCloseDoesNotHang() throws Exception {
        Engines engines = new Engines();
        engines.gate = new CountDownLatch(1);
        AtomicLong accepted = new AtomicLong();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ParallelGzipOutputStream out = new ParallelGzipOutputStream(
                ParallelGzipOutputStream.builder().threads(2).blockSize(BLOCK), sink, engines);
        byte[] data = TestData.text(new Random(10), 1 << 20);
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; i < data.length; i += 1024) {
                    out.write(data, i, 1024);
                    accepted.addAndGet(1024);
                }
                out.close();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        writer.start();
        Thread.sleep(300);
        // 2 x threads blocks in flight plus the one being filled: the writer must be stuck waiting by now.
        assertTrue(accepted.get() <= 5L * BLOCK, "accepted " + accepted.get() + " bytes while workers stalled");
        assertTrue(writer.isAlive());
        engines.gate.countDown();
        writer.join(20_000);
        assertFalse(writer.isAlive());
        assertArrayEquals(data, TestData.readAll(new GzipInputStream(new ByteArrayInputStream(sink.toByteArray()))));
        assertTrue(engines.made.get() <= 2, "one engine per worker at most, made " + engines.made.get());
        awaitNoWorkers();
        assertEquals(engines.made.get(), engines.ended.get());
    }

    @Test
    void interruptWhileWaitingFailsTheStreamAndCloseStillCleansUp() throws Exception {
        Engines engines = new Engines();
        engines.gate = new CountDownLatch(1);
        ParallelGzipOutputStream out = new ParallelGzipOutputStream(
                ParallelGzipOutputStream.builder().threads(1).blockSize(BLOCK), new ByteArrayOutputStream(), engines);
        Thread.currentThread().interrupt();
        try {
            assertThrows(java.io.InterruptedIOException.class, () -> {
                for (int i = 0; i < 10; i++) {
                    out.write(new byte[BLOCK]);
                }
            });
        } finally {
            assertTrue(Thread.interrupted(), "interrupt status kept");
        }
        assertTrue(assertThrows(IOException.class, () -> out.write(1)).getMessage().contains("failed earlier"));
        engines.gate.countDown();
        assertThrows(IOException.class, out::close);
        awaitNoWorkers();
        assertEquals(engines.made.get(), engines.ended.get());
    }

    @Test
    void sinkFailureSurfacesAndCloseEndsEngines() throws Exception {
        Engines engines = new Engines();
        OutputStream failing = new OutputStream() {
            int writes;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (++writes > 3) {
                    throw new IOException("disk full");
                }
            }
        };
        ParallelGzipOutputStream out = new ParallelGzipOutputStream(
                ParallelGzipOutputStream.builder().threads(3).blockSize(BLOCK), failing, engines);
        assertThrows(IOException.class, () -> {
            for (int i = 0; i < 100; i++) {
                out.write(new byte[BLOCK]);
            }
            out.close();
        });
        assertThrows(IOException.class, out::close);
        awaitNoWorkers();
        assertEquals(engines.made.get(), engines.ended.get());
    }

    @Test
    void badArgumentsAndClosedStream() throws IOException {
        assertThrows(NullPointerException.class, () -> new ParallelGzipOutputStream(null));
        assertThrows(NullPointerException.class, () -> ParallelGzipOutputStream.builder().build(null));
        assertThrows(NullPointerException.class, () -> ParallelGzipOutputStream.builder().header(null));
        assertThrows(IllegalArgumentException.class, () -> ParallelGzipOutputStream.builder().threads(0));
        assertThrows(IllegalArgumentException.class, () -> ParallelGzipOutputStream.builder().blockSize(4095));
        assertThrows(IllegalArgumentException.class, () -> ParallelGzipOutputStream.builder().level(10));
        assertThrows(IllegalArgumentException.class, () -> ParallelGzipOutputStream.builder().strategy(-2));
        ParallelGzipOutputStream out = new ParallelGzipOutputStream(new ByteArrayOutputStream());
        assertThrows(NullPointerException.class, () -> out.write(null, 0, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> out.write(new byte[2], 1, 2));
        out.finish();
        assertTrue(assertThrows(IOException.class, () -> out.write(1)).getMessage().startsWith("write beyond end"));
        out.flush(); // allowed after finish: flushes the sink only
        out.close();
        out.close();
        assertEquals("Stream closed", assertThrows(IOException.class, () -> out.write(1)).getMessage());
        assertEquals("Stream closed", assertThrows(IOException.class, out::flush).getMessage());
        assertEquals("Stream closed", assertThrows(IOException.class, out::finish).getMessage());
    }

    /** Waits up to 10 s for every worker thread to end: close() must leave no thread behind. */
    static void awaitNoWorkers() throws InterruptedException {
        List<String> alive = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            alive.clear();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith("sluice-gzip-") && t.isAlive()) {
                    alive.add(t.getName());
                }
            }
            if (alive.isEmpty()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("worker threads still alive: " + alive);
    }

    /**
     * Regression: with strategy FILTERED or HUFFMAN_ONLY the first block each compressor got was lost (the
     * Deflater's first call only applied the strategy), so the file failed to decode while writing reported nothing.
     */
    @Test
    void everyStrategyRoundTripsWithOneAndTwoThreads() throws IOException {
        byte[] data = "the quick brown fox ".repeat(1000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int strategy : new int[] {java.util.zip.Deflater.DEFAULT_STRATEGY, java.util.zip.Deflater.FILTERED,
                java.util.zip.Deflater.HUFFMAN_ONLY}) {
            for (int threads = 1; threads <= 2; threads++) {
                ByteArrayOutputStream sink = new ByteArrayOutputStream();
                try (ParallelGzipOutputStream out = ParallelGzipOutputStream.builder().threads(threads)
                        .blockSize(BLOCK).strategy(strategy).build(sink)) {
                    out.write(data);
                }
                String ctx = "strategy " + strategy + ", threads " + threads;
                assertArrayEquals(data,
                        TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(sink.toByteArray()))), ctx);
                assertArrayEquals(data,
                        TestData.readAll(new GzipInputStream(new ByteArrayInputStream(sink.toByteArray()))), ctx);
            }
        }
    }
}
