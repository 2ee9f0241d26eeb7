package dev.sluice.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.ReadAheadBuffers;
import dev.sluice.io.Streams;
import dev.sluice.testing.TestFiles;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unbuffered file stream reads ahead into pooled direct buffers: these tests check that it still reads exactly
 * what {@link FileInputStream} reads, that the channel it hands to kernel copies is positioned where the stream is,
 * and that the pool neither leaks nor shares a buffer between two streams.
 */
class ChannelInputStreamTest {

    @TempDir
    Path dir;

    private static final int AHEAD = ReadAheadBuffers.SIZE;

    private Path fileOf(byte[] data) throws IOException {
        return TestFiles.fileOf(dir, data);
    }

    private static byte[] random(int size, long seed) {
        return TestFiles.random(size, seed);
    }

    /**
     * Seeded random sequences of every operation, on this stream and on a FileInputStream over the same file, in
     * lock step: the same bytes, counts and end-of-file answers. Sizes straddle the read-ahead size.
     */
    @Test
    void readsExactlyWhatFileInputStreamReads() throws IOException {
        int[] sizes = {0, 1, 8191, AHEAD - 1, AHEAD, AHEAD + 1, 2 * AHEAD + 7919, 1_000_003};
        for (int s = 0; s < 240; s++) {
            long seed = 0x5EED0000L + s;
            Random r = new Random(seed);
            int size = sizes[s % sizes.length];
            byte[] data = random(size, seed);
            Path p = fileOf(data);
            Path target = dir.resolve("target-" + s);
            String where = "seed " + seed + ", size " + size;
            try (InputStream ours = FastFiles.newUnbufferedInputStream(p);
                 InputStream jdk = new FileInputStream(p.toFile())) {
                boolean done = false;
                for (int step = 0; step < 60 && !done; step++) {
                    String what = where + ", step " + step;
                    switch (r.nextInt(9)) {
                        case 0 -> assertEquals(jdk.read(), ours.read(), what + ": read()");
                        case 1, 2 -> {
                            int len = r.nextInt(4) == 0 ? r.nextInt(2 * AHEAD + 2) : r.nextInt(9000);
                            int off = r.nextInt(5);
                            byte[] a = new byte[off + len + 3];
                            byte[] b = new byte[off + len + 3];
                            int na = readFully(jdk, a, off, len);
                            int nb = readFully(ours, b, off, len);
                            assertEquals(na, nb, what + ": read count of " + len);
                            assertArrayEquals(a, b, what + ": bytes");
                        }
                        case 3 -> {
                            long n = r.nextInt(3) == 0 ? r.nextInt(3 * AHEAD) : r.nextInt(5000) - 10;
                            // FileInputStream.skip seeks past the end or backwards when asked; this stream
                            // skips what is there (0 to n), so the JDK side then skips the same amount.
                            long left = jdk.available();
                            long k = ours.skip(n);
                            assertEquals(Math.min(Math.max(n, 0), left), k, what + ": skip " + n);
                            assertEquals(k, jdk.skip(k), what + ": JDK skip " + k);
                        }
                        case 4 -> assertEquals(jdk.available(), ours.available(), what + ": available");
                        case 5 -> {
                            int n = r.nextInt(20_000);
                            assertArrayEquals(jdk.readNBytes(n), ours.readNBytes(n), what + ": readNBytes " + n);
                        }
                        case 6 -> {
                            assertArrayEquals(jdk.readAllBytes(), ours.readAllBytes(), what + ": readAllBytes");
                            done = true;
                        }
                        case 7 -> {
                            // To a file: the kernel copy, from the stream's position, not the channel's.
                            byte[] rest = jdk.readAllBytes();
                            try (OutputStream out = new FileOutputStream(target.toFile())) {
                                assertEquals(rest.length, ours.transferTo(out), what + ": transferTo count");
                            }
                            assertArrayEquals(rest, Files.readAllBytes(target), what + ": transferTo bytes");
                            done = true;
                        }
                        default -> {
                            byte[] rest = jdk.readAllBytes();
                            ByteArrayOutputStream out = new ByteArrayOutputStream();
                            assertEquals(rest.length, Streams.copy(ours, out), what + ": copy count");
                            assertArrayEquals(rest, out.toByteArray(), what + ": copy bytes");
                            done = true;
                        }
                    }
                }
                assertEquals(jdk.read(), ours.read(), where + ": at the end");
            }
            Files.delete(p);
        }
    }

