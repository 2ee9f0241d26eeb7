package dev.sluice.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.file.FastFiles;
import dev.sluice.testing.HostileInputStream;
import dev.sluice.testing.HostileInputStream.InjectedIOException;
import dev.sluice.testing.HostileInputStream.Mode;
import dev.sluice.testing.HostileOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilterInputStream;
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
 * {@link Streams} against the obvious read/write loop (the JDK's {@code InputStream.transferTo}) and
 * {@code Arrays.equals}, over every kind of source and target: file-backed ones, which take the in-kernel path, and
 * in-memory and hostile ones, which take the buffer loop.
 */
class StreamsTest {

    @TempDir
    Path dir;

    private static final int C = Streams.COPY_BUFFER_SIZE;
    private static final int[] SIZES = {0, 1, 8191, 8192, 8193, C - 1, C, C + 1, 3 * (1 << 20) + 17};

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private Path fileOf(byte[] data) throws IOException {
        Path p = Files.createTempFile(dir, "src", ".bin");
        Files.write(p, data);
        return p;
    }

    /** A source kind: opens a stream over a file holding {@code data}. */
    private interface Source {
        InputStream open(Path file, byte[] data, long seed) throws IOException;
    }

    /** A target kind: a stream whose content {@code written()} returns once closed. */
    private interface Target {
        OutputStream open(Path file) throws IOException;
    }

    private static final String[] SOURCE_NAMES = {
        "FileInputStream", "FastFiles buffered", "FastFiles unbuffered", "ByteArrayInputStream",
        "hostile one-byte", "hostile random-short", "FileInputStream subclass"
    };

    private static InputStream source(int kind, Path file, byte[] data, long seed) throws IOException {
        switch (kind) {
            case 0: return new FileInputStream(file.toFile());
            case 1: return FastFiles.newInputStream(file);
            case 2: return FastFiles.newUnbufferedInputStream(file);
            case 3: return new ByteArrayInputStream(data);
            case 4: return HostileInputStream.of(data, Mode.ONE_BYTE, seed);
            case 5: return HostileInputStream.of(data, Mode.RANDOM_SHORT, seed);
            default: return new FileInputStream(file.toFile()) { }; // a subclass: must not be bypassed
        }
    }

    private static final String[] TARGET_NAMES = {
        "FileOutputStream", "FastFiles buffered", "FastFiles unbuffered", "ByteArrayOutputStream", "hostile"
    };

    private static OutputStream target(int kind, Path file) throws IOException {
        switch (kind) {
            case 0: return new FileOutputStream(file.toFile());
            case 1: return FastFiles.newOutputStream(file);
            case 2: return FastFiles.newUnbufferedOutputStream(file);
            case 3: return new ByteArrayOutputStream();
            default: return new HostileOutputStream();
        }
    }

    private static byte[] written(OutputStream out, Path file) throws IOException {
        if (out instanceof ByteArrayOutputStream) {
            return ((ByteArrayOutputStream) out).toByteArray();
        }
        if (out instanceof HostileOutputStream) {
            return ((HostileOutputStream) out).toByteArray();
        }
        return Files.readAllBytes(file);
    }

    @Test
    void copyWritesWhatTransferToWritesForEverySourceTargetAndSize() throws IOException {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        for (int size : SIZES) {
            byte[] data = random(size, rnd.nextLong());
            Path src = fileOf(data);
            for (int s = 0; s < SOURCE_NAMES.length; s++) {
                if (s == 4 && size > 100_000) {
                    continue; // one-byte reads of megabytes only cost test time; random short reads cover them
                }
                for (int t = 0; t < TARGET_NAMES.length; t++) {
                    // The expected bytes come from the JDK's plain loop over a plain stream.
                    ByteArrayOutputStream expected = new ByteArrayOutputStream();
                    new ByteArrayInputStream(data).transferTo(expected);
                    Path dst = dir.resolve("dst-" + s + "-" + t);
                    String what = "seed " + seed + ", size " + size + ", " + SOURCE_NAMES[s] + " -> "
                            + TARGET_NAMES[t];
                    long n;
                    OutputStream out = target(t, dst);
                    try (InputStream in = source(s, src, data, rnd.nextLong())) {
                        n = Streams.copy(in, out);
                        assertEquals(-1, in.read(), what + ": source at its end");
                    } finally {
                        out.close();
                    }
                    assertEquals(size, n, what);
                    assertArrayEquals(expected.toByteArray(), written(out, dst), what);
                }
            }
        }
    }

    @Test
    void copyStartsAtTheSourcePositionAndKeepsBytesTheTargetAlreadyHas() throws IOException {
        byte[] data = random(200_003, 7);
        Path src = fileOf(data);
        Path dst = dir.resolve("dst");
        for (int s : new int[] {0, 1, 2}) {
            try (InputStream in = source(s, src, data, 1);
                 FastBufferedOutputStream out = FastFiles.newOutputStream(dst)) {
                assertEquals(1000, in.skip(1000));
                assertEquals(data[1000] & 0xFF, in.read()); // a buffered source now holds bytes of its own
                out.write(new byte[] {1, 2, 3}); // and a buffered target too: they must come first
                assertEquals(data.length - 1001, Streams.copy(in, out), SOURCE_NAMES[s]);
            }
            byte[] got = Files.readAllBytes(dst);
            byte[] want = new byte[3 + data.length - 1001];
            want[0] = 1;
            want[1] = 2;
            want[2] = 3;
            System.arraycopy(data, 1001, want, 3, data.length - 1001);
            assertArrayEquals(want, got, SOURCE_NAMES[s]);
        }
    }

    @Test
    void copyAppendsToAFileOpenedForAppend() throws IOException {
        byte[] data = random(100_000, 3);
        Path src = fileOf(data);
        Path dst = dir.resolve("append");
        Files.write(dst, new byte[] {9, 9});
        try (InputStream in = new FileInputStream(src.toFile());
             OutputStream out = new FileOutputStream(dst.toFile(), true)) {
            assertEquals(data.length, Streams.copy(in, out));
        }
        byte[] got = Files.readAllBytes(dst);
        assertEquals(data.length + 2, got.length);
        assertArrayEquals(data, Arrays.copyOfRange(got, 2, got.length));
    }

    @Test
    void aSubclassOfFileInputStreamIsReadThroughItsOwnReadMethod() throws IOException {
        byte[] data = random(100_000, 5);
        Path src = fileOf(data);
        long[] seen = {0};
        try (InputStream in = new FileInputStream(src.toFile()) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                seen[0] += Math.max(0, n);
                return n;
            }
        }; OutputStream out = new FileOutputStream(dir.resolve("sub").toFile())) {
            assertEquals(data.length, Streams.copy(in, out));
        }
        assertEquals(data.length, seen[0], "a kernel copy would have bypassed the subclass");
    }

    @Test
    void aTargetThatThrowsPropagatesItsExceptionAndLeavesStreamsOpen() throws IOException {
        byte[] data = random(300_000, 11);
        HostileOutputStream out = new HostileOutputStream();
        out.failWrites = true;
        HostileInputStream in = HostileInputStream.of(data, Mode.RANDOM_SHORT, 1);
        assertThrows(InjectedIOException.class, () -> Streams.copy(in, out));
        assertEquals(0, in.closeCount());
        assertEquals(0, out.closeCount());
        assertEquals(0, out.flushCount(), "copy does not flush");
    }

    @Test
    void aSourceThatThrowsMidStreamPropagatesAfterWritingWhatCameBefore() throws IOException {
        byte[] data = random(300_000, 13);
        HostileOutputStream out = new HostileOutputStream();
        HostileInputStream in = new HostileInputStream(data, Mode.FULL, 1, false, 100_001);
        assertThrows(InjectedIOException.class, () -> Streams.copy(in, out));
        assertArrayEquals(Arrays.copyOf(data, 100_001), out.toByteArray());
    }

    @Test
    void closedStreamsAndNullsAreRejected() throws IOException {
        Path src = fileOf(random(10, 1));
        InputStream closed = FastFiles.newInputStream(src);
        closed.close();
        IOException e = assertThrows(IOException.class, () -> Streams.copy(closed, new ByteArrayOutputStream()));
        assertEquals("Stream closed", e.getMessage());
        OutputStream closedOut = FastFiles.newOutputStream(dir.resolve("x"));
        closedOut.close();
        IOException e2 = assertThrows(IOException.class,
                () -> Streams.copy(FastFiles.newUnbufferedInputStream(src), closedOut));
        assertEquals("Stream closed", e2.getMessage());
        InputStream in = new ByteArrayInputStream(new byte[1]);
        OutputStream out = new ByteArrayOutputStream();
        assertEquals("in == null", assertThrows(NullPointerException.class, () -> Streams.copy(null, out)).getMessage());
        assertEquals("out == null", assertThrows(NullPointerException.class, () -> Streams.copy(in, null)).getMessage());
        assertEquals("a == null",
                assertThrows(NullPointerException.class, () -> Streams.contentEquals(null, in)).getMessage());
        assertEquals("b == null",
                assertThrows(NullPointerException.class, () -> Streams.contentEquals(in, null)).getMessage());
    }

    /** Offsets where a difference is planted: the first and last byte, and around the internal chunk sizes. */
    private static List<Integer> diffOffsets(int size) {
        List<Integer> offs = new ArrayList<>();
        for (int o : new int[] {0, size - 1, 65535, 65536, 65537, (1 << 20) - 1, 1 << 20, (1 << 20) + 1}) {
            if (o >= 0 && o < size && !offs.contains(o)) {
                offs.add(o);
            }
        }
        return offs;
    }

    @Test
    void contentEqualsAgreesWithArraysEqualsForEverySourceKindSizeAndDifference() throws IOException {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        int[] kinds = {0, 1, 2, 3, 5};
        for (int size : new int[] {0, 1, 8193, 65535, 65536, 65537, (1 << 20) + 1, 2 * (1 << 20) + 3}) {
            byte[] a = random(size, rnd.nextLong());
            Path pa = fileOf(a);
            List<byte[]> others = new ArrayList<>();
            others.add(a.clone());
            for (int off : diffOffsets(size)) {
                byte[] b = a.clone();
                b[off] ^= 1 << rnd.nextInt(8);
                others.add(b);
            }
            others.add(Arrays.copyOf(a, size + 1)); // a is a prefix
            if (size > 0) {
                others.add(Arrays.copyOf(a, size - 1)); // b is a prefix
            }
            for (byte[] b : others) {
                Path pb = fileOf(b);
                boolean want = Arrays.equals(a, b);
                for (int ka : kinds) {
                    for (int kb : kinds) {
                        String what = "seed " + seed + ", size " + size + " vs " + b.length + ", "
                                + SOURCE_NAMES[ka] + " vs " + SOURCE_NAMES[kb];
                        try (InputStream ia = source(ka, pa, a, rnd.nextLong());
                             InputStream ib = source(kb, pb, b, rnd.nextLong())) {
                            assertEquals(want, Streams.contentEquals(ia, ib), what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void contentEqualsComparesFromTheCurrentPositions() throws IOException {
        byte[] a = random(100_000, 17);
        byte[] b = new byte[a.length + 500];
        System.arraycopy(a, 0, b, 500, a.length);
        try (InputStream ia = FastFiles.newUnbufferedInputStream(fileOf(a));
             InputStream ib = new FileInputStream(fileOf(b).toFile())) {
            assertEquals(500, ib.skip(500));
            assertTrue(Streams.contentEquals(ia, ib));
        }
        try (InputStream ia = FastFiles.newUnbufferedInputStream(fileOf(a));
             InputStream ib = new FileInputStream(fileOf(b).toFile())) {
            assertEquals(499, ib.skip(499));
            assertFalse(Streams.contentEquals(ia, ib));
        }
    }

    @Test
    void aStreamEqualsItselfWithoutBeingRead() throws IOException {
        HostileInputStream in = HostileInputStream.of(new byte[100], Mode.FULL, 1);
        assertTrue(Streams.contentEquals(in, in));
        assertEquals(0, in.position());
    }

    @Test
    void contentEqualsPropagatesAFailingSource() {
        byte[] data = random(200_000, 19);
        InputStream a = new ByteArrayInputStream(data);
        InputStream b = new HostileInputStream(data, Mode.FULL, 1, false, 150_000);
        assertThrows(InjectedIOException.class, () -> Streams.contentEquals(a, b));
    }

    private static Thread fifoWriter(Path fifo, byte[] data) throws Exception {
        return dev.sluice.testing.TestFiles.fifoWriter(fifo, data);
    }

    @Test
    void aPipeIsComparedByReading() throws Exception {
        // Regression: contentEquals asked a FIFO's channel for its position and failed with "Illegal seek".
        byte[] data = random(300_007, 29);
        Path file = fileOf(data);
        for (boolean jdkStream : new boolean[] {true, false}) {
            for (boolean equal : new boolean[] {true, false}) {
                Path fifo = dir.resolve("cmp-fifo-" + jdkStream + equal);
                byte[] sent = equal ? data : Arrays.copyOf(data, data.length - 1);
                Thread writer = fifoWriter(fifo, sent);
                try (InputStream pipe = jdkStream ? new FileInputStream(fifo.toFile())
                        : FastFiles.newUnbufferedInputStream(fifo);
                     InputStream other = FastFiles.newUnbufferedInputStream(file)) {
                    assertEquals(equal, Streams.contentEquals(pipe, other), "jdk " + jdkStream);
                    pipe.transferTo(OutputStream.nullOutputStream()); // let the writer finish
                }
                writer.join();
            }
        }
    }

    @Test
    void aFileInputStreamOverAPipeIsCopiedByReadingNotByTheKernelCopy() throws Exception {
        // Regression: FileChannel.position() on a pipe fails with "Illegal seek"; the kernel copy must step aside.
        byte[] data = random(300_007, 23);
        Path fifo = dir.resolve("fifo");
        Thread writer = fifoWriter(fifo, data);
        Path dst = dir.resolve("from-fifo");
        try (InputStream in = new FileInputStream(fifo.toFile());
             OutputStream out = new FileOutputStream(dst.toFile())) {
            assertEquals(data.length, Streams.copy(in, out));
        }
        writer.join();
        assertArrayEquals(data, Files.readAllBytes(dst));

        Path fifo2 = dir.resolve("fifo2");
        writer = fifoWriter(fifo2, data);
        Path dst2 = dir.resolve("from-fifo2");
        FastFiles.copy(fifo2, dst2, n -> { });
        writer.join();
        assertArrayEquals(data, Files.readAllBytes(dst2));

        Path fifo3 = dir.resolve("fifo3");
        writer = fifoWriter(fifo3, data);
        Path dst3 = dir.resolve("from-fifo3");
        try (InputStream in = FastFiles.newInputStream(fifo3); OutputStream out = FastFiles.newOutputStream(dst3)) {
            assertEquals(data.length, in.transferTo(out));
        }
        writer.join();
        assertArrayEquals(data, Files.readAllBytes(dst3));
    }

    @Test
    void procfsFilesWithSizeZeroAreStillCopiedAndCompared() throws IOException {
        Path version = Path.of("/proc/self/mountinfo");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(version), "Linux procfs");
        Path dst = dir.resolve("mountinfo");
        long n;
        try (InputStream in = new FileInputStream(version.toFile());
             OutputStream out = new FileOutputStream(dst.toFile())) {
            n = Streams.copy(in, out);
        }
        assertTrue(n > 0, "copied " + n);
        assertEquals(n, Files.size(dst));
        try (InputStream a = new FilterInputStream(new FileInputStream(dst.toFile())) { };
             InputStream b = FastFiles.newUnbufferedInputStream(dst)) {
            assertTrue(Streams.contentEquals(a, b));
        }
    }
}
