package dev.sluice.file;

import dev.sluice.internal.ChannelCompare;
import dev.sluice.internal.Checks;
import dev.sluice.internal.DirectBuffers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.Checksum;

/** The comparisons and checksums behind {@link FastFiles}: whole files read through large direct buffers. */
final class FileComparator {
    private FileComparator() {}

    static long mismatch(Path a, Path b) throws IOException {
        Checks.notNull(a, "a");
        Checks.notNull(b, "b");
        try (FileChannel ca = open(a); FileChannel cb = open(b)) {
            if (Files.isSameFile(a, b)) {
                return -1;
            }
            return ChannelCompare.mismatch(ca, 0, ca.size(), a, cb, 0, cb.size(), b);
        }
    }

    static boolean contentEquals(Path a, Path b) throws IOException {
        Checks.notNull(a, "a");
        Checks.notNull(b, "b");
        try (FileChannel ca = open(a); FileChannel cb = open(b)) {
            if (Files.isSameFile(a, b)) {
                return true;
            }
            long size = ca.size();
            return size == cb.size() && ChannelCompare.mismatch(ca, 0, size, a, cb, 0, size, b) < 0;
        }
    }

    static long checksum(Path file, Checksum checksum) throws IOException {
        Checks.notNull(file, "file");
        Checks.notNull(checksum, "checksum");
        try (FileChannel ch = open(file)) {
            ByteBuffer[] bufs = DirectBuffers.take(ch.size());
            try {
                ByteBuffer buf = bufs[0];
                // Read to the end rather than to size(): procfs-style files report 0 and still have content.
                while (ch.read(buf.clear()) >= 0) {
                    checksum.update(buf.flip());
                }
            } finally {
                DirectBuffers.release(bufs);
            }
        }
        return checksum.getValue();
    }

    /**
     * Opens a file to read, failing with a clear message for a directory (a {@code FileChannel} on a directory opens
     * fine on Linux and fails only at the first read, with the cryptic "Is a directory" and no path).
     */
    static FileChannel open(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new FileSystemException(file.toString(), null, "Is a directory");
        }
        return FileChannel.open(file, StandardOpenOption.READ);
    }
}
