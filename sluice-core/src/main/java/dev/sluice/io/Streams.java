package dev.sluice.io;

import dev.sluice.internal.ChannelCompare;
import dev.sluice.internal.Checks;
import dev.sluice.internal.Defaults;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * Copying and comparing streams, with in-kernel transfers when both ends are files.
 *
 * <p><b>File-backed streams</b> are exact {@link java.io.FileInputStream}s and {@link java.io.FileOutputStream}s
 * (a subclass may override {@code read} or {@code write}, which a kernel copy would bypass), the streams of
 * {@link dev.sluice.file.FastFiles}, and a {@link FastBufferedInputStream} or {@link FastBufferedOutputStream} over
 * one of those. Between two of them {@link #copy} moves the bytes with {@link FileChannel#transferTo}
 * ({@code copy_file_range} or {@code sendfile} on Linux) and never through the Java heap.
 *
 * <p><b>Ownership:</b> no method here closes or flushes a stream it is given; the caller keeps both. Both methods
 * read and write from the streams' current positions.
 *
 * <p><b>Thread-safety:</b> the methods are stateless and safe to call from any thread; the streams themselves must
 * not be used by another thread during the call.
 *
 * <p><b>Bad input:</b> a null stream gets {@link NullPointerException} naming it; a closed stream's own exception
 * ({@code IOException("Stream closed")} for Sluice's streams) passes through, as does any other exception the
 * streams throw. Bytes already written when a copy fails stay written.
 */
public final class Streams {
    private Streams() {}

    /**
     * The buffer {@link #copy} uses when either end is not a file: {@value #COPY_BUFFER_SIZE_BUILT_IN} bytes, or the
     * system property {@code sluice.copy.bufferSize}. Chosen by {@code InterleavedProbe copy}
     * (docs/benchmarks/copy.md; the JMH {@code StreamCopyBench} runs were too noisy on the shared machine): a 64 KiB
     * read/write loop copied a page-cached file with about 11% less CPU than an 8 KiB loop (an eighth of the system
     * calls); the rest is the kernel copying each byte into and out of the array, which no buffer size avoids. Only
     * streams that are not both files take this path.
     */
    public static final int COPY_BUFFER_SIZE =
            Defaults.intProperty("sluice.copy.bufferSize", Streams.COPY_BUFFER_SIZE_BUILT_IN);

    /** The built-in default of {@link #COPY_BUFFER_SIZE}. */
    static final int COPY_BUFFER_SIZE_BUILT_IN = 64 * 1024;

    /** The array size {@link #contentEquals} reads into, per stream, when the streams are not both files. */
    private static final int COMPARE_CHUNK = 64 * 1024;

    /**
     * Copies everything left in {@code in} to {@code out} and returns the number of bytes copied. Between two
     * file-backed streams the copy happens inside the kernel; otherwise through one buffer of
     * {@link #COPY_BUFFER_SIZE} bytes, allocated per call. Does not close or flush either stream (a
     * {@link FastBufferedOutputStream} target is drained of its own buffered bytes first, so order is kept). After
     * the call {@code in} is at its end.
     *
     * @throws NullPointerException if {@code in} or {@code out} is null
     * @throws IOException if reading or writing fails; what was written by then stays written
     */
    public static long copy(InputStream in, OutputStream out) throws IOException {
        Checks.notNull(in, "in");
        Checks.notNull(out, "out");
        if (in instanceof FastBufferedInputStream) {
            // It holds bytes of its own ahead of its source; its transferTo writes them first, then copies in-kernel.
            return in.transferTo(out);
        }
        long total = FileBacked.transfer(in, out);
        // What is left: everything for non-file streams; for files nothing, or what procfs-style files do not
        // report in their size (the read returns -1 at once at a true end of file).
        byte[] buf = new byte[COPY_BUFFER_SIZE];
        int n;
        while ((n = in.read(buf, 0, buf.length)) >= 0) {
            if (n > 0) {
                out.write(buf, 0, n);
                total += n;
            }
        }
        return total;
    }

    /**
     * Returns whether {@code a} and {@code b} hold the same bytes from their current positions to their ends.
     * Returns true at once, without reading, when {@code a == b}. Two file-backed input streams (not wrapped in a
     * {@link FastBufferedInputStream}) are compared by size first, then through two large direct buffers with
     * positional reads; any other streams through two 64 KiB arrays, tolerating short reads. Does not close either
     * stream; where the streams are positioned afterwards is unspecified.
     *
     * @throws NullPointerException if {@code a} or {@code b} is null
     * @throws IOException if reading fails, or a file shrinks while it is compared
     */
    public static boolean contentEquals(InputStream a, InputStream b) throws IOException {
        Checks.notNull(a, "a");
        Checks.notNull(b, "b");
        if (a == b) {
            return true;
        }
        FileChannel ca = FileBacked.channelOf(a);
        FileChannel cb = ca == null ? null : FileBacked.channelOf(b);
        if (ca != null && cb != null) {
            long posA;
            long posB;
            try {
                posA = ca.position();
                posB = cb.position();
            } catch (IOException notSeekable) {
                // A pipe or FIFO behind a FileInputStream or FileChannel: lseek fails with ESPIPE. Compare by reading.
                return compareByReading(a, b);
            }
            long lenA = Math.max(0, ca.size() - posA);
            long lenB = Math.max(0, cb.size() - posB);
            // A size of 0 may be a procfs file whose size the kernel does not know: compare those by reading.
            if (lenA > 0 && lenB > 0) {
                if (lenA != lenB) {
                    return false;
                }
                if (ChannelCompare.mismatch(ca, posA, lenA, "a", cb, posB, lenB, "b") >= 0) {
                    return false;
                }
                ca.position(posA + lenA);
                cb.position(posB + lenB);
                // Fall through: the loop below sees both ends at once, or compares what was appended meanwhile.
            }
        }
        return compareByReading(a, b);
    }

    private static boolean compareByReading(InputStream a, InputStream b) throws IOException {
        byte[] ba = new byte[COMPARE_CHUNK];
        byte[] bb = new byte[COMPARE_CHUNK];
        while (true) {
            int na = fill(a, ba);
            int nb = fill(b, bb);
            if (na != nb || Arrays.mismatch(ba, 0, na, bb, 0, nb) >= 0) {
                return false;
            }
            if (na < ba.length) {
                return true; // both ended at the same byte
            }
        }
    }

    /** Reads into {@code buf} until it is full or {@code in} ends; returns the bytes read. */
    private static int fill(InputStream in, byte[] buf) throws IOException {
        int n = 0;
        while (n < buf.length) {
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        return n;
    }
}