    /**
     * Reads until {@code len} bytes or the end: a read may return fewer bytes than asked (this stream returns what
     * it holds before reading more), so the two streams are compared on what a loop of reads gets.
     */
    private static int readFully(InputStream in, byte[] b, int off, int len) throws IOException {
        int n = 0;
        while (n < len) {
            int k = in.read(b, off + n, len - n);
            if (k < 0) {
                return n == 0 && len > 0 ? -1 : n;
            }
            assertTrue(k > 0, "a read of " + (len - n) + " bytes returned 0");
            n += k;
        }
        return n;
    }

    @Test
    void aKernelCopyAfterSomeReadsStartsWhereTheStreamIs() throws IOException {
        byte[] data = random(3 * AHEAD + 101, 7);
        Path p = fileOf(data);
        Path target = dir.resolve("copy");
        try (InputStream in = FastFiles.newUnbufferedInputStream(p);
             OutputStream out = FastFiles.newUnbufferedOutputStream(target)) {
            byte[] head = in.readNBytes(1000); // reads ahead well past byte 1000
            assertArrayEquals(Arrays.copyOf(data, 1000), head);
            assertEquals(data.length - 1000, Streams.copy(in, out));
        }
        assertArrayEquals(Arrays.copyOfRange(data, 1000, data.length), Files.readAllBytes(target));
    }

    @Test
    void contentEqualsAfterSomeReadsComparesFromTheStreamsPosition() throws IOException {
        byte[] data = random(AHEAD + 5000, 9);
        byte[] shifted = new byte[data.length + 3];
        System.arraycopy(data, 0, shifted, 3, data.length);
        try (InputStream a = FastFiles.newUnbufferedInputStream(fileOf(data));
             InputStream b = FastFiles.newUnbufferedInputStream(fileOf(shifted))) {
            assertEquals(3, b.readNBytes(3).length);
            assertTrue(Streams.contentEquals(a, b));
        }
    }

    @Test
    void aPipeReadAheadIsCopiedThroughTheStreamNotLost() throws Exception {
        byte[] data = random(700_001, 11);
        Path fifo = dir.resolve("fifo");
        Thread writer = TestFiles.fifoWriter(fifo, data);
        Path target = dir.resolve("from-fifo");
        try (InputStream in = FastFiles.newUnbufferedInputStream(fifo);
             OutputStream out = new FileOutputStream(target.toFile())) {
            assertEquals(data[0] & 0xFF, in.read());
            assertTrue(in.available() >= 0);
            assertEquals(data.length - 1, in.transferTo(out));
        }
        writer.join();
        assertArrayEquals(Arrays.copyOfRange(data, 1, data.length), Files.readAllBytes(target));
    }

