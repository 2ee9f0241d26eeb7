package dev.sluice.file;

import dev.sluice.internal.Checks;
import dev.sluice.internal.Transfers;
import dev.sluice.io.Streams;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongConsumer;

/**
 * The file copies behind {@link FastFiles}: every copy to a path writes a temporary file in the target's directory
 * and renames it into place, so readers of the target see the old file or the whole new one, and a failure
 * (including a full disk or an interrupt) leaves no partial target and no temporary file.
 */
final class FileCopier {
    private FileCopier() {}

    /** How much one {@code transferTo} call copies when someone watches progress: about a tenth of a second. */
    private static final long PROGRESS_CHUNK = 64L << 20;

    /** The parsed options of one copy. */
    private static final class Options {
        boolean replace;
        boolean durable;
        boolean copyAttributes;

        static Options parse(CopyOption[] options, boolean fromPath) {
            Checks.notNull(options, "options");
            Options o = new Options();
            for (CopyOption opt : options) {
                Checks.notNull(opt, "option");
                if (opt == StandardCopyOption.REPLACE_EXISTING) {
                    o.replace = true;
                } else if (opt == SluiceCopyOption.DURABLE) {
                    o.durable = true;
                } else if (opt == StandardCopyOption.COPY_ATTRIBUTES && fromPath) {
                    o.copyAttributes = true;
                } else {
                    throw new UnsupportedOperationException("Unsupported copy option: " + opt);
                }
            }
            return o;
        }
    }

    static void copy(Path source, Path target, LongConsumer progress, CopyOption... options) throws IOException {
        Checks.notNull(source, "source");
        Checks.notNull(target, "target");
        Options o = Options.parse(options, true);
        BasicFileAttributes attrs = Files.readAttributes(source, BasicFileAttributes.class);
        if (attrs.isDirectory()) {
            throw new FileSystemException(source.toString(), null, "Is a directory");
        }
        if (sameFile(source, target)) {
            return; // as Files.copy: copying a file onto itself is done, and must never truncate it
        }
        checkTarget(target, o);
        try (FileChannel src = FileChannel.open(source, StandardOpenOption.READ)) {
            writeAndRename(target, o, permissionsOf(source), dst -> transfer(src, dst, progress), tmp -> {
                if (o.copyAttributes) {
                    Files.getFileAttributeView(tmp, BasicFileAttributeView.class)
                            .setTimes(attrs.lastModifiedTime(), attrs.lastAccessTime(), null);
                }
            });
        }
    }

    static long copy(InputStream in, Path target, CopyOption... options) throws IOException {
        Checks.notNull(in, "in");
        Checks.notNull(target, "target");
        Options o = Options.parse(options, false);
        checkTarget(target, o);
        return writeAndRename(target, o, null, dst -> Streams.copy(in, new ChannelOutputStream(dst)), tmp -> { });
    }

    static long copy(Path source, OutputStream out) throws IOException {
        Checks.notNull(source, "source");
        Checks.notNull(out, "out");
        if (Files.isDirectory(source)) {
            throw new FileSystemException(source.toString(), null, "Is a directory");
        }
        try (InputStream in = new ChannelInputStream(FileChannel.open(source, StandardOpenOption.READ))) {
            return Streams.copy(in, out);
        }
    }

    /** Whether {@code target} exists and is {@code source}; a dangling symbolic link at {@code target} is not. */
    private static boolean sameFile(Path source, Path target) throws IOException {
        if (!Files.exists(target)) {
            return false; // missing, or a link to nothing (isSameFile would throw NoSuchFileException for it)
        }
        return Files.isSameFile(source, target);
    }

