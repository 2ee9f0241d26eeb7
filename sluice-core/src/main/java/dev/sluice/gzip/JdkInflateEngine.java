package dev.sluice.gzip;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** {@link InflateEngine} on the JDK's bundled zlib through {@link Inflater} in raw ({@code nowrap}) mode. */
final class JdkInflateEngine implements InflateEngine {
    private final Inflater inflater = new Inflater(true);

    @Override
    public void setInput(byte[] b, int off, int len) {
        inflater.setInput(b, off, len);
    }

    @Override
    public int inflate(byte[] b, int off, int len) throws DataFormatException {
        int n = inflater.inflate(b, off, len);
        if (n == 0 && inflater.needsDictionary()) {
            // Impossible in raw mode (a preset dictionary is announced only by a zlib header), but never loop on it.
            throw new DataFormatException("deflate stream asks for a preset dictionary");
        }
        return n;
    }

    /** zlib writes into {@code dst} itself, a direct buffer too ({@link Inflater#inflate(java.nio.ByteBuffer)}). */
    @Override
    public int inflate(java.nio.ByteBuffer dst) throws DataFormatException {
        int n = inflater.inflate(dst);
        if (n == 0 && inflater.needsDictionary()) {
            throw new DataFormatException("deflate stream asks for a preset dictionary");
        }
        return n;
    }

    @Override
    public void setDictionary(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len > MAX_DICTIONARY) {
            throw new IllegalArgumentException("dictionary of " + len + " bytes, at most " + MAX_DICTIONARY);
        }
        inflater.setDictionary(b, off, len);
    }

    @Override
    public boolean finished() {
        return inflater.finished();
    }

    @Override
    public boolean needsInput() {
        return inflater.needsInput();
    }

    @Override
    public int remaining() {
        return inflater.getRemaining();
    }

    @Override
    public void reset() {
        inflater.reset();
    }

    @Override
    public void end() {
        inflater.end();
    }
}
