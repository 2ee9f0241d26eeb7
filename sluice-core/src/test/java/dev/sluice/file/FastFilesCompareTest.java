package dev.sluice.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.internal.ChannelCompare;
import dev.sluice.internal.DirectBuffers;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FastFiles#mismatch}, {@code contentEquals} and {@code checksum} against the JDK and a plain loop. */
class FastFilesCompareTest {

    @TempDir
    Path dir;

    private static final int B = DirectBuffers.SIZE;

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private int files;

    private Path fileOf(byte[] data) throws IOException {
        Path p = dir.resolve("f" + files++);
        Files.write(p, data);
        return p;
    }

    /** The reference: a plain loop with {@code Files.mismatch}'s result contract. */
    private static long loopMismatch(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) {
                return i;
            }
        }
        return a.length == b.length ? -1 : n;
    }

    @Test
    void mismatchAgreesWithFilesMismatchAndALoopForSizesAndDifferences() throws IOException {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        for (int size : new int[] {0, 1, 8191, 8192, 8193, B - 1, B, B + 1, 3 * B + 5}) {
            byte[] a = random(size, rnd.nextLong());
            Path pa = fileOf(a);
            List<byte[]> others = new ArrayList<>();
            others.add(a.clone());
            for (int off : new int[] {0, size - 1, size / 2, 8191, 8192, B - 1, B, B + 1, 2 * B - 1, 2 * B}) {
                if (off >= 0 && off < size) {
                    byte[] b = a.clone();
                    b[off] ^= 1 << rnd.nextInt(8);
                    others.add(b);
                }
            }
            others.add(Arrays.copyOf(a, size + 1));
            others.add(Arrays.copyOf(a, size + B + 2));
            if (size > 0) {
                others.add(Arrays.copyOf(a, size - 1));
            }
            for (byte[] b : others) {
                Path pb = fileOf(b);
                String what = "seed " + seed + ", sizes " + size + " and " + b.length;
                long want = loopMismatch(a, b);
                assertEquals(want, Files.mismatch(pa, pb), what + " (the reference itself)");
                assertEquals(want, FastFiles.mismatch(pa, pb), what);
                assertEquals(loopMismatch(b, a), FastFiles.mismatch(pb, pa), what + ", swapped");
                assertEquals(want < 0, FastFiles.contentEquals(pa, pb), what);
                Files.delete(pb);
            }
        }
    }

    /** Compares with two threads however small the files, so that the split is tested without gigabyte files. */
    private static long twoThreads(Path a, Path b) throws IOException {
        try (FileChannel ca = FileChannel.open(a); FileChannel cb = FileChannel.open(b)) {
            return ChannelCompare.mismatch(ca, 0, ca.size(), a, cb, 0, cb.size(), b, true);
        }
    }

    @Test
    void theTwoThreadCompareGivesTheSameAnswers() throws IOException {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        for (int size : new int[] {0, 1, B + 1, 2 * B, 4 * B + 3}) {
            byte[] a = random(size, rnd.nextLong());
            Path pa = fileOf(a);
            List<byte[]> others = new ArrayList<>();
            others.add(a.clone());
            for (int off : new int[] {0, size / 2 - 1, size / 2, 2 * B - 1, 2 * B, size - 1}) {
                if (off >= 0 && off < size) {
                    byte[] b = a.clone();
                    b[off] ^= 1;
                    others.add(b);
                    byte[] two = b.clone(); // a difference in each half: the first one wins
                    two[size - 1] ^= 2;
                    others.add(two);
                }
            }
            others.add(Arrays.copyOf(a, size + 7));
            if (size > 0) {
                others.add(Arrays.copyOf(a, size - 1));
            }
            for (byte[] b : others) {
                Path pb = fileOf(b);
                String what = "seed " + seed + ", sizes " + size + " and " + b.length;
                assertEquals(loopMismatch(a, b), twoThreads(pa, pb), what);
                assertEquals(loopMismatch(b, a), twoThreads(pb, pa), what + ", swapped");
                Files.delete(pb);
            }
        }
    }

    @Test
    void aFailureInTheSecondThreadReachesTheCaller() throws IOException {
        byte[] data = random(4 * B, 6);
        Path a = fileOf(data);
        Path b = fileOf(data);
        try (FileChannel ca = FileChannel.open(a); FileChannel cb = FileChannel.open(b, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            long size = ca.size();
            cb.truncate(3 * B); // in the second half, which the helper thread reads
            IOException e = assertThrows(IOException.class,
                    () -> ChannelCompare.mismatch(ca, 0, size, a, cb, 0, size, b, true));
            assertTrue(e.getMessage().startsWith(b + ": file shrank while being compared"), e.getMessage());
        }
    }

    @Test
    void aFileEqualsItselfAlsoThroughALink() throws IOException {
        Path a = fileOf(random(100_000, 1));
        Path link = Files.createSymbolicLink(dir.resolve("link"), a);
        assertEquals(-1, FastFiles.mismatch(a, a));
        assertEquals(-1, FastFiles.mismatch(a, link));
        assertTrue(FastFiles.contentEquals(link, a));
    }

    @Test
    void aFileThatShrinksDuringTheCompareIsAnIOExceptionNamingIt() throws IOException {
        byte[] data = random(3 * B, 2);
        Path a = fileOf(data);
        Path b = fileOf(data);
        try (FileChannel ca = FileChannel.open(a, StandardOpenOption.READ);
             FileChannel cb = FileChannel.open(b, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ca.size();
            cb.truncate(B + 10); // as if another process truncated b after we took its size
            IOException e = assertThrows(IOException.class,
                    () -> ChannelCompare.mismatch(ca, 0, size, a, cb, 0, size, b));
            assertTrue(e.getMessage().startsWith(b + ": file shrank while being compared"), e.getMessage());
        }
    }

    @Test
    void concurrentTruncationNeverCrashesTheJvm() throws Exception {
        // Mapped files would die of SIGBUS here; reads must give an answer or an IOException, whatever the timing.
        byte[] data = random(8 * B, 3);
        Path a = fileOf(data);
        Path b = fileOf(data);
        Thread truncator = new Thread(() -> {
            try (FileChannel ch = FileChannel.open(b, StandardOpenOption.WRITE)) {
                ch.truncate(B / 2);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        truncator.start();
        try {
            long m = FastFiles.mismatch(a, b);
            assertTrue(m == B / 2 || m == -1, "mismatch " + m); // truncated before the open, or after the compare
        } catch (IOException e) {
            assertTrue(e.getMessage().contains("shrank"), e.getMessage());
        } finally {
            truncator.join();
        }
    }

    @Test
    void missingFilesAndDirectoriesAreRejectedNamingThePath() throws IOException {
        Path a = fileOf(new byte[10]);
        Path missing = dir.resolve("missing");
        assertEquals(missing.toString(),
                assertThrows(NoSuchFileException.class, () -> FastFiles.mismatch(a, missing)).getFile());
        assertEquals(missing.toString(),
                assertThrows(NoSuchFileException.class, () -> FastFiles.mismatch(missing, a)).getFile());
        assertEquals(missing.toString(),
                assertThrows(NoSuchFileException.class, () -> FastFiles.contentEquals(a, missing)).getFile());
        assertEquals(missing.toString(),
                assertThrows(NoSuchFileException.class, () -> FastFiles.checksum(missing, new CRC32())).getFile());
        assertEquals(dir + ": Is a directory",
                assertThrows(FileSystemException.class, () -> FastFiles.mismatch(a, dir)).getMessage());
        assertEquals(dir + ": Is a directory",
                assertThrows(FileSystemException.class, () -> FastFiles.contentEquals(dir, a)).getMessage());
        assertEquals(dir + ": Is a directory",
                assertThrows(FileSystemException.class, () -> FastFiles.checksum(dir, new CRC32())).getMessage());
        assertEquals("a == null", assertThrows(NullPointerException.class, () -> FastFiles.mismatch(null, a)).getMessage());
        assertEquals("b == null",
                assertThrows(NullPointerException.class, () -> FastFiles.contentEquals(a, null)).getMessage());
        assertEquals("file == null",
                assertThrows(NullPointerException.class, () -> FastFiles.checksum(null, new CRC32())).getMessage());
        assertEquals("checksum == null",
                assertThrows(NullPointerException.class, () -> FastFiles.checksum(a, null)).getMessage());
    }

    @Test
    void checksumsAgreeWithTheJdkOverTheWholeArray() throws IOException {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        List<Supplier<Checksum>> kinds = List.of(CRC32::new, CRC32C::new, Adler32::new);
        for (int size : new int[] {0, 1, 8191, B - 1, B, B + 1, 2 * B + 7}) {
            byte[] data = random(size, rnd.nextLong());
            Path p = fileOf(data);
            for (Supplier<Checksum> kind : kinds) {
                Checksum want = kind.get();
                want.update(data, 0, data.length);
                Checksum got = kind.get();
                assertEquals(want.getValue(), FastFiles.checksum(p, got), "seed " + seed + ", size " + size + ", "
                        + got.getClass().getSimpleName());
            }
        }
    }

    @Test
    void aChecksumContinuesOverSeveralFiles() throws IOException {
        byte[] a = random(70_001, 4);
        byte[] b = random(5, 5);
        CRC32C running = new CRC32C();
        FastFiles.checksum(fileOf(a), running);
        long got = FastFiles.checksum(fileOf(b), running);
        CRC32C want = new CRC32C();
        want.update(a);
        want.update(b);
        assertEquals(want.getValue(), got);
    }

    @Test
    void aProcfsFileWithSizeZeroIsChecksummedWhole() throws IOException {
        Path version = Path.of("/proc/version");
        assumeTrue(Files.isReadable(version), "Linux procfs");
        byte[] data = Files.readAllBytes(version);
        assertFalse(data.length == 0);
        CRC32 want = new CRC32();
        want.update(data);
        assertEquals(want.getValue(), FastFiles.checksum(version, new CRC32()));
    }

    /**
     * Regression: a procfs file reports size 0, so its copy compared with it gave mismatch 0 and contentEquals false,
     * where Files.mismatch reads and gives -1. Both orders, a longer and a shorter copy, and an empty regular file.
     */
    @Test
    void aProcfsFileWithSizeZeroIsComparedWhole() throws IOException {
        Path version = Path.of("/proc/version");
        assumeTrue(Files.isReadable(version), "Linux procfs");
        byte[] data = Files.readAllBytes(version);
        assertTrue(data.length > 1);
        Path copy = Files.write(dir.resolve("version"), data);
        Path longer = Files.write(dir.resolve("longer"), Arrays.copyOf(data, data.length + 1));
        Path shorter = Files.write(dir.resolve("shorter"), Arrays.copyOf(data, data.length - 1));
        byte[] changed = data.clone();
        changed[data.length / 2] ^= 1;
        Path differs = Files.write(dir.resolve("differs"), changed);
        Path empty = Files.write(dir.resolve("empty"), new byte[0]);
        for (Path other : List.of(copy, longer, shorter, differs, empty)) {
            String what = other.getFileName().toString();
            assertEquals(Files.mismatch(copy, other), FastFiles.mismatch(version, other), what);
            assertEquals(Files.mismatch(other, copy), FastFiles.mismatch(other, version), what);
            assertEquals(Files.mismatch(copy, other) < 0, FastFiles.contentEquals(version, other), what);
            assertEquals(Files.mismatch(copy, other) < 0, FastFiles.contentEquals(other, version), what);
        }
        assertEquals(-1, FastFiles.mismatch(version, copy));
        assertEquals(-1, FastFiles.mismatch(empty, Files.write(dir.resolve("empty2"), new byte[0])));
    }
}

