package dev.sluice.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.io.FastBufferedInputStream;
import dev.sluice.io.FastBufferedOutputStream;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FastFilesTest {

    @TempDir
    Path dir;

    private Path fileOf(byte[] data) throws IOException {
        return dev.sluice.testing.TestFiles.fileOf(dir, data);
    }

    private static byte[] random(int size, long seed) {
        return dev.sluice.testing.TestFiles.random(size, seed);
    }

    @Test
    void readsWhatFileInputStreamReadsForManySizes() throws IOException {
        int d = FastBufferedInputStream.DEFAULT_BUFFER_SIZE;
        for (int size : new int[] {0, 1, 16, 4095, 4096, 8191, 8192, 8193, d - 1, d, d + 1, 500_000, 3 * d + 17}) {
            byte[] data = random(size, size);
            Path p = fileOf(data);
            try (FastBufferedInputStream in = FastFiles.newInputStream(p);
                 InputStream jdk = new BufferedInputStream(new FileInputStream(p.toFile()))) {
                ByteArrayOutputStream got = new ByteArrayOutputStream();
                int b;
                while ((b = in.read()) >= 0) {
                    got.write(b);
                    assertEquals(b, jdk.read());
                }
                assertEquals(-1, jdk.read());
                assertArrayEquals(data, got.toByteArray(), "size " + size);
            }
            try (InputStream in = FastFiles.newInputStream(p)) {
                assertArrayEquals(data, in.readAllBytes());
            }
            try (InputStream in = FastFiles.newUnbufferedInputStream(p)) {
                assertEquals(size, in.available());
                if (size > 10) {
                    assertEquals(10, in.skip(10));
                    assertEquals(data[10] & 0xFF, in.read());
                    assertArrayEquals(Arrays.copyOfRange(data, 11, size), in.readAllBytes());
                } else {
                    assertArrayEquals(data, in.readAllBytes());
                }
                assertEquals(0, in.skip(5), "skip never goes past the end");
                assertEquals(-1, in.read());
                assertEquals(0, in.available());
            }
        }
    }

    @Test
    void smallFilesGetSmallBuffersWhenTheyFirstNeedOne() throws IOException {
        try (FastBufferedInputStream in = FastFiles.newInputStream(fileOf(new byte[16]))) {
            in.read();
            assertEquals(8192, in.bufferSize());
        }
        try (FastBufferedInputStream in = FastFiles.newInputStream(fileOf(new byte[20_000]))) {
            in.read();
            assertEquals(20_001, in.bufferSize());
        }
        try (FastBufferedInputStream in = FastFiles.newInputStream(fileOf(new byte[1 << 20]))) {
            in.read();
            assertEquals(FastBufferedInputStream.DEFAULT_BUFFER_SIZE, in.bufferSize());
        }
        // Also for a FileInputStream; an explicit size is always kept.
        Path small = fileOf(new byte[100]);
        try (FastBufferedInputStream in = new FastBufferedInputStream(new java.io.FileInputStream(small.toFile()))) {
            in.read();
            assertEquals(8192, in.bufferSize());
        }
        try (FastBufferedInputStream in = new FastBufferedInputStream(new java.io.FileInputStream(small.toFile()), 65536)) {
            in.read();
            assertEquals(65536, in.bufferSize());
        }
    }

    @Test
    void writesLikeFilesNewOutputStream() throws IOException {
        byte[] data = random(200_001, 9);
        Path p = dir.resolve("out.bin");
        try (FastBufferedOutputStream out = FastFiles.newOutputStream(p)) {
            for (int i = 0; i < 1000; i++) {
                out.write(data[i]);
            }
            out.write(data, 1000, data.length - 1000);
        }
        assertArrayEquals(data, Files.readAllBytes(p));
        // Default options truncate an existing file, as Files.newOutputStream does.
        try (OutputStream out = FastFiles.newOutputStream(p)) {
            out.write(1);
        }
        assertArrayEquals(new byte[] {1}, Files.readAllBytes(p));
        try (OutputStream out = FastFiles.newUnbufferedOutputStream(p, StandardOpenOption.APPEND)) {
            out.write(new byte[] {2, 3});
            out.write(4);
        }
        assertArrayEquals(new byte[] {1, 2, 3, 4}, Files.readAllBytes(p));
        assertThrows(java.nio.file.FileAlreadyExistsException.class,
                () -> FastFiles.newOutputStream(p, StandardOpenOption.CREATE_NEW));
    }

    @Test
    void transferToBetweenFilesCopiesEverythingInOrder() throws IOException {
        byte[] data = random(3_000_017, 11);
        Path src = fileOf(data);
        // Sluice stream to a FileOutputStream, to a Sluice buffered stream holding bytes, and to an append target.
        Path a = dir.resolve("a");
        try (FastBufferedInputStream in = FastFiles.newInputStream(src);
             OutputStream out = new FileOutputStream(a.toFile())) {
            in.skip(5);
            assertEquals(data.length - 5, in.transferTo(out));
        }
        assertArrayEquals(Arrays.copyOfRange(data, 5, data.length), Files.readAllBytes(a));

        Path b = dir.resolve("b");
        try (FastBufferedInputStream in = new FastBufferedInputStream(new FileInputStream(src.toFile()), 4096);
             FastBufferedOutputStream out = FastFiles.newOutputStream(b)) {
            out.write(new byte[] {9, 9, 9}); // buffered: must land before the transferred bytes
            assertEquals(7, in.read(new byte[7]));
            assertEquals(data.length - 7, in.transferTo(out));
            out.write(8); // and this after them
        }
        byte[] expected = new byte[3 + data.length - 7 + 1];
        Arrays.fill(expected, 0, 3, (byte) 9);
        System.arraycopy(data, 7, expected, 3, data.length - 7);
        expected[expected.length - 1] = 8;
        assertArrayEquals(expected, Files.readAllBytes(b));

        Path c = fileOf(new byte[] {1, 2});
        try (InputStream in = FastFiles.newInputStream(src);
             OutputStream out = FastFiles.newOutputStream(c, StandardOpenOption.APPEND)) {
            in.transferTo(out);
        }
        byte[] appended = Files.readAllBytes(c);
        assertEquals(2 + data.length, appended.length);
        assertArrayEquals(data, Arrays.copyOfRange(appended, 2, appended.length));

        Path d = dir.resolve("d");
        try (InputStream in = FastFiles.newUnbufferedInputStream(src);
             OutputStream out = FastFiles.newUnbufferedOutputStream(d)) {
            assertEquals(data.length, in.transferTo(out));
        }
        assertArrayEquals(data, Files.readAllBytes(d));

        Path e = dir.resolve("e");
        try (InputStream in = FastFiles.newUnbufferedInputStream(src);
             FastBufferedOutputStream out = FastFiles.newOutputStream(e)) {
            out.write(7); // still buffered when the unbuffered stream hands its bytes to the channel
            assertEquals(data.length, in.transferTo(out));
        }
        byte[] withPrefix = Files.readAllBytes(e);
        assertEquals(7, withPrefix[0]);
        assertArrayEquals(data, Arrays.copyOfRange(withPrefix, 1, withPrefix.length));
    }

    @Test
    void filesWhoseSizeTheKernelDoesNotKnowAreStillReadCompletely() throws IOException {
        Path status = Path.of("/proc/self/status");
        assumeTrue(Files.isReadable(status), "needs procfs");
        try (FastBufferedInputStream in = FastFiles.newInputStream(status)) {
            String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            assertTrue(text.contains("Name:"), text);
        }
        try (FastBufferedInputStream in = FastFiles.newInputStream(status)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertTrue(in.transferTo(out) > 0);
        }
        Path target = dir.resolve("status-copy");
        try (FastBufferedInputStream in = FastFiles.newInputStream(status);
             OutputStream out = FastFiles.newOutputStream(target)) {
            assertTrue(in.transferTo(out) > 0);
        }
        assertTrue(new String(Files.readAllBytes(target), java.nio.charset.StandardCharsets.US_ASCII).contains("Name:"));
    }

    @Test
    void badInput() throws IOException {
        Path missing = dir.resolve("missing");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> FastFiles.newInputStream(missing));
        assertTrue(e.getMessage().contains("missing"));
        assertThrows(NoSuchFileException.class, () -> FastFiles.newUnbufferedInputStream(missing));
        assertThrows(NoSuchFileException.class, () -> FastFiles.newOutputStream(dir.resolve("no/such/dir")));
        assertThrows(NullPointerException.class, () -> FastFiles.newInputStream(null));
        assertThrows(NullPointerException.class, () -> FastFiles.newInputStream(missing, (StandardOpenOption) null));
        assertThrows(NullPointerException.class, () -> FastFiles.newOutputStream(missing, (StandardOpenOption[]) null));
        assertThrows(UnsupportedOperationException.class,
                () -> FastFiles.newInputStream(missing, StandardOpenOption.WRITE));
        assertThrows(UnsupportedOperationException.class,
                () -> FastFiles.newInputStream(missing, StandardOpenOption.APPEND));
        assertThrows(IllegalArgumentException.class, () -> FastFiles.newOutputStream(missing, StandardOpenOption.READ));
        assertFalse(Files.exists(missing), "a failed open creates nothing");
        // A directory: opening it for writing fails at once; reading fails on the first read, as an IOException.
        assertThrows(IOException.class, () -> FastFiles.newOutputStream(dir));
        try (InputStream in = FastFiles.newInputStream(dir)) {
            assertThrows(IOException.class, in::read);
        } catch (IOException expectedOnSomePlatforms) {
            // some file systems refuse to open a directory at all: also an IOException
        }
        // Closed streams.
        InputStream in = FastFiles.newUnbufferedInputStream(fileOf(new byte[3]));
        in.close();
        in.close();
        assertEquals("Stream closed", assertThrows(IOException.class, in::read).getMessage());
        assertEquals("Stream closed", assertThrows(IOException.class, in::available).getMessage());
        OutputStream out = FastFiles.newUnbufferedOutputStream(dir.resolve("x"));
        out.close();
        out.close();
        assertEquals("Stream closed", assertThrows(IOException.class, () -> out.write(1)).getMessage());
        assertEquals("Stream closed", assertThrows(IOException.class, out::flush).getMessage());
    }

    /** 10,000 open/close cycles, a quarter of them failing opens, leave the process's descriptors as they were. */
    @Test
    void noFileDescriptorLeaks() throws IOException {
        Path fds = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(fds), "needs /proc/self/fd");
        Path p = fileOf(random(5000, 1));
        Path out = dir.resolve("w");
        Path missing = dir.resolve("missing");
        byte[] buf = new byte[100];
        for (int i = 0; i < 10_000; i++) {
            switch (i % 4) {
                case 0 -> {
                    try (InputStream in = FastFiles.newInputStream(p)) {
                        in.read(buf);
                    }
                }
                case 1 -> {
                    try (OutputStream o = FastFiles.newOutputStream(out)) {
                        o.write(buf);
                    }
                }
                case 2 -> assertThrows(NoSuchFileException.class, () -> FastFiles.newInputStream(missing));
                default -> {
                    assertThrows(IOException.class, () -> FastFiles.newOutputStream(dir));
                    try (InputStream in = FastFiles.newUnbufferedInputStream(p)) {
                        in.readAllBytes();
                    }
                }
            }
        }
        // Only descriptors on this test's own files count: the process-wide total also moves with other tests'
        // dropped streams, closed by the collector at any moment, so comparing it would fail on a healthy run.
        assertEquals(List.of(), descriptorsUnder(fds, dir), "descriptors still open on this test's files");
    }

    /** The targets of this process's open descriptors that lie under {@code dir}. */
    private static List<String> descriptorsUnder(Path fds, Path dir) throws IOException {
        String prefix = dir.toRealPath().toString();
        List<String> open = new java.util.ArrayList<>();
        try (Stream<Path> s = Files.list(fds)) {
            for (Path fd : (Iterable<Path>) s::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(prefix)) {
                        open.add(fd.getFileName() + " -> " + target);
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed between the listing and the read: not open
                }
            }
        }
        return open;
    }
}
