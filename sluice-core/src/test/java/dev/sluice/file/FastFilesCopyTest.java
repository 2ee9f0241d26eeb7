package dev.sluice.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.testing.HostileInputStream;
import dev.sluice.testing.HostileInputStream.InjectedIOException;
import dev.sluice.testing.HostileInputStream.Mode;
import dev.sluice.testing.HostileOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file copies of {@link FastFiles}, against {@link Files#copy} and with failures injected. */
class FastFilesCopyTest {

    @TempDir
    Path dir;

    private static final int C = dev.sluice.io.Streams.COPY_BUFFER_SIZE;
    private static final int[] SIZES = {0, 1, 8191, 8192, 8193, C - 1, C, C + 1, 5 * (1 << 20) + 3};

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private Path fileOf(String name, byte[] data) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, data);
        return p;
    }

    /** The names in {@code d} that are not {@code expected}: a leftover temporary file shows up here. */
    private static List<String> namesIn(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void copyMakesWhatFilesCopyMakesForManySizes() throws IOException {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        for (int size : SIZES) {
            byte[] data = random(size, rnd.nextLong());
            Path src = fileOf("src-" + size, data);
            Path ours = dir.resolve("ours-" + size);
            Path jdk = dir.resolve("jdk-" + size);
            FastFiles.copy(src, ours);
            Files.copy(src, jdk);
            String what = "seed " + seed + ", size " + size;
            assertArrayEquals(Files.readAllBytes(jdk), Files.readAllBytes(ours), what);
            assertEquals(Files.getPosixFilePermissions(jdk), Files.getPosixFilePermissions(ours), what);
        }
        List<String> names = namesIn(dir);
        assertTrue(names.stream().noneMatch(n -> n.endsWith(".sluice-tmp")), names.toString());
    }

    @Test
    void theCopyGetsTheSourcePermissions() throws IOException {
        Path src = fileOf("src", random(1000, 1));
        Files.setPosixFilePermissions(src, PosixFilePermissions.fromString("rwxr-x---"));
        Path dst = dir.resolve("dst");
        FastFiles.copy(src, dst);
        assertEquals(PosixFilePermissions.fromString("rwxr-x---"), Files.getPosixFilePermissions(dst));
    }

    /**
     * Regression: for a user who is not root, a read-only source failed with AccessDeniedException on the temporary
     * file, which was created with the source's permissions and then opened again to write. Root ignores
     * permissions, so this fails before the fix only when the suite runs as another user (CI does both).
     */
    @Test
    void aReadOnlySourceIsCopiedWithItsPermissions() throws IOException {
        for (String perms : List.of("r--r--r--", "r--------", "r-xr-xr-x")) {
            byte[] data = random(70_000, perms.hashCode());
            Path src = fileOf("src-" + perms, data);
            Files.setPosixFilePermissions(src, PosixFilePermissions.fromString(perms));
            Path dst = dir.resolve("dst-" + perms);
            FastFiles.copy(src, dst);
            assertArrayEquals(data, Files.readAllBytes(dst), perms);
            Path jdk = dir.resolve("jdk-" + perms);
            Files.copy(src, jdk);
            assertEquals(Files.getPosixFilePermissions(jdk), Files.getPosixFilePermissions(dst), perms);
            try (InputStream in = new ByteArrayInputStream(data)) {
                Path viaStream = dir.resolve("stream-" + perms);
                FastFiles.copy(in, viaStream);
                assertArrayEquals(data, Files.readAllBytes(viaStream), perms);
            }
        }
        List<String> names = namesIn(dir);
        assertTrue(names.stream().noneMatch(n -> n.endsWith(".sluice-tmp")), names.toString());
    }

    @Test
    void anExistingTargetIsKeptWithoutReplaceExistingAndReplacedWithIt() throws IOException {
        Path src = fileOf("src", random(70_000, 2));
        Path dst = fileOf("dst", new byte[] {1, 2, 3});
        FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class, () -> FastFiles.copy(src, dst));
        assertEquals(dst.toString(), e.getFile());
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(dst));
        assertThrows(FileAlreadyExistsException.class,
                () -> FastFiles.copy(new ByteArrayInputStream(new byte[5]), dst));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(dst));
        FastFiles.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dst));
        assertEquals(List.of("dst", "src"), namesIn(dir));
    }

    @Test
    void aSymbolicLinkTargetIsReplacedNotFollowed() throws IOException {
        Path src = fileOf("src", random(1000, 3));
        Path other = fileOf("other", new byte[] {7});
        Path link = Files.createSymbolicLink(dir.resolve("link"), other);
        assertThrows(FileAlreadyExistsException.class, () -> FastFiles.copy(src, link));
        FastFiles.copy(src, link, StandardCopyOption.REPLACE_EXISTING);
        assertFalse(Files.isSymbolicLink(link));
        assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(link));
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(other));
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));
        assertThrows(FileAlreadyExistsException.class, () -> FastFiles.copy(src, dangling));
        FastFiles.copy(src, dangling, StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dangling));
        assertFalse(Files.exists(dir.resolve("nowhere")), "the link is replaced, not followed");
    }

    @Test
    void copyingAFileOntoItselfNeverTruncatesIt() throws IOException {
        byte[] data = random(300_000, 4);
        Path src = fileOf("src", data);
        Path hard = Files.createLink(dir.resolve("hard"), src);
        Path soft = Files.createSymbolicLink(dir.resolve("soft"), src);
        for (Path target : new Path[] {src, hard, soft, dir.resolve(".").resolve("src")}) {
            FastFiles.copy(src, target);
            FastFiles.copy(src, target, StandardCopyOption.REPLACE_EXISTING);
            FastFiles.copy(target, src, StandardCopyOption.REPLACE_EXISTING, SluiceCopyOption.DURABLE);
            assertArrayEquals(data, Files.readAllBytes(src), target.toString());
        }
        assertEquals(List.of("hard", "soft", "src"), namesIn(dir));
    }

    @Test
    void durableAndCopyAttributesAreHonoured() throws IOException {
        Path src = fileOf("src", random(123_457, 5));
        FileTime old = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(src, old);
        Path dst = dir.resolve("dst");
        FastFiles.copy(src, dst, SluiceCopyOption.DURABLE, StandardCopyOption.COPY_ATTRIBUTES);
        assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dst));
        assertEquals(old, Files.getLastModifiedTime(dst));
        Path plain = dir.resolve("plain");
        FastFiles.copy(src, plain);
        assertFalse(old.equals(Files.getLastModifiedTime(plain)), "times are copied only when asked");
    }

    @Test
    void progressReportsGrowingCountsEndingAtTheSize() throws IOException {
        int size = 3 * (1 << 20) + 11;
        Path src = fileOf("src", random(size, 6));
        List<Long> seen = new ArrayList<>();
        FastFiles.copy(src, dir.resolve("dst"), seen::add);
        assertFalse(seen.isEmpty());
        for (int i = 1; i < seen.size(); i++) {
            assertTrue(seen.get(i) >= seen.get(i - 1), seen.toString());
        }
        assertEquals(size, seen.get(seen.size() - 1));
        assertArrayEquals(Files.readAllBytes(src), Files.readAllBytes(dir.resolve("dst")));
    }

    @Test
    void copyFromAStreamMakesTheFileAndReturnsTheCount() throws IOException {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        for (int size : SIZES) {
            byte[] data = random(size, rnd.nextLong());
            Path src = fileOf("src-" + size, data);
            String what = "seed " + seed + ", size " + size;
            Path a = dir.resolve("hostile-" + size);
            assertEquals(size, FastFiles.copy(HostileInputStream.of(data, Mode.RANDOM_SHORT, rnd.nextLong()), a), what);
            assertArrayEquals(data, Files.readAllBytes(a), what);
            Path b = dir.resolve("file-" + size);
            try (InputStream in = new FileInputStream(src.toFile())) {
                assertEquals(size, FastFiles.copy(in, b), what);
            }
            assertArrayEquals(data, Files.readAllBytes(b), what);
            try (InputStream in = FastFiles.newInputStream(src)) {
                assertEquals(size, FastFiles.copy(in, b, StandardCopyOption.REPLACE_EXISTING), what);
            }
            assertArrayEquals(data, Files.readAllBytes(b), what);
        }
    }

    @Test
    void copyToAStreamWritesTheFileAndLeavesTheStreamOpen() throws IOException {
        byte[] data = random(1 << 20, 7);
        Path src = fileOf("src", data);
        HostileOutputStream out = new HostileOutputStream();
        assertEquals(data.length, FastFiles.copy(src, out));
        assertArrayEquals(data, out.toByteArray());
        assertEquals(0, out.closeCount());
        Path dst = dir.resolve("dst");
        try (OutputStream fos = FastFiles.newOutputStream(dst)) {
            fos.write(42);
            assertEquals(data.length, FastFiles.copy(src, fos));
        }
        assertEquals(data.length + 1, Files.size(dst));
    }

    @Test
    void aTargetStreamThatThrowsPropagatesAndTheSourceIsClosed() throws IOException {
        Path src = fileOf("src", random(200_000, 8));
        HostileOutputStream out = new HostileOutputStream();
        out.failWrites = true;
        assertThrows(InjectedIOException.class, () -> FastFiles.copy(src, out));
        Files.delete(src); // would still work on Linux with the file open, but proves nothing is locked elsewhere
    }

    @Test
    void aSourceThatFailsMidStreamLeavesNoTargetAndNoTemporaryFile() throws IOException {
        byte[] data = random(500_000, 9);
        Path dst = dir.resolve("dst");
        HostileInputStream in = new HostileInputStream(data, Mode.RANDOM_SHORT, 1, false, 300_000);
        assertThrows(InjectedIOException.class, () -> FastFiles.copy(in, dst));
        assertEquals(List.of(), namesIn(dir));
        assertEquals(0, in.closeCount(), "the caller owns the stream");

        Files.write(dst, new byte[] {1, 2, 3});
        HostileInputStream again = new HostileInputStream(data, Mode.FULL, 1, false, 300_000);
        assertThrows(InjectedIOException.class,
                () -> FastFiles.copy(again, dst, StandardCopyOption.REPLACE_EXISTING, SluiceCopyOption.DURABLE));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(dst), "the old target is untouched");
        assertEquals(List.of("dst"), namesIn(dir));
    }

    @Test
    void aProgressCallbackThatThrowsLeavesNoTargetAndNoTemporaryFile() throws IOException {
        Path src = fileOf("src", random(1 << 20, 10));
        Path dst = dir.resolve("dst");
        RuntimeException boom = new IllegalStateException("cancelled");
        assertEquals(boom, assertThrows(IllegalStateException.class,
                () -> FastFiles.copy(src, dst, n -> { throw boom; })));
        assertEquals(List.of("src"), namesIn(dir));
    }

    @Test
    void aMissingSourceIsNoSuchFileNamingIt() {
        Path missing = dir.resolve("missing");
        Path dst = dir.resolve("dst");
        assertEquals(missing.toString(),
                assertThrows(NoSuchFileException.class, () -> FastFiles.copy(missing, dst)).getFile());
        assertEquals(missing.toString(), assertThrows(NoSuchFileException.class,
                () -> FastFiles.copy(missing, new ByteArrayOutputStream())).getFile());
        assertFalse(Files.exists(dst));
    }

    @Test
    void aDirectoryWhereAFileIsExpectedIsAClearIOException() throws IOException {
        Path src = fileOf("src", new byte[10]);
        Path sub = Files.createDirectory(dir.resolve("sub"));
        FileSystemException e = assertThrows(FileSystemException.class, () -> FastFiles.copy(sub, dir.resolve("x")));
        assertEquals(sub + ": Is a directory", e.getMessage());
        e = assertThrows(FileSystemException.class, () -> FastFiles.copy(sub, new ByteArrayOutputStream()));
        assertEquals(sub + ": Is a directory", e.getMessage());
        for (boolean replace : new boolean[] {false, true}) {
            StandardCopyOption[] opts = replace ? new StandardCopyOption[] {StandardCopyOption.REPLACE_EXISTING}
                    : new StandardCopyOption[0];
            e = assertThrows(FileSystemException.class, () -> FastFiles.copy(src, sub, opts));
            assertEquals(sub + ": Is a directory", e.getMessage());
            e = assertThrows(FileSystemException.class,
                    () -> FastFiles.copy(new ByteArrayInputStream(new byte[1]), sub, opts));
            assertEquals(sub + ": Is a directory", e.getMessage());
        }
        assertTrue(Files.isDirectory(sub));
        assertEquals(List.of(), namesIn(sub));
    }

    @Test
    void aMissingTargetDirectoryIsNamedAndNothingIsWritten() throws IOException {
        Path src = fileOf("src", new byte[10]);
        Path missingDir = dir.resolve("no").resolve("such");
        NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> FastFiles.copy(src, missingDir.resolve("dst")));
        assertEquals(missingDir.toString(), e.getFile());
        assertThrows(NoSuchFileException.class,
                () -> FastFiles.copy(new ByteArrayInputStream(new byte[1]), missingDir.resolve("dst")));
        Path notADir = fileOf("file", new byte[1]);
        NotDirectoryException n = assertThrows(NotDirectoryException.class,
                () -> FastFiles.copy(src, notADir.resolve("dst")));
        assertEquals(notADir.toString(), n.getFile());
        assertEquals(List.of("file", "src"), namesIn(dir));
    }

    @Test
    void aTargetDirectoryThatCannotBeWrittenIsNamedAndNothingIsWritten() throws IOException {
        Path src = fileOf("src", random(10_000, 11));
        Path ro = Files.createDirectory(dir.resolve("ro"));
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Path readOnly = ro;
            if (canCreateIn(ro)) {
                // Root ignores permission bits: use a directory the kernel refuses to anyone, if there is one.
                readOnly = Path.of("/sys");
                assumeTrue(Files.isDirectory(readOnly) && !canCreateIn(readOnly), "no read-only directory for root");
            }
            Path target = readOnly.resolve("dst");
            AccessDeniedException e = assertThrows(AccessDeniedException.class, () -> FastFiles.copy(src, target));
            assertEquals(readOnly.toString(), e.getFile());
            assertThrows(AccessDeniedException.class,
                    () -> FastFiles.copy(new ByteArrayInputStream(new byte[1]), target));
            assertFalse(Files.exists(target));
            assertEquals(List.of(), namesIn(ro));
        } finally {
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwx------"));
        }
    }

    private static boolean canCreateIn(Path d) {
        try {
            Files.delete(Files.createTempFile(d, "probe", ""));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void badArgumentsAreRejectedBeforeAnythingIsWritten() throws IOException {
        Path src = fileOf("src", new byte[10]);
        Path dst = dir.resolve("dst");
        assertEquals("source == null",
                assertThrows(NullPointerException.class, () -> FastFiles.copy((Path) null, dst)).getMessage());
        assertEquals("target == null",
                assertThrows(NullPointerException.class, () -> FastFiles.copy(src, (Path) null)).getMessage());
        assertEquals("option == null", assertThrows(NullPointerException.class,
                () -> FastFiles.copy(src, dst, (StandardCopyOption) null)).getMessage());
        assertEquals("progress == null", assertThrows(NullPointerException.class,
                () -> FastFiles.copy(src, dst, (java.util.function.LongConsumer) null)).getMessage());
        assertEquals("in == null",
                assertThrows(NullPointerException.class, () -> FastFiles.copy((InputStream) null, dst)).getMessage());
        assertEquals("out == null",
                assertThrows(NullPointerException.class, () -> FastFiles.copy(src, (OutputStream) null)).getMessage());
        assertThrows(UnsupportedOperationException.class, () -> FastFiles.copy(src, dst, LinkOption.NOFOLLOW_LINKS));
        assertThrows(UnsupportedOperationException.class, () -> FastFiles.copy(src, dst, StandardCopyOption.ATOMIC_MOVE));
        assertThrows(UnsupportedOperationException.class,
                () -> FastFiles.copy(new ByteArrayInputStream(new byte[1]), dst, StandardCopyOption.COPY_ATTRIBUTES));
        assertEquals(List.of("src"), namesIn(dir));
    }
}
