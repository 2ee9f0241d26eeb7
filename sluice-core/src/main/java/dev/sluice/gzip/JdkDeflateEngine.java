package dev.sluice.gzip;

import java.util.zip.Deflater;

/** {@link DeflateEngine} on the JDK's bundled zlib through {@link Deflater} in raw ({@code nowrap}) mode. */
final class JdkDeflateEngine implements DeflateEngine {
    private final Deflater deflater;

    JdkDeflateEngine(int level, int strategy) {
        deflater = new Deflater(level, true);
        deflater.setStrategy(strategy);
    }

    @Override
    public void setInput(byte[] b, int off, int len) {
        deflater.setInput(b, off, len);
    }

    @Override
    public void setDictionary(byte[] b, int off, int len) {
        deflater.setDictionary(b, off, len);
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
