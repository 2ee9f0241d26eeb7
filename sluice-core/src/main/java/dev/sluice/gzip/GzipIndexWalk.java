package dev.sluice.gzip;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;

/**
 * Builds the checkpoints of a {@link GzipIndex} for any gzip file as a by-product of the speculative parallel decoder
 * (issue 32 item 3): a {@link GzipInputStream} decodes the file through {@link SpeculativeReader}, whose ordered walk
 * tells this sink, on the caller's thread, where each member starts and every true block end of the output it
 * confirms ({@link SpeculativeReader.Checkpoints}); the checkpoints are picked from those ends by
 * {@link GzipIndexTable}'s spacing rule (the first block end at least {@code spacing} bytes after the previous
 * checkpoint or member start), so the spacing keeps its meaning whatever the chunk size, and the 32 KiB window of
 * each is copied from the decoded bytes as the caller reads them (the walk runs ahead of the reads, so a checkpoint is known before
 * its bytes come). Nothing is written out; the stream checks every CRC32, ISIZE and header, and its exceptions are
 * the build's: a corrupt file is a {@link java.util.zip.ZipException}, a truncated one an
 * {@link java.io.EOFException}, as with the scanner's build. {@link GzipIndex.Recorder} uses the same walk while a
 * caller reads the stream (gunzip writing an index as it decodes). Data after the last member ends the index as it ends the
 * scanner's (zeros and garbage alike).
 *
 * <p>Where the walk hands the rest of a member to the stream's engine (a block Java refuses, or one longer than two
 * chunks: rare, see {@link SpeculativeReader}), that stretch has no block ends, so no checkpoints: the index is still
 * exact, with fewer entry points there. Memory: the decoder's, plus the windows (32 KiB per checkpoint). One thread
 * calls it (the stream's caller), so nothing here is synchronized.
 */
final class GzipIndexWalk implements SpeculativeReader.Checkpoints {
    private static final int WINDOW = GzipIndexBuild.WINDOW;

    // The walk's side: the output it has confirmed, and the points it picked.
    private long walkU;
    private final GzipIndexTable table;

    // The reader's side: the output read so far, its last 32 KiB, and the windows of the checkpoints passed.
    private long readU;
    private final byte[] tail = new byte[WINDOW];
    private int captured;
    /** True once the stream returned its end (-1): every byte went through {@link #read}. */
    private boolean ended;

    GzipIndexWalk(long spacing) {
        this.table = new GzipIndexTable(spacing);
    }

    /**
     * Decodes the {@code size}-byte gzip file {@code ch} on {@code threads} workers in {@code chunk}-byte speculative
     * chunks and returns its index. Leaves {@code ch} open.
     */
    static GzipIndex build(FileChannel ch, long size, long spacing, int threads, int chunk) throws IOException {
        GzipIndexWalk w = new GzipIndexWalk(spacing);
        try (GzipInputStream in = GzipInputStream.builder().threads(threads).ignoreTrailingGarbage(true)
                .speculativeChunk(chunk).walk(w).build(unclosed(ch))) {
            byte[] b = new byte[1 << 20];
            while (in.read(b, 0, b.length) >= 0) {
                // the stream hands every byte it returns to read(b, off, n) below
            }
        }
        return w.index(ch, size);
    }

    /**
     * The index of the file {@code ch} ({@code size} bytes) whose decoded bytes all went through {@link #read}.
     *
     * @throws java.io.EOFException if the walk saw no member (an empty file)
     * @throws IllegalStateException if the stream did not reach its end, or its reads fell short of the walk
     */
    GzipIndex index(FileChannel ch, long size) throws IOException {
        if (!ended) {
            throw new IllegalStateException("the stream was not read to its end");
        }
        if (table.members() == 0) {
            throw new java.io.EOFException("empty file: expected a gzip header at offset 0");
        }
        if (readU != walkU || captured != table.checkpoints()) {
            throw new IllegalStateException("gzip index: the walk confirmed " + walkU + " bytes and "
                    + table.checkpoints()
                    + " checkpoints, the reads " + readU + " and " + captured);
        }
        return table.index(ch, size, readU);
    }

    /** The file from offset 0; closing the stream leaves the channel open for the build's last checks. */
    private static InputStream unclosed(FileChannel ch) throws IOException {
        return new FilterInputStream(Channels.newInputStream(ch.position(0))) {
            @Override
            public void close() {}
        };
    }

    /** The stream returned its end. */
    void end() {
        ended = true;
    }

    @Override
    public void member(long header, long deflate) {
        table.member(header, deflate, walkU);
    }

    @Override
    public void stretch(long baseBit, long[] ends, int count, int n) {
        for (int i = 0; i < count; i++) {
            long u = walkU + ends[2 * i + 1];
            if (table.due(u)) {
                table.checkpoint(baseBit + ends[2 * i], u, null);
            }
        }
        walkU += n;
    }

    /**
     * The next {@code n} decoded bytes, {@code b[off..off+n)}, as the stream returns them to its caller: the windows
     * of the checkpoints among them.
     */
    void read(byte[] b, int off, int n) {
        long end = readU + n;
        for (; captured < table.checkpoints() && table.cpU(captured) <= end; captured++) {
            long cpU = table.cpU(captured);
            int at = (int) (cpU - readU);
            int len = (int) Math.min(WINDOW, cpU - table.memU(table.cpMember(captured)));
            int fromB = Math.min(len, at);
            byte[] w = new byte[len];
            System.arraycopy(tail, WINDOW - (len - fromB), w, 0, len - fromB);
            System.arraycopy(b, off + at - fromB, w, len - fromB, fromB);
            table.window(captured, w);
        }
        if (n >= WINDOW) {
            System.arraycopy(b, off + n - WINDOW, tail, 0, WINDOW);
        } else {
            System.arraycopy(tail, n, tail, 0, WINDOW - n);
            System.arraycopy(b, off, tail, WINDOW - n, n);
        }
        readU = end;
    }
}
