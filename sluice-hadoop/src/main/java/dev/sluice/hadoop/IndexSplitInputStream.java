package dev.sluice.hadoop;

import dev.sluice.gzip.GzipIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * The decompressed bytes of one split of any gzip file, read through the file's {@link GzipIndex}, positioned the way
 * Hadoop's {@code CompressedSplitLineReader} needs (the contract {@code MemberSplitInputStream} keeps for members, with
 * checkpoints in their place):
 *
 * <ul>
 *   <li>The points are the start of the data (compressed 0, uncompressed 0) and every checkpoint of the index
 *       (compressed offset: the byte holding its first bit). A split {@code [start, end)} owns the points whose
 *       compressed offset lies in it; the first split also owns the start. Its adjusted start is its first point's
 *       offset; a split that owns no point reads nothing.</li>
 *   <li>The split decodes from its first point (the index's window, {@link GzipIndex#openChannel}) onward, point after
 *       point, for as long as the reader asks: in practice to the next split's first point and the end of that line.
 *       So each split decodes its own points' data plus at most a line and a read buffer, and nothing twice.</li>
 *   <li>{@link #getPos()} is {@code c + 1} while bytes after the point at compressed {@code c} are returned, so it
 *       passes {@code end} exactly when the first byte of the next split's first point is returned; the line reader
 *       finishes that line and stops, the next split throws its first line away. One read never returns bytes of two
 *       points, so a CR that ends a point's bytes ends a read (CompressedSplitLineReader's needAdditionalRecord).</li>
 * </ul>
 *
 * Every split of a file must use the same index, or lines are lost or read twice: {@code IndexedGzipTextInputFormat}
 * records which index file it planned with. An index that does not fit the file is refused by
 * {@link GzipIndex#openChannel} (a {@link java.util.zip.ZipException}) before anything is read; what its own checks
 * let through (a damaged GZIDX or gztool file whose fields pass the range checks) is caught at the latest by the
 * gzip member's CRC32 if the split reads to the member's end. Not buffered beyond the channel's input buffer; not
 * thread-safe; closing closes the gzip file.
 */
final class IndexSplitInputStream extends SplitStream {

    private final SeekableByteChannel channel;
    /** Compressed and uncompressed offsets of the points from this split's first on; {@code uPoint} ends with the size. */
    private final long[] cPoint;
    private final long[] uPoint;
    /** The point whose bytes are being returned, or cPoint.length once the data has ended. */
    private int point;
    /** Uncompressed offset of the next byte to return. */
    private long u;
    private long reported;
    private long decoded;

    private IndexSplitInputStream(SeekableByteChannel channel, long start, long end, long[] cPoint, long[] uPoint)
            throws IOException {
        super(Channels.newInputStream(channel), start, end);
        this.channel = channel;
        this.cPoint = cPoint;
        this.uPoint = uPoint;
    }

    /**
     * The split {@code [start, end)} of {@code gz} (a local file) read through {@code index}.
     *
     * @throws java.util.zip.ZipException if the index does not fit {@code gz} (its size or, in Sluice's format, the
     *     CRC32s of its first and last 64 KiB)
     */
    static IndexSplitInputStream open(GzipIndex index, Path gz, long start, long end) throws IOException {
        Objects.requireNonNull(index, "index");
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("split [" + start + ", " + end + ") is not a range of offsets");
        }
        SeekableByteChannel ch = index.openChannel(gz);
        try {
            long[] c = new long[index.checkpoints() + 1];
            long[] u = new long[c.length + 1];
            int n = 1; // c[0] = u[0] = 0: the start of the data
            for (int i = 0; i < index.checkpoints(); i++) {
                long ui = index.checkpointUncompressedOffset(i);
                if (ui > u[n - 1]) { // a checkpoint at uncompressed 0 adds nothing to the start
                    c[n] = index.checkpointCompressedOffset(i);
                    u[n++] = ui;
                }
            }
            int first = start == 0 ? 0 : firstAtLeast(c, n, start);
            if (first == n || c[first] >= end) {
                IndexSplitInputStream s = new IndexSplitInputStream(ch, start, end, new long[0], new long[] {0});
                s.reported = end;
                return s;
            }
            long size = ch.size();
            long[] cs = Arrays.copyOfRange(c, first, n);
            long[] us = Arrays.copyOfRange(u, first, n + 1);
            us[us.length - 1] = size;
            IndexSplitInputStream s = new IndexSplitInputStream(ch, start, end, cs, us);
            s.setStart(cs[0]);
            s.reported = cs[0];
            s.u = us[0];
            ch.position(us[0]);
            return s;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** The first of {@code c[0..n)} that is at least {@code v}, or {@code n}. */
    private static int firstAtLeast(long[] c, int n, long v) {
        int i = Arrays.binarySearch(c, 0, n, v);
        return i >= 0 ? i : -i - 1;
    }

    @Override
    int readSome(byte[] b, int off, int len) throws IOException {
        while (point < cPoint.length && u >= uPoint[point + 1]) {
            point++; // the next point's bytes (an empty stretch between two points is skipped)
        }
        if (point >= cPoint.length) {
            return -1;
        }
        int want = (int) Math.min(len, uPoint[point + 1] - u);
        int n = channel.read(ByteBuffer.wrap(b, off, want));
        if (n <= 0) {
            throw new java.io.EOFException("gzip data ended at uncompressed " + u + ", before " + uPoint[point + 1]
                    + " where the index says the data goes on");
        }
        u += n;
        decoded += n;
        reported = cPoint[point] + 1;
        return n;
    }

    /** The compressed offset of the point whose bytes were returned last, plus one; see the class comment. */
    @Override
    public long getPos() {
        return reported;
    }

    /** The uncompressed offset where this split's data starts (its first point), or -1 for an empty split. */
    long uncompressedStart() {
        return cPoint.length == 0 ? -1 : uPoint[0];
    }

    /** Bytes decompressed so far. For tests and measurements. */
    long bytesDecoded() {
        return decoded;
    }

    /** Not supported: a split stream is positioned by its start and end only. */
    @Override
    public void resetState() {
        throw new UnsupportedOperationException("a split of an indexed gzip file cannot be reset");
    }
}
