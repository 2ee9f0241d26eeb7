package dev.sluice.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testing.HostileInputStream;
import dev.sluice.testing.HostileInputStream.InjectedIOException;
import dev.sluice.testing.HostileInputStream.Mode;
import dev.sluice.testing.HostileOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The documented contracts of the buffered streams that the differential tests do not reach. */
class FastBufferedStreamsContractTest {

    // --- bad arguments: the JDK's exception types, with the value in the message -------------------------------

    @Test
    void nullSourceAndSinkAreRejectedNamingTheParameter() {
        NullPointerException in = assertThrows(NullPointerException.class, () -> new FastBufferedInputStream(null));
        assertTrue(in.getMessage().contains("in"), in.getMessage());
        NullPointerException out = assertThrows(NullPointerException.class, () -> new FastBufferedOutputStream(null, 8));
        assertTrue(out.getMessage().contains("out"), out.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void nonPositiveBufferSizeIsRejectedWithTheValue(int size) {
        IllegalArgumentException a = assertThrows(IllegalArgumentException.class,
                () -> new FastBufferedInputStream(new ByteArrayInputStream(new byte[1]), size));
        assertTrue(a.getMessage().contains(Integer.toString(size)), a.getMessage());
        IllegalArgumentException b = assertThrows(IllegalArgumentException.class,
                () -> new FastBufferedOutputStream(new ByteArrayOutputStream(), size));
        assertTrue(b.getMessage().contains(Integer.toString(size)), b.getMessage());
    }

    @Test
    void badRangesGetIndexOutOfBounds() throws IOException {
        try (FastBufferedInputStream in = new FastBufferedInputStream(new ByteArrayInputStream(new byte[100]), 16);
             FastBufferedOutputStream out = new FastBufferedOutputStream(new ByteArrayOutputStream(), 16)) {
            byte[] b = new byte[10];
            int[][] bad = {{-1, 1}, {0, -1}, {0, 11}, {10, 1}, {5, Integer.MAX_VALUE}, {Integer.MAX_VALUE, 1}};
            for (int[] r : bad) {
                assertThrows(IndexOutOfBoundsException.class, () -> in.read(b, r[0], r[1]), Arrays.toString(r));
                assertThrows(IndexOutOfBoundsException.class, () -> out.write(b, r[0], r[1]), Arrays.toString(r));
            }
            assertThrows(NullPointerException.class, () -> in.read(null, 0, 1));
            assertThrows(NullPointerException.class, () -> out.write(null, 0, 1));
            assertThrows(NullPointerException.class, () -> in.transferTo(null));
            assertThrows(IllegalArgumentException.class, () -> in.readNBytes(-1));
        }
    }

    // --- hostile sources -------------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Mode.class)
    void shortReadsFromTheSourceNeverLoseOrReorderBytes(Mode mode) throws IOException {
        Random r = new Random(42);
        for (int size : new int[] {0, 1, 2, 3, 7, 13, 4093, 65537, 300_007}) {
            byte[] data = new byte[size];
            r.nextBytes(data);
            for (int bufferSize : new int[] {1, 2, 7, 8191, FastBufferedInputStream.DEFAULT_BUFFER_SIZE}) {
                FastBufferedInputStream in = new FastBufferedInputStream(HostileInputStream.of(data, mode, size), bufferSize);
                ByteArrayOutputStream got = new ByteArrayOutputStream();
                byte[] chunk = new byte[1 + r.nextInt(5000)];
                while (true) {
                    if (r.nextBoolean()) {
                        int b = in.read();
                        if (b < 0) {
                            break;
                        }
                        got.write(b);
                    } else {
                        int n = in.read(chunk, 0, 1 + r.nextInt(chunk.length));
                        if (n < 0) {
                            break;
                        }
                        assertTrue(n > 0, "read returned 0 for a non-empty request");
                        got.write(chunk, 0, n);
                    }
                }
                assertArrayEquals(data, got.toByteArray(), mode + " size " + size + " buffer " + bufferSize);
                assertEquals(-1, in.read());
            }
        }
    }

    @Test
    void aSourceThatFailsMidStreamDeliversEveryByteBeforeTheFailureThenTheFailureItself() throws IOException {
        byte[] data = new byte[10_000];
        new Random(7).nextBytes(data);
        for (int failAt : new int[] {0, 1, 4095, 4096, 9999}) {
            FastBufferedInputStream in = new FastBufferedInputStream(
                    new HostileInputStream(data, Mode.RANDOM_SHORT, failAt, false, failAt), 4096);
            byte[] got = new byte[data.length];
            int n = 0;
            IOException failure = null;
            try {
                while (true) {
                    int r = in.read(got, n, Math.min(777, got.length - n));
                    if (r < 0) {
                        break;
                    }
                    n += r;
                }
            } catch (IOException e) {
                failure = e;
            }
            assertTrue(failure instanceof InjectedIOException, "failAt " + failAt + ": " + failure);
            assertEquals(failAt, n, "bytes delivered before the failure");
            assertArrayEquals(Arrays.copyOf(data, failAt), Arrays.copyOf(got, n));
            // The failure is not swallowed into an end of stream on the next call either.
            assertThrows(InjectedIOException.class, in::read);
        }
    }

    @Test
    void availableAsksTheSourceOnlyWhenTheBufferIsEmpty() throws IOException {
        byte[] data = new byte[100_000];
        HostileInputStream src = new HostileInputStream(data, Mode.FULL, 1, false, -1);
        FastBufferedInputStream in = new FastBufferedInputStream(src, 8192);
        assertEquals(100_000, in.available()); // empty buffer: the source answers
        assertEquals(1, src.availableCalls());
        int reads = 0;
        while (in.read() >= 0) {
            if (++reads % 512 == 0) {
                assertTrue(in.available() > 0 || src.position() == data.length);
            }
        }
        // One call per refill at most, never one per available() call on a non-empty buffer.
        assertTrue(src.availableCalls() <= 1 + data.length / 8192 + 1, "available calls: " + src.availableCalls());
    }

    @Test
    void aLyingAvailableDoesNotChangeWhatIsRead() throws IOException {
        byte[] data = new byte[50_000];
        new Random(3).nextBytes(data);
        FastBufferedInputStream in = new FastBufferedInputStream(
                new HostileInputStream(data, Mode.RANDOM_SHORT, 9, true, -1), 509);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] chunk = new byte[1000];
        int n;
        while ((n = in.read(chunk)) >= 0) {
            got.write(chunk, 0, n);
            in.available();
        }
        assertArrayEquals(data, got.toByteArray());
    }

    @Test
    void largeReadsBypassTheBuffer() throws IOException {
        byte[] data = new byte[1 << 20];
        CountingInputStream src = new CountingInputStream(new ByteArrayInputStream(data));
        FastBufferedInputStream in = new FastBufferedInputStream(src, 4096);
        byte[] big = new byte[1 << 19];
        assertEquals(big.length, in.read(big));
        assertEquals(1, src.reads, "one read straight into the caller's array");
        assertEquals(big.length, src.largestRead);
    }

    @Test
    void readsOfEightKibibytesBypassEvenALargerBufferButSmallerOnesFillIt() throws IOException {
        byte[] data = new byte[1 << 20];
        CountingInputStream src = new CountingInputStream(new ByteArrayInputStream(data));
        FastBufferedInputStream in = new FastBufferedInputStream(src, 65536);
        assertEquals(8192, in.read(new byte[8192]));
        assertEquals(8192, src.largestRead, "8 KiB read went straight to the source");
        assertEquals(100, in.read(new byte[100]));
        assertEquals(65536, src.largestRead, "a small read fills the whole buffer");
        in.mark(10);
        assertEquals(8192, in.read(new byte[8192]), "served from the buffer");
        assertEquals(2, src.reads);
    }

    @Test
    void largeWritesBypassTheBuffer() throws IOException {
        HostileOutputStream sink = new HostileOutputStream();
        FastBufferedOutputStream out = new FastBufferedOutputStream(sink, 4096);
        out.write(1);
        out.write(new byte[8192]);
        assertEquals(2, sink.writeCalls(), "the buffered byte, then the large array as it is");
        assertEquals(8193, sink.toByteArray().length);
    }

    // --- close -------------------------------------------------------------------------------------------------------

    @Test
    void inputCloseIsIdempotentAndLaterCallsSayStreamClosed() throws IOException {
        HostileInputStream src = HostileInputStream.of(new byte[10], Mode.FULL, 1);
        FastBufferedInputStream in = new FastBufferedInputStream(src, 4);
        in.read();
        in.close();
        in.close();
        assertEquals(1, src.closeCount());
        for (ThrowingCall call : new ThrowingCall[] {in::read, () -> in.read(new byte[2]), in::available,
                () -> in.skip(1), in::reset, in::readAllBytes, () -> in.readNBytes(1),
                () -> in.transferTo(new ByteArrayOutputStream())}) {
            IOException e = assertThrows(IOException.class, call::run);
            assertEquals("Stream closed", e.getMessage());
        }
        in.mark(10); // like BufferedInputStream: mark on a closed stream is harmless
        assertTrue(in.markSupported());
    }

    @Test
    void outputCloseFlushesAndClosesTheSinkOnce() throws IOException {
        HostileOutputStream sink = new HostileOutputStream();
        FastBufferedOutputStream out = new FastBufferedOutputStream(sink, 64);
        out.write(new byte[] {1, 2, 3});
        out.close();
        out.close();
        assertArrayEquals(new byte[] {1, 2, 3}, sink.toByteArray());
        assertEquals(1, sink.closeCount());
        assertEquals(1, sink.flushCount());
        for (ThrowingCall call : new ThrowingCall[] {() -> out.write(1), () -> out.write(new byte[1]),
                () -> out.write(new byte[100]), out::flush}) {
            IOException e = assertThrows(IOException.class, call::run);
            assertEquals("Stream closed", e.getMessage());
        }
    }

    @Test
    void whenTheFlushFailsCloseStillClosesTheSinkAndKeepsBothFailures() {
        HostileOutputStream sink = new HostileOutputStream();
        FastBufferedOutputStream out = new FastBufferedOutputStream(sink, 64);
        assertThrows(IOException.class, () -> {
            out.write(7);
            sink.failWrites = true;
            sink.failClose = true;
            out.close();
        });
        assertEquals(1, sink.closeCount());
        IOException again = assertThrows(IOException.class, () -> out.write(1));
        assertEquals("Stream closed", again.getMessage());

        HostileOutputStream sink2 = new HostileOutputStream();
        FastBufferedOutputStream out2 = new FastBufferedOutputStream(sink2, 64);
        sink2.failFlush = true;
        sink2.failClose = true;
        InjectedIOException e = assertThrows(InjectedIOException.class, out2::close);
        assertEquals("injected flush failure", e.getMessage());
        assertEquals(1, e.getSuppressed().length);
        assertEquals("injected close failure", e.getSuppressed()[0].getMessage());
        assertEquals(1, sink2.closeCount());
    }

    @Test
    void anErrorInTheSinkIsRethrownAsItIs() {
        OutOfMemoryError oom = new OutOfMemoryError("test");
        FastBufferedOutputStream out = new FastBufferedOutputStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {}

            @Override
            public void flush() {
                throw oom;
            }
        }, 8);
        assertSame(oom, assertThrows(OutOfMemoryError.class, out::close));
    }

    @Test
    void markGrowsTheBufferUpToTheReadLimit() throws IOException {
        byte[] data = new byte[10_000];
        new Random(5).nextBytes(data);
        FastBufferedInputStream in = new FastBufferedInputStream(new ByteArrayInputStream(data), 16);
        in.skip(3);
        in.mark(5000);
        byte[] first = in.readNBytes(5000);
        in.reset();
        assertArrayEquals(first, in.readNBytes(5000));
        assertArrayEquals(Arrays.copyOfRange(data, 3, 5003), first);
        assertTrue(in.bufferSize() >= 5000 && in.bufferSize() <= 5000 + 16, "grew to " + in.bufferSize());
    }

    // --- byte at a time: the refill and flush inside read() and write(int) ---------------------------------------

    /**
     * read() refills inline when the buffer is allocated and unmarked, and through fill() otherwise. A source that
     * fails once, on a chosen read call, then goes on: at every buffer boundary (full reads, short reads, the end),
     * with and without a mark, read() must match BufferedInputStream byte for byte and failure for failure, and a
     * reset after the failure must return to the mark.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void byteAtATimeReadsMatchBufferedInputStreamAcrossARefillThatFailsOnce(int failingCall) throws IOException {
        byte[] data = new byte[1000];
        new Random(failingCall).nextBytes(data);
        for (int bufferSize : new int[] {1, 7, 64, 1000, 1001}) {
            for (int markAt : new int[] {-1, 0, 50, 700}) {
                String what = "buffer " + bufferSize + ", fail at read call " + failingCall + ", mark at " + markAt;
                FailingOnceSource fastSource = new FailingOnceSource(data, failingCall);
                FailingOnceSource jdkSource = new FailingOnceSource(data, failingCall);
                FastBufferedInputStream fast = new FastBufferedInputStream(fastSource, bufferSize);
                java.io.BufferedInputStream jdk = new java.io.BufferedInputStream(jdkSource, bufferSize);
                boolean failed = false;
                boolean marked = false;
                boolean resetDone = false;
                int i = 0; // bytes delivered
                while (true) {
                    if (i == markAt && !marked) {
                        fast.mark(400);
                        jdk.mark(400);
                        marked = true;
                    }
                    Object a = outcome(fast::read);
                    Object b = outcome(jdk::read);
                    assertEquals(b, a, what + ", byte " + i);
                    if (a == InjectedIOException.class) {
                        failed = true;
                        continue; // the source goes on after its one failure: ask for the same byte again
                    }
                    if ((Integer) a < 0) {
                        break;
                    }
                    assertEquals(data[i] & 0xFF, a, what + ", byte " + i);
                    i++;
                    if (marked && !resetDone && i == markAt + 200) {
                        fast.reset();
                        jdk.reset();
                        i = markAt;
                        resetDone = true;
                    }
                }
                assertEquals(data.length, i, what);
                assertTrue(failed || fastSource.calls < failingCall, what + ": the source never failed");
                fast.close();
                assertThrows(IOException.class, fast::read, what + " after close");
            }
        }
    }

    /**
     * write(int) flushes inline when the buffer is full. A sink that fails on that flush leaves the bytes buffered,
     * as BufferedOutputStream does; the next write(int) tries again, and nothing is lost or reordered.
     */
    @Test
    void byteAtATimeWritesKeepTheBufferWhenTheFlushInsideWriteFails() throws IOException {
        for (int bufferSize : new int[] {1, 2, 7, 64}) {
            HostileOutputStream fastSink = new HostileOutputStream();
            HostileOutputStream jdkSink = new HostileOutputStream();
            FastBufferedOutputStream fast = new FastBufferedOutputStream(fastSink, bufferSize);
            java.io.BufferedOutputStream jdk = new java.io.BufferedOutputStream(jdkSink, bufferSize);
            for (int i = 0; i < 300; i++) {
                boolean fail = i % 11 == 3;
                fastSink.failWrites = fail;
                jdkSink.failWrites = fail;
                final int b = i;
                Throwable x = FastBufferedInputStreamDifferentialTest.thrown(() -> { fast.write(b); return null; });
                Throwable y = FastBufferedInputStreamDifferentialTest.thrown(() -> { jdk.write(b); return null; });
                assertEquals(y == null ? null : y.getClass(), x == null ? null : x.getClass(),
                        "buffer " + bufferSize + ", write(" + i + ")");
                fastSink.failWrites = false;
                jdkSink.failWrites = false;
                assertArrayEquals(jdkSink.toByteArray(), fastSink.toByteArray(), "buffer " + bufferSize + ", " + i);
            }
            fast.close();
            jdk.close();
            assertArrayEquals(jdkSink.toByteArray(), fastSink.toByteArray(), "buffer " + bufferSize);
            IOException e = assertThrows(IOException.class, () -> fast.write(1));
            assertEquals("Stream closed", e.getMessage());
        }
    }

    /** The value {@code call} returns, or the class of what it throws. */
    private static Object outcome(java.util.concurrent.Callable<?> call) {
        try {
            return call.call();
        } catch (Exception e) {
            return e.getClass();
        }
    }

    /** Serves {@code data} in reads of at most 300 bytes; its read call number {@code failingCall} throws, once. */
    static final class FailingOnceSource extends InputStream {
        private final byte[] data;
        private final int failingCall;
        private int pos;
        int calls;

        FailingOnceSource(byte[] data, int failingCall) {
            this.data = data;
            this.failingCall = failingCall;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (++calls == failingCall) {
                throw new InjectedIOException("injected read failure");
            }
            if (pos == data.length) {
                return -1;
            }
            int n = Math.min(Math.min(len, 300), data.length - pos);
            System.arraycopy(data, pos, b, off, n);
            pos += n;
            return n;
        }
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws IOException;
    }

    static final class CountingInputStream extends java.io.FilterInputStream {
        int reads;
        int largestRead;

        CountingInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            reads++;
            largestRead = Math.max(largestRead, len);
            return super.read(b, off, len);
        }
    }
}
