package dev.sluice.hadoop;

import dev.sluice.gzip.GzipHeader;
import dev.sluice.gzip.ParallelGzipOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.hadoop.io.compress.CompressionOutputStream;

/**
 * Writes independent gzip members with Sluice's 'SL' subfield (compressed and uncompressed size), one per block of
 * {@code blockSize} input bytes, so that the codec can split what it wrote; every gzip reader reads
 * it as ordinary multi-member gzip. The members are sluice-core's
 * {@link ParallelGzipOutputStream.Format#INDEPENDENT_MEMBERS} (MTIME 0, OS 255, through the same deflate engines as
 * {@code sluice gzip}), compressed on one worker thread beside the caller's.
 *
 * <p>Hadoop's {@link #finish()} ends a compressed stream and lets writing go on after it (SequenceFile's block
 * compression calls it per block): here it is core's {@link ParallelGzipOutputStream#flush()}, which in this format
 * writes the partial block as a short member of its own. Core's stream is made at the first write, so that a stream
 * written nothing writes nothing.
 *
 * <p>Buffered by whole blocks; {@link #finish()} writes the partial block as a member and flushes the sink, and
 * {@link #flush()} flushes the sink only. Not thread-safe; {@link #close()} finishes, frees the worker and its
 * compressor, and closes the sink.
 */
final class MemberOutputStream extends CompressionOutputStream {

    private final ParallelGzipOutputStream.Builder members;
    /** Core's stream; null before the first write. */
    private ParallelGzipOutputStream current;
    private boolean closed;

    MemberOutputStream(OutputStream out, int level, int blockSize) {
        super(Objects.requireNonNull(out, "out"));
        this.members = ParallelGzipOutputStream.builder().format(ParallelGzipOutputStream.Format.INDEPENDENT_MEMBERS)
                .level(level).blockSize(blockSize).threads(1)
                .header(GzipHeader.builder().os(GzipHeader.OS_UNKNOWN).build());
    }

    @Override
    public void write(int b) throws IOException {
        stream().write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, Objects.requireNonNull(b, "b").length);
        if (len > 0) {
            stream().write(b, off, len);
        }
    }

    private ParallelGzipOutputStream stream() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
        if (current == null) {
            current = members.build(out);
        }
        return current;
    }

    /** Writes the buffered bytes as one member (nothing if there are none); does not close the sink. */
    @Override
    public void finish() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
        if (current != null) {
            current.flush();
        }
    }

    /** Members are independent: there is no state to reset beyond what {@link #finish()} writes out. */
    @Override
    public void resetState() {}

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (current != null) {
            current.close(); // the last member, the worker and compressor freed, the sink closed, even on failure
        } else {
            out.close();
        }
    }
}
