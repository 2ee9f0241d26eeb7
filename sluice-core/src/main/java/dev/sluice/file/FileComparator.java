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
            long sizeA = ca.size();
            long sizeB = cb.size();
            if (sizeA == 0 || sizeB == 0) {
                return mismatchByReading(ca, cb);
            }
            return ChannelCompare.mismatch(ca, 0, sizeA, a, cb, 0, sizeB, b);
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
            long sizeB = cb.size();
            if (size == 0 || sizeB == 0) {
                return mismatchByReading(ca, cb) < 0;
            }
            return size == sizeB && ChannelCompare.mismatch(ca, 0, size, a, cb, 0, size, b) < 0;
        }
    }

    /**
     * Compares two channels from their positions to their ends by reading, for files whose size cannot be trusted:
     * procfs and sysfs files report size 0 and still have content (and an empty regular file costs one read).
     * Returns the {@link Files#mismatch} answer.
     */
    private static long mismatchByReading(FileChannel a, FileChannel b) throws IOException {
        ByteBuffer[] bufs = DirectBuffers.take(0);
        try {
            ByteBuffer ba = bufs[0];
            ByteBuffer bb = bufs[1];
            for (long done = 0; ; ) {
                int na = fill(a, ba);
                int nb = fill(b, bb);
                int m = ba.mismatch(bb); // the shorter one's length when it is a prefix of the other
                if (m >= 0) {
                    return done + m;
                }
                if (na < ba.capacity()) {
                    return -1; // both ended after the same bytes
                }
                done += na;
            }
        } finally {
            DirectBuffers.release(bufs);
        }
    }

    /** Reads from {@code ch} until {@code buf} is full or the channel ends; leaves it flipped; returns the count. */
    private static int fill(FileChannel ch, ByteBuffer buf) throws IOException {
        buf.clear();
        while (buf.hasRemaining() && ch.read(buf) >= 0) {
            // a procfs read may return less than asked before the end
        }
        return buf.flip().remaining();
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