    /** Fails early, before anything is written, when the copy could not be put in place. */
    private static void checkTarget(Path target, Options o) throws IOException {
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileSystemException(target.toString(), null, "Is a directory");
        }
        if (!o.replace && Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(target.toString());
        }
    }

    /** Writes the temporary file's content; returns the bytes written (or anything, when the caller ignores it). */
    private interface Writer {
        long write(FileChannel dst) throws IOException;
    }

    /** Sets attributes of the finished temporary file before it is renamed. */
    private interface Finisher {
        void finish(Path tmp) throws IOException;
    }

    private static long writeAndRename(Path target, Options o, Set<PosixFilePermission> perms, Writer writer,
                                       Finisher finisher) throws IOException {
        Path dir = directoryOf(target);
        // Write through the descriptor that created the file: the permissions it was created with (the source's,
        // say r--r--r--) apply only to later opens, which a user who is not root would be refused.
        Temp temp = createTemp(dir, target, perms);
        Path tmp = temp.path();
        try {
            long n;
            try (FileChannel dst = temp.channel()) {
                n = writer.write(dst);
                if (o.durable) {
                    dst.force(true);
                }
            }
            finisher.finish(tmp);
            moveIntoPlace(tmp, target, o.replace);
            if (o.durable) {
                forceDirectory(dir);
            }
            return n;
        } catch (Throwable t) {
            try {
                Files.deleteIfExists(tmp);
            } catch (Throwable d) {
                t.addSuppressed(d);
            }
            if (t.getClass() == IOException.class) {
                // A bare write error ("No space left on device") says nothing of which file: name the target.
                throw new IOException(target + ": " + t.getMessage(), t);
            }
            throw t;
        }
    }

    /** The directory that will hold {@code target}; it must exist, or the copy fails naming it. */
    private static Path directoryOf(Path target) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        if (dir == null) {
            throw new FileSystemException(target.toString(), null, "Is a directory"); // the root
        }
        if (!Files.exists(dir)) {
            throw new NoSuchFileException(dir.toString());
        }
        if (!Files.isDirectory(dir)) {
            throw new NotDirectoryException(dir.toString());
        }
        return dir;
    }

    /**
     * Creates an empty temporary file next to {@code target}, {@code .NAME.RANDOM.sluice-tmp}, hidden from
     * {@code ls}, with the source's permissions (through {@code open}'s mode, so the umask applies, as for
     * {@code Files.copy}), open for writing.
     */
    private static Temp createTemp(Path dir, Path target, Set<PosixFilePermission> perms) throws IOException {
        String name = target.getFileName().toString();
        if (name.length() > 100) {
            name = name.substring(0, 100); // the random suffix must still fit in a 255-byte file name
        }
        FileAttribute<?>[] attrs = perms == null ? new FileAttribute<?>[0]
                : new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(perms)};
        for (int attempt = 0; ; attempt++) {
            Path tmp = dir.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
                    + ".sluice-tmp");
            try {
                return new Temp(tmp, FileChannel.open(tmp,
                        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attrs));
            } catch (FileAlreadyExistsException e) {
                if (attempt >= 100) {
                    throw e;
                }
            } catch (AccessDeniedException e) {
                AccessDeniedException named = new AccessDeniedException(dir.toString());
                named.initCause(e);
                throw named;
            }
        }
    }

    /** A temporary file just created, and the channel that created it. */
    private record Temp(Path path, FileChannel channel) {}

    private static Set<PosixFilePermission> permissionsOf(Path source) throws IOException {
        try {
            return Files.getPosixFilePermissions(source);
        } catch (UnsupportedOperationException e) {
            return null; // not a POSIX file system: the temporary file gets the default permissions
        }
    }

    /**
     * Copies {@code src} from its position to its end into {@code dst} inside the kernel, then reads what the
     * kernel could not see (procfs-style files report size 0).
     */
    private static long transfer(FileChannel src, FileChannel dst, LongConsumer progress) throws IOException {
        long done;
        if (progress == null) {
            done = Transfers.transferToEnd(src, dst);
        } else {
            done = 0;
            long size = src.size();
            long n;
            while (done < size && (n = src.transferTo(done, Math.min(PROGRESS_CHUNK, size - done), dst)) > 0) {
                done += n;
                progress.accept(done);
            }
            if (done > 0) {
                src.position(done); // only a seekable file got here: a pipe reports size 0
            }
        }
        ByteBuffer buf = null;
        while (true) {
            if (buf == null) {
                buf = ByteBuffer.allocate(Streams.COPY_BUFFER_SIZE);
            }
            buf.clear();
            if (src.read(buf) < 0) {
                break;
            }
            buf.flip();
            while (buf.hasRemaining()) {
                done += dst.write(buf);
            }
            if (progress != null) {
                progress.accept(done);
            }
        }
        return done;
    }

    /**
     * Renames {@code tmp} to {@code target}. Replacing is one {@code rename(2)}. Not replacing is a hard link, which
     * fails atomically if the target appeared meanwhile, then an unlink of the temporary name; on file systems
     * without hard links, a check then a rename (a target created in between is replaced).
     */
    private static void moveIntoPlace(Path tmp, Path target, boolean replace) throws IOException {
        if (replace) {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        try {
            Files.createLink(target, tmp);
            Files.delete(tmp);
            return;
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (UnsupportedOperationException | IOException e) {
            // no hard links here: fall back to check-then-rename
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Makes the rename durable; where a directory cannot be opened for this (not Linux), does nothing. */
    private static void forceDirectory(Path dir) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(dir, StandardOpenOption.READ);
        } catch (IOException e) {
            return;
        }
        try (ch) {
            ch.force(true);
        }
    }
}
