package dev.sluice.hadoop;

import dev.sluice.internal.Checks;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.apache.hadoop.io.compress.CompressionOutputStream;

/**
 * Writes independent gzip members with Sluice's 'SL' subfield (compressed and uncompressed size), one per block of
 * {@code blockSize} input bytes, so that {@link SplittableGzipCodec} can split what it wrote; every gzip reader reads
 * it as ordinary multi-member gzip. One thread. Each member: header with MTIME 0, OS 255 and the 20-byte extra field,
 * raw deflate with no dictionary, CRC32, ISIZE.
 *
 * <p>Buffered by whole blocks; {@link #finish()} writes the partial block as a member (so a {@code finish} in the
 * middle of the data only makes one short member) and {@link #flush()} flushes the sink only. Not thread-safe;
 * {@link #close()} finishes and closes the sink.
 */
final class MemberOutputStream extends CompressionOutputStream {

    /** Bytes of header before the deflate data: fixed part, XLEN, and the 'SL' subfield (4 + 16). */
    static final int HEADER = MemberHeaders.FIXED + 20;

    private final Deflater deflater;
    private final CRC32 crc = new CRC32();
    private final byte[] block;
    private int blockLen;
    private byte[] compressed;
    private boolean closed;

    MemberOutputStream(OutputStream out, int level, int blockSize) {
        super(Checks.notNull(out, "out"));
        this.deflater = new Deflater(level, true);
        this.block = new byte[blockSize];
        this.compressed = new byte[HEADER + blockSize + blockSize / 8 + 64];
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Checks.checkRange(Checks.notNull(b, "b").length, off, len);
        if (closed) {
            throw new IOException("Stream closed");
        }
        while (len > 0) {
            int n = Math.min(len, block.length - blockLen);
            System.arraycopy(b, off, block, blockLen, n);
            blockLen += n;
            off += n;
            len -= n;
            if (blockLen == block.length) {
                writeMember();
            }
        }
    }

    /** Writes the buffered bytes as one member (nothing if there are none); does not close the sink. */
    @Override
    public void finish() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
        if (blockLen > 0) {
            writeMember();
        }
    }

    /** Members are independent: there is no state to reset beyond what {@link #finish()} writes out. */
    @Override
    public void resetState() {}

    private void writeMember() throws IOException {
        crc.reset();
        crc.update(block, 0, blockLen);
        deflater.reset();
        deflater.setInput(block, 0, blockLen);
        deflater.finish();
        int len = HEADER;
        while (!deflater.finished()) {
            if (len == compressed.length) {
                compressed = Arrays.copyOf(compressed, compressed.length * 2);
            }
            len += deflater.deflate(compressed, len, compressed.length - len);
        }
        long total = len + 8L;
        byte[] h = compressed;
        h[0] = 0x1f;
        h[1] = (byte) 0x8b;
        h[2] = 8;
        h[3] = 4; // FEXTRA
        Arrays.fill(h, 4, 8, (byte) 0); // MTIME 0
        h[8] = 0;
        h[9] = (byte) 255; // OS unknown
        h[10] = 20;
        h[11] = 0;
        h[12] = 'S';
        h[13] = 'L';
        h[14] = 16;
        h[15] = 0;
        putLong(h, 16, total);
        putLong(h, 24, blockLen);
        out.write(compressed, 0, len);
        byte[] trailer = new byte[8];
        putInt(trailer, 0, (int) crc.getValue());
        putInt(trailer, 4, blockLen);
        out.write(trailer);
        blockLen = 0;
    }

    private static void putLong(byte[] b, int off, long v) {
        putInt(b, off, (int) v);
        putInt(b, off + 4, (int) (v >>> 32));
    }

    private static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            super.close(); // finish(), then close the sink
        } finally {
            closed = true;
            deflater.end();
        }
    }
}
