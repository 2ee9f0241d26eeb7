package dev.sluice.gzip;

import java.nio.ByteBuffer;
import java.util.zip.Deflater;

/** {@link DeflateEngine} on the JDK's bundled zlib through {@link Deflater} in raw ({@code nowrap}) mode. */
final class JdkDeflateEngine implements DeflateEngine {
    private static final byte[] EMPTY = new byte[0];

    private final Deflater deflater;

    JdkDeflateEngine(int level, int strategy) {
        deflater = new Deflater(level, true);
        if (strategy != Deflater.DEFAULT_STRATEGY) {
            deflater.setStrategy(strategy);
            // Deflater applies a new strategy lazily: its next deflate call only runs zlib's deflateParams and
            // compresses nothing, whatever input it was given. A caller that takes "no output and room to spare"
            // to mean "flush complete" (as SYNC_FLUSH loops do) would then drop that call's input. Apply the
            // strategy now, on an empty stream, where deflateParams has nothing to compress; reset() keeps it.
            deflater.deflate(EMPTY, 0, 0, Deflater.NO_FLUSH);
        }
    }

    @Override
    public void setInput(byte[] b, int off, int len) {
        deflater.setInput(b, off, len);
    }

    /** zlib reads {@code b} where it is, a direct buffer too; a duplicate takes the position Deflater advances. */
    @Override
    public void setInput(ByteBuffer b) {
        deflater.setInput(b.duplicate());
    }

    @Override
    public void setDictionary(byte[] b, int off, int len) {
        deflater.setDictionary(b, off, len);
    }

    @Override
    public void setDictionary(ByteBuffer b) {
        deflater.setDictionary(b.duplicate());
    }

    @Override
    public int deflate(byte[] b, int off, int len, int flush) {
        return deflater.deflate(b, off, len, flush);
    }

    @Override
    public void finish() {
        deflater.finish();
    }

    @Override
    public boolean finished() {
        return deflater.finished();
    }

    @Override
    public boolean needsInput() {
        return deflater.needsInput();
    }

    @Override
    public void reset() {
        deflater.reset();
    }

    @Override
    public void end() {
        deflater.end();
    }
}
