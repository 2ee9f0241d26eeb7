package dev.sluice.hadoop;

import dev.sluice.gzip.GzipInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.Seekable;

/**
 * A gzip file read from where its stream stands to the end as one multi-member stream through Sluice's
 * {@link GzipInputStream} (every member's CRC32 and ISIZE checked). Used for files whose first member does not say
 * its length (what gzip and pigz write), which cannot be split: the split that starts at 0 reads the whole file and
 * reports positions no further than its end, every other split is {@linkplain #empty empty}. Also the
 * non-splitting {@code createInputStream}. Buffered (by GzipInputStream); not thread-safe; closing closes the file.
 */
final class WholeGzipInputStream extends SplitStream {

    private final InputStream file;
    private GzipInputStream gzip;
    private long decoded;

    private WholeGzipInputStream(InputStream file, long start, long end, boolean empty) throws IOException {
        super(file, start, end);
        this.file = file;
        this.gzip = empty ? null : GzipInputStream.builder().build(file);
    }

    /** The whole file from where {@code file} stands, positions reported up to {@code end} at most. */
    static WholeGzipInputStream whole(InputStream file, long end) throws IOException {
        return new WholeGzipInputStream(file, 0, end, false);
    }

    /** A split that reads nothing. */
    static WholeGzipInputStream empty(InputStream file, long start, long end) throws IOException {
        return new WholeGzipInputStream(file, start, end, true);
    }

    @Override
    int readSome(byte[] b, int off, int len) throws IOException {
        if (gzip == null) {
            return -1;
        }
        int n = gzip.read(b, off, len);
        if (n > 0) {
            decoded += n;
        }
        return n;
    }

    /** Compressed bytes consumed, but never past the split's end: the whole file belongs to this split. */
    @Override
    public long getPos() throws IOException {
        if (gzip == null) {
            return getAdjustedStart();
        }
        long pos = file instanceof Seekable ? ((Seekable) file).getPos() : super.getPos();
        return Math.min(pos, getAdjustedEnd());
    }

    long bytesDecoded() {
        return decoded;
    }

    /** Starts a new gzip stream where the file now stands (after the caller repositioned it). */
    @Override
    public void resetState() throws IOException {
        if (gzip != null) {
            gzip = GzipInputStream.builder().build(file);
        }
    }

    @Override
    void release() throws IOException {
        if (gzip != null) {
            gzip.close(); // closes the file too
        }
    }
}