    /** More streams open at once than the pool has buffers: the rest read without read-ahead, and all are right. */
    @Test
    void manyStreamsAtOnceEachReadTheirOwnFile() throws IOException {
        int n = 24;
        List<byte[]> data = new ArrayList<>();
        List<InputStream> streams = new ArrayList<>();
        List<ByteArrayOutputStream> got = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                byte[] d = random(AHEAD + 1000 * i + 1, 100 + i);
                data.add(d);
                streams.add(FastFiles.newUnbufferedInputStream(fileOf(d)));
                got.add(new ByteArrayOutputStream());
            }
            byte[] buf = new byte[7001];
            boolean any = true;
            while (any) {
                any = false;
                for (int i = 0; i < n; i++) { // interleaved, so that every stream holds its buffer at once
                    int k = streams.get(i).read(buf);
                    if (k > 0) {
                        got.get(i).write(buf, 0, k);
                        any = true;
                    }
                }
            }
        } finally {
            for (InputStream in : streams) {
                in.close();
            }
        }
        for (int i = 0; i < n; i++) {
            assertArrayEquals(data.get(i), got.get(i).toByteArray(), "stream " + i);
        }
        int[] counts = ReadAheadBuffers.counts();
        assertTrue(counts[1] <= 16 && counts[0] <= counts[1], "pool free/live " + Arrays.toString(counts));
    }

    @Test
    void buffersGoBackToThePoolAndNoneLeakOverManyOpens() throws IOException {
        Path p = fileOf(random(5000, 3));
        byte[] buf = new byte[100];
        try (InputStream in = FastFiles.newUnbufferedInputStream(p)) {
            in.read(buf); // the pool has made at least one buffer
        }
        int[] before = ReadAheadBuffers.counts();
        for (int i = 0; i < 10_000; i++) {
            try (InputStream in = FastFiles.newInputStream(p)) {
                in.read(buf);
            }
        }
        assertArrayEquals(before, ReadAheadBuffers.counts(), "pool {free, live} before and after");
    }

    @Test
    void aStreamClosedByAnotherThreadDoesNotReturnItsBufferToThePool() throws Exception {
        Path p = fileOf(random(AHEAD * 2, 5));
        try (InputStream warm = FastFiles.newUnbufferedInputStream(p)) {
            warm.read(); // make sure the pool has a free buffer
        }
        int[] before = ReadAheadBuffers.counts();
        assertTrue(before[0] >= 1, "a free buffer: " + Arrays.toString(before));
        InputStream in = FastFiles.newUnbufferedInputStream(p);
        in.read();
        Thread closer = new Thread(() -> {
            try {
                in.close();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        closer.start();
        closer.join();
        int[] after = ReadAheadBuffers.counts();
        assertEquals(before[0] - 1, after[0], "the buffer was not put back");
        assertEquals(before[1] - 1, after[1], "and was dropped, so the pool may make another");
        assertEquals("Stream closed", assertThrows(IOException.class, in::read).getMessage());
    }

    /** Buffers taken from the pool and not given back: live minus free. */
    private static int held() {
        int[] c = ReadAheadBuffers.counts();
        return c[1] - c[0];
    }

    @Test
    void anInterruptedReadLeavesNoBufferHeld() throws IOException {
        Path p = fileOf(random(AHEAD + 10, 13));
        int before = held();
        InputStream in = FastFiles.newUnbufferedInputStream(p);
        try {
            Thread.currentThread().interrupt(); // FileChannel closes itself on an interrupted read
            IOException e = assertThrows(IOException.class, in::read);
            assertEquals("Stream closed", e.getMessage());
            assertTrue(e.getCause() instanceof java.nio.channels.ClosedByInterruptException, String.valueOf(e.getCause()));
        } finally {
            Thread.interrupted();
        }
        assertEquals(before, held(), "the buffer taken for the read was dropped");
        in.close();
        assertEquals(before, held(), "and close gives back nothing twice");
    }

    /** A stream read by a worker and closed by the thread that opened it (to cancel the worker): not pooled. */
    @Test
    void aStreamReadByAnotherThreadIsNotPooledWhenItsOwnerClosesIt() throws Exception {
        Path p = fileOf(random(AHEAD * 3, 17));
        int before = held();
        int[] counts = ReadAheadBuffers.counts();
        InputStream in = FastFiles.newUnbufferedInputStream(p);
        in.read(); // this thread takes the buffer
        Thread worker = new Thread(() -> {
            try {
                in.read(new byte[1000]);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        worker.start();
        worker.join();
        in.close();
        int[] after = ReadAheadBuffers.counts();
        assertEquals(before, held(), "nothing held after close");
        assertTrue(after[1] <= counts[1], "the buffer was dropped, not pooled: " + Arrays.toString(counts) + " -> "
                + Arrays.toString(after));
        assertTrue(after[0] <= counts[0], "no buffer was added to the free ones");
    }

    /** /dev/zero seeks without moving: giving read-ahead bytes back by seeking must not be tried there. */
    @Test
    void aDeviceThatDoesNotSeekIsReadThroughTheStream() throws IOException {
        Path zero = Path.of("/dev/zero");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(zero), "needs /dev/zero");
        try (InputStream in = FastFiles.newInputStream(zero)) {
            assertEquals(8192, in.read(new byte[8192])); // straight to the file stream, which reads ahead
            assertEquals(0, in.read()); // the buffered stream's first refill asks the file's size
            byte[] more = in.readNBytes(300_000);
            assertEquals(300_000, more.length);
            for (byte b : more) {
                assertEquals(0, b);
            }
        }
        try (InputStream in = FastFiles.newUnbufferedInputStream(zero)) {
            in.read();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertEquals(1000, Streams.copy(new LimitedStream(in, 1000), out));
        }
    }

    /** At most {@code limit} bytes of {@code in}: not file-backed, so copies go through read(). */
    private static final class LimitedStream extends java.io.FilterInputStream {
        private int left;

        LimitedStream(InputStream in, int limit) {
            super(in);
            left = limit;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) {
                return -1;
            }
            int n = in.read(b, off, Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }
    }
}
