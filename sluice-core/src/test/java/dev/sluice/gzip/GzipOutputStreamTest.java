package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

class GzipOutputStreamTest {

    @Test
    @Timeout(120)
    void roundTripsOfManySizesAndWritePatterns() throws IOException {
        long seed = System.nanoTime();
        System.out.println("GzipOutputStreamTest seed " + seed);
        Random r = new Random(seed);
        int buf = GzipOutputStream.DEFAULT_BUFFER_SIZE;
        int[] sizes = {0, 1, 2, buf - 1, buf, buf + 1, 2 * buf + 7, 3 << 20};
        for (int i = 0; i < sizes.length * 3; i++) {
            int size = sizes[i % sizes.length];
            byte[] data = i % 3 == 0 ? TestData.random(r, size) : TestData.mixed(r, size);
            int level = r.nextInt(10);
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            try (GzipOutputStream out = GzipOutputStream.builder().level(level)
                    .bufferSize(r.nextBoolean() ? buf : GzipOutputStream.MIN_BUFFER_SIZE + r.nextInt(5000)).build(sink)) {
                writeRandomly(r, out, data);
            }
            String ctx = "seed " + seed + " size " + size + " level " + level;
            assertArrayEquals(data, TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(sink.toByteArray()))),
                    ctx);
            assertArrayEquals(data, TestData.readAll(new GzipInputStream(new ByteArrayInputStream(sink.toByteArray()))),
                    ctx);
        }
    }

    /** Writes with a mix of single bytes, small and huge arrays and flushes, as real callers do. */
    static void writeRandomly(Random r, OutputStream out, byte[] data) throws IOException {
        int pos = 0;
        while (pos < data.length) {
            int kind = r.nextInt(10);
            if (kind == 0) {
                out.write(data[pos++]);
                continue;
            }
            int n = Math.min(data.length - pos, kind < 8 ? 1 + r.nextInt(3000) : 1 + r.nextInt(400_000));
            out.write(data, pos, n);
            pos += n;
            if (r.nextInt(40) == 0) {
                out.flush();
            }
        }
    }

    @Test
    void sizeMatchesTheJdksAtTheSameLevel() throws IOException {
        byte[] data = TestData.text(new Random(3), 2 << 20);
        ByteArrayOutputStream jdk = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(jdk)) {
            g.write(data);
        }
        ByteArrayOutputStream ours = new ByteArrayOutputStream();
        try (GzipOutputStream g = new GzipOutputStream(ours)) {
            g.write(data);
        }
        // Same zlib, same level, no flushes: the same deflate stream, so the same size (the header is 10 bytes both).
        assertEquals(jdk.size(), ours.size());
    }

    @Test
    void headerFieldsRoundTrip() throws IOException {
        GzipHeader h = GzipHeader.builder().name("caf\u00e9.txt").comment("a comment").extra(new byte[] {1, 2, 3, 4})
                .modificationTime(Instant.ofEpochSecond(1_234_567_890L)).text(true).headerCrc(true).os(11).build();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (GzipOutputStream out = GzipOutputStream.builder().level(9).header(h).build(sink)) {
            out.write(new byte[] {1, 2, 3});
        }
        GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(sink.toByteArray()));
        GzipHeader read = in.header();
        assertEquals(h.name(), read.name());
        assertEquals(h.comment(), read.comment());
        assertArrayEquals(h.extra().orElseThrow(), read.extra().orElseThrow());
        assertEquals(h.modificationTime(), read.modificationTime());
        assertTrue(read.text() && read.headerCrc());
        assertEquals(11, read.os());
        assertEquals(2, read.extraFlags(), "XFL for level 9");
        assertArrayEquals(new byte[] {1, 2, 3}, TestData.readAll(in));
    }

    @Test
    void flushMakesEverythingWrittenSoFarDecodable() throws IOException {
        byte[] data = TestData.text(new Random(4), 100_000);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        GzipOutputStream out = new GzipOutputStream(sink);
        out.write(data, 0, 60_000);
        out.flush();
        GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(sink.toByteArray()));
        byte[] got = new byte[60_000];
        int n = 0;
        while (n < got.length) {
            n += in.read(got, n, got.length - n);
        }
        assertArrayEquals(Arrays.copyOf(data, 60_000), got);
        out.write(data, 60_000, 40_000);
        out.close();
        assertArrayEquals(data, TestData.readAll(new GzipInputStream(new ByteArrayInputStream(sink.toByteArray()))));
    }

    @Test
    void gzipAcceptsWhatWeWrite() throws Exception {
        assumeTrue(Tools.installed("gzip"), "gzip not installed");
        byte[] data = TestData.mixed(new Random(5), 1 << 20);
        for (int level : new int[] {0, 1, 6, 9}) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            try (GzipOutputStream out = GzipOutputStream.builder().level(level)
                    .header(GzipHeader.builder().name("x").headerCrc(true).comment("c").build()).build(sink)) {
                writeRandomly(new Random(level), out, data);
            }
            assertArrayEquals(data, Tools.run(sink.toByteArray(), "gzip", "-dc"), "level " + level);
        }
    }

    @Test
    void badArgumentsClosedAndFinishedStreams() throws IOException {
        assertThrows(NullPointerException.class, () -> new GzipOutputStream(null));
        assertThrows(NullPointerException.class, () -> GzipOutputStream.builder().build(null));
        assertThrows(NullPointerException.class, () -> GzipOutputStream.builder().header(null));
        assertThrows(IllegalArgumentException.class, () -> GzipOutputStream.builder().level(10));
        assertThrows(IllegalArgumentException.class, () -> GzipOutputStream.builder().level(-1));
        assertThrows(IllegalArgumentException.class, () -> GzipOutputStream.builder().strategy(7));
        assertThrows(IllegalArgumentException.class, () -> GzipOutputStream.builder().bufferSize(0));
        assertEquals("bufferSize < 8: 7",
                assertThrows(IllegalArgumentException.class, () -> GzipOutputStream.builder().bufferSize(7))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> GzipHeader.builder().name("a\0b"));
        assertThrows(IllegalArgumentException.class, () -> GzipHeader.builder().comment("\u20ac"));
        assertThrows(IllegalArgumentException.class, () -> GzipHeader.builder().extra(new byte[65536]));
        assertThrows(IllegalArgumentException.class, () -> GzipHeader.builder().os(256));
        assertThrows(IllegalArgumentException.class,
                () -> GzipHeader.builder().modificationTime(Instant.ofEpochSecond(1L << 32)));
        GzipOutputStream out = GzipOutputStream.builder().strategy(Deflater.FILTERED).build(new ByteArrayOutputStream());
        assertThrows(NullPointerException.class, () -> out.write(null, 0, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> out.write(new byte[3], 2, 2));
        out.finish();
        out.finish();
        assertTrue(assertThrows(IOException.class, () -> out.write(1)).getMessage().startsWith("write beyond end"));
        out.flush(); // allowed after finish: flushes the sink only
        out.close();
        out.close();
        assertEquals("Stream closed", assertThrows(IOException.class, () -> out.write(1)).getMessage());
        assertEquals("Stream closed", assertThrows(IOException.class, () -> out.write(new byte[1])).getMessage());
        assertEquals("Stream closed", assertThrows(IOException.class, out::flush).getMessage());
    }

    @Test
    void closeClosesTheSinkEvenWhenFinishingFails() throws IOException {
        boolean[] closed = {false};
        OutputStream failing = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("disk full");
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                throw new IOException("disk full");
            }

            @Override
            public void close() {
                closed[0] = true;
            }
        };
        GzipOutputStream out = new GzipOutputStream(failing);
        out.write(1);
        assertEquals("disk full", assertThrows(IOException.class, out::close).getMessage());
        assertTrue(closed[0]);
        out.close();
    }

    /**
     * Regression: with a buffer of 1 to 6 bytes a SYNC_FLUSH never ended (zlib repeats the flush marker when it has
     * six bytes of room or less). Such sizes are now refused; the smallest accepted size flushes and round-trips.
     */
    @Test
    @Timeout(10)
    void tinyBuffersAreRefusedAndTheSmallestAcceptedOneFlushes() throws IOException {
        for (int n = 1; n < GzipOutputStream.MIN_BUFFER_SIZE; n++) {
            int size = n;
            assertThrows(IllegalArgumentException.class, () -> GzipOutputStream.builder().bufferSize(size));
        }
        byte[] text = "hello, hello, hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        GzipOutputStream out = GzipOutputStream.builder().bufferSize(GzipOutputStream.MIN_BUFFER_SIZE).build(sink);
        out.write(text, 0, 5);
        out.flush();
        // Everything written so far can be decoded from what reached the sink.
        java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
        byte[] flushed = sink.toByteArray();
        inflater.setInput(flushed, 10, flushed.length - 10);
        byte[] got = new byte[64];
        int n;
        try {
            n = inflater.inflate(got);
        } catch (java.util.zip.DataFormatException e) {
            throw new AssertionError(e);
        } finally {
            inflater.end();
        }
        assertArrayEquals(Arrays.copyOf(text, 5), Arrays.copyOf(got, n));
        out.write(text, 5, text.length - 5);
        out.flush();
        out.close();
        assertArrayEquals(text, TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(sink.toByteArray()))));
    }

    /**
     * Regression: once finishing failed (the sink threw), a later write of any size, flush or close spun at 100%
     * CPU forever. Now each throws an IOException caused by the first failure, and close still closes the sink.
     */
    @Test
    @Timeout(10)
    void afterAFailedFinishEveryCallThrowsAndNothingSpins() throws IOException {
        int[] writesLeft = {1}; // the header goes through; the first compressed bytes fail
        boolean[] closed = {false};
        OutputStream sink = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (writesLeft[0]-- <= 0) {
                    throw new IOException("sink failed");
                }
            }

            @Override
            public void close() {
                closed[0] = true;
            }
        };
        GzipOutputStream out = GzipOutputStream.builder().bufferSize(64).build(sink);
        out.write(TestData.random(new Random(1), 1000));
        IOException first = assertThrows(IOException.class, out::finish);
        assertEquals("sink failed", first.getMessage());
        for (Executable call : new Executable[] {
                () -> out.write(1), () -> out.write(new byte[10]), () -> out.write(new byte[64 * 1024]),
                out::flush, out::finish}) {
            IOException later = assertThrows(IOException.class, call);
            assertEquals(IOException.class, later.getClass());
            assertEquals(first, later.getCause());
        }
        IOException onClose = assertThrows(IOException.class, out::close);
        assertEquals(first, onClose.getCause());
        assertTrue(closed[0], "close closes the sink even after a failure");
        assertEquals("Stream closed", assertThrows(IOException.class, () -> out.write(1)).getMessage());
        out.close(); // closing twice is still safe
    }

    /** Regression: a write whose compressed output the sink refused leaves the stream failed, not half-written. */
    @Test
    @Timeout(10)
    void aFailedWriteFailsEveryLaterCall() throws IOException {
        OutputStream sink = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("sink failed");
            }
        };
        GzipOutputStream out = GzipOutputStream.builder().bufferSize(64).build(sink);
        assertThrows(IOException.class, () -> out.write(new byte[1000]));
        IOException later = assertThrows(IOException.class, () -> out.write(2));
        assertEquals("sink failed", later.getCause().getMessage());
        assertThrows(IOException.class, out::close);
    }

    /** FILTERED and HUFFMAN_ONLY members with flushes between writes round-trip exactly. */
    @Test
    @Timeout(30)
    void everyStrategyRoundTripsThroughFlushes() throws IOException {
        byte[] data = "the quick brown fox ".repeat(1000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int strategy : new int[] {Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY}) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            try (GzipOutputStream out = GzipOutputStream.builder().strategy(strategy).bufferSize(4096).build(sink)) {
                for (int off = 0; off < data.length; off += 3000) {
                    out.write(data, off, Math.min(3000, data.length - off));
                    out.flush();
                }
            }
            assertArrayEquals(data, TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(sink.toByteArray()))),
                    "strategy " + strategy);
        }
    }
}
