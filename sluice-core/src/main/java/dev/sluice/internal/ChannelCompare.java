package dev.sluice.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Compares two file channels by reading both into large direct buffers and comparing them with the vectorized
 * {@link ByteBuffer#mismatch}. Shared by {@code FastFiles.mismatch} and {@code Streams.contentEquals}.
 *
 * <p>Why reads and not {@code map}: a mapped file that another process truncates makes the next access to the lost
 * pages a {@code SIGBUS}, which the JVM reports as an {@link InternalError} at best and a crash at worst. With
 * {@code pread} a truncated file is an early end of file, reported here as an {@link IOException}. Reading 2 x 1 MiB
 * at a time is within a few percent of the page-cache copy bandwidth anyway (docs/benchmarks/copy.md).
 */
public final class ChannelCompare {
    private ChannelCompare() {}

    /**
     * Compares {@code lenA} bytes of {@code a} from {@code posA} with {@code lenB} bytes of {@code b} from
     * {@code posB}, with positional reads (the channels' positions do not move).
     *
     * @return -1 when the lengths are equal and so are the bytes; otherwise the offset, relative to the start
     *         positions, of the first differing byte, or {@code min(lenA, lenB)} when the shorter is a prefix of the
     *         longer (the result contract of {@link java.nio.file.Files#mismatch})
     * @throws IOException if a read fails, or a channel ends before its length (the file shrank while being
     *         compared); the message names {@code nameA} or {@code nameB}
     */
    public static long mismatch(FileChannel a, long posA, long lenA, Object nameA,
                                FileChannel b, long posB, long lenB, Object nameB) throws IOException {
        long common = Math.min(lenA, lenB);
        ByteBuffer[] bufs = DirectBuffers.take(common);
        try {
            ByteBuffer ba = bufs[0];
            ByteBuffer bb = bufs[1];
            long done = 0;
            while (done < common) {
                int n = (int) Math.min(ba.capacity(), common - done);
                readFully(a, ba, posA + done, n, lenA, nameA);
                readFully(b, bb, posB + done, n, lenB, nameB);
                int m = ba.mismatch(bb);
                if (m >= 0) {
                    return done + m;
                }
                done += n;
            }
            return lenA == lenB ? -1 : common;
        } finally {
            DirectBuffers.release(bufs);
        }
    }

    /** Reads exactly {@code n} bytes at {@code pos} into {@code buf}, which it leaves flipped for reading. */
    private static void readFully(FileChannel ch, ByteBuffer buf, long pos, int n, long len, Object name)
            throws IOException {
        buf.clear().limit(n);
        while (buf.hasRemaining()) {
            int r = ch.read(buf, pos + buf.position());
            if (r < 0) {
                throw new IOException(name + ": file shrank while being compared: end of file at byte "
                        + (pos + buf.position()) + ", expected " + len);
            }
        }
        buf.flip();
    }
}
