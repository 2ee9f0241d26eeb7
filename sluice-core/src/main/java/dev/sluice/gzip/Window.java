package dev.sluice.gzip;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.ZipException;

/**
 * A checkpoint's window: the up to 32 KiB of output before it, which decoding from the checkpoint needs as its
 * dictionary. Held as given (an index just built, indexed_gzip's and gztool's files), or as the raw deflate data that
 * Sluice's index file stores, decoded each time a read starts at the checkpoint, on the thread that reads. A loaded
 * index then holds about a fifth of the memory and decodes only the windows it uses: at 1.1 GB and the default
 * spacing, a gunzip through the index decodes 268 windows on its workers instead of 1,072 on the caller's thread
 * before the first piece (docs/benchmarks/gzip.md, 2026-11-27). Immutable and thread-safe.
 */
final class Window {
    private final byte[] bytes;
    private final byte[] stored;
    private final int storedOff;
    private final int storedLen;
    private final int length;
    /** The checkpoint's number in its index, for messages. */
    private final int checkpoint;

    private Window(byte[] bytes, byte[] stored, int storedOff, int storedLen, int length, int checkpoint) {
        this.bytes = bytes;
        this.stored = stored;
        this.storedOff = storedOff;
        this.storedLen = storedLen;
        this.length = length;
        this.checkpoint = checkpoint;
    }

    /** The window {@code bytes}, held as they are (not copied: the caller gives them up). */
    static Window of(byte[] bytes) {
        return new Window(bytes, null, 0, 0, bytes.length, -1);
    }

    /** Windows of {@code bytes}, each held as it is. */
    static Window[] all(byte[][] bytes) {
        Window[] w = new Window[bytes.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = of(bytes[i]);
        }
        return w;
    }

    /**
     * The window of checkpoint {@code checkpoint} that {@code file[off..off+len)} stores as raw deflate data of
     * {@code length} bytes (at most 32 KiB, checked by {@link GzipIndexPoints}); the file's array is kept, not copied.
     */
    static Window stored(byte[] file, int off, int len, int length, int checkpoint) {
        return new Window(null, file, off, len, length, checkpoint);
    }

    /** The window's length in bytes. */
    int length() {
        return length;
    }

    /** The raw deflate data of the window as Sluice's index file stores it, or null if it is held decoded. */
    byte[] storedBytes() {
        return stored == null ? null : Arrays.copyOfRange(stored, storedOff, storedOff + storedLen);
    }

    /**
     * The window's bytes: the array it was made of (which no one may change), or a new one decoded from the stored
     * data.
     *
     * @throws ZipException if the stored data is not raw deflate data of exactly {@link #length()} bytes
     */
    byte[] bytes() throws ZipException {
        if (bytes != null) {
            return bytes;
        }
        byte[] b = new byte[length];
        copyTo(b);
        return b;
    }

    /**
     * Writes the window into {@code into[0..length())} (which must have room) and returns {@link #length()}; a stored
     * window is decoded by a JDK {@link java.util.zip.Inflater} made for the call.
     *
     * @throws ZipException if the stored data is not raw deflate data of exactly {@link #length()} bytes
     */
    int copyTo(byte[] into) throws ZipException {
        if (bytes != null) {
            return copyTo(into, null);
        }
        InflateEngine e = new JdkInflateEngine();
        try {
            return copyTo(into, e);
        } finally {
            e.end();
        }
    }

    /**
     * As {@link #copyTo(byte[])}, decoding a stored window with {@code e}, a worker's own engine (ISA-L decodes a
     * window several times faster than zlib, and needs no new native state): {@code e} is reset first and holds
     * the window's stream afterwards, so the caller resets it again before its own.
     */
    int copyTo(byte[] into, InflateEngine e) throws ZipException {
        if (bytes != null) {
            System.arraycopy(bytes, 0, into, 0, length);
            return length;
        }
        try {
            e.reset();
            e.setInput(stored, storedOff, storedLen);
            int n = 0;
            for (int stalls = 0; n < length && !e.finished() && !e.needsInput() && stalls <= 2; ) {
                int k = e.inflate(into, n, length - n);
                n += k;
                stalls = k == 0 ? stalls + 1 : 0; // never spin on an engine that makes no progress
            }
            if (n != length || e.remaining() != 0 && !e.finished()) {
                throw new ZipException("window of checkpoint " + checkpoint + " in the index decodes to " + n
                        + " bytes, " + length + " expected");
            }
            return n;
        } catch (DataFormatException x) {
            throw new ZipException("corrupt window data of checkpoint " + checkpoint + " in the index: "
                    + x.getMessage());
        }
    }
}
