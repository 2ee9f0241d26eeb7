package dev.sluice.gzip;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * gztool's index files ({@code FILE.gzi}, from {@code gztool -i}), read into a {@link GzipIndex}, and written from one
 * (version 0, without line numbers, which gztool 1.5 uses as it uses its own). Stateless.
 *
 * <p>The format, from gztool.c ({@code serialize_index_to_file}, {@code deserialize_index_from_file}; versions 1.4
 * to 1.8 write the same), all integers big-endian: u64 0; "gzipindx" (version 0) or "gzipindX" (version 1, with line
 * numbers); version 1 only: u32 line-ending format; u64 point count; u64 the same count again once the index is
 * complete (a growing index has 0 and 2^64-1 here); the points; u64 uncompressed size; version 1 only: u64 line
 * count. A point is u64 uncompressed offset, u64 offset of its first whole compressed byte, u32 bits of the byte
 * before that which still belong to it (0..7), u32 length of its window, the window (zlib-wrapped deflate of up to
 * 32 KiB of the output before the point, counted from the start of its member), and in version 1 u64 its line
 * number.
 *
 * <p>gztool does not record the gzip file's size, nor a point at every member start: a point without a window is a
 * member start (nothing before it in its member), and the other members are found while reading (see
 * {@link GzipIndex#allMembers}). The points are checked here against each other and the sizes they imply, and
 * against the gzip file when it is opened ({@link GzipIndexPoints}).
 */
final class GzipIndexGztool {
    private GzipIndexGztool() {}

    private static final byte[] V0 = "gzipindx".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] V1 = "gzipindX".getBytes(StandardCharsets.US_ASCII);
    private static final int WINDOW = GzipIndexBuild.WINDOW;

    /** True if {@code b} starts as gztool's index files do (eight zero bytes, then its magic). */
    static boolean matches(byte[] b) {
        return b.length >= 16 && Arrays.equals(b, 0, 8, new byte[8], 0, 8)
                && (Arrays.equals(b, 8, 16, V0, 0, 8) || Arrays.equals(b, 8, 16, V1, 0, 8));
    }

    /**
     * Reads gztool's index file {@code bytes}.
     *
     * @throws ZipException if a field is out of range or a point breaks {@link GzipIndexPoints}' rules, naming it
     * @throws EOFException if the file is cut short
     */
    static GzipIndex read(byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes); // big-endian, as gztool writes
        b.position(16);
        boolean lines = bytes[15] == 'X';
        try {
            if (lines) {
                b.getInt();
            }
            long have = b.getLong();
            long size = b.getLong();
            if (have != size) {
                throw new ZipException("gztool index incomplete (" + Long.toUnsignedString(have) + " points of "
                        + Long.toUnsignedString(size) + "): complete it with gztool -i");
            }
            int pointBytes = lines ? 32 : 24;
            int points = (int) field(have, 1, b.remaining() / pointBytes, "point count");
            long[] out = new long[points];
            long[] in = new long[points];
            int[] bits = new int[points];
            byte[][] windows = new byte[points][];
            int withWindow = 0;
            Inflater inf = new Inflater();
            try {
                for (int i = 0; i < points; i++) {
                    out[i] = field(b.getLong(), 0, Long.MAX_VALUE, "uncompressed offset of point " + i);
                    in[i] = field(b.getLong(), 1, GzipIndexPoints.MAX_COMPRESSED_SIZE,
                            "compressed offset of point " + i);
                    bits[i] = (int) field(b.getInt(), 0, 7, "bits of point " + i);
                    int stored = (int) field(b.getInt() & 0xffffffffL, 0, b.remaining(), "window length of point " + i);
                    windows[i] = stored == 0 ? new byte[0] : window(inf, bytes, b.position(), stored, i);
                    b.position(b.position() + stored);
                    withWindow += stored == 0 ? 0 : 1;
                    if (lines) {
                        b.getLong();
                    }
                }
            } finally {
                inf.end();
            }
            long usize = b.getLong();
            if (lines) {
                b.getLong();
            }
            if (b.hasRemaining()) {
                throw new ZipException("gztool index has " + b.remaining() + " bytes after its end");
            }
            return index(out, in, bits, windows, withWindow, usize == 0 && out[points - 1] > 0 ? -1 : usize);
        } catch (BufferUnderflowException e) {
            throw new EOFException("gztool index cut short at byte " + b.position());
        }
    }

    /** Member starts are the points without a window; every other point is a checkpoint in the last member before. */
    private static GzipIndex index(long[] out, long[] in, int[] bits, byte[][] windows, int withWindow, long usize)
            throws ZipException {
        int members = out.length - withWindow;
        long[] mh = new long[members];
        long[] md = new long[members];
        long[] mu = new long[members];
        long[] cb = new long[withWindow];
        long[] cu = new long[withWindow];
        int[] cm = new int[withWindow];
        byte[][] cw = new byte[withWindow][];
        int m = 0;
        int c = 0;
        for (int i = 0; i < out.length; i++) {
            if (windows[i].length == 0) {
                if (bits[i] != 0) {
                    throw new ZipException("gztool index point " + i + " has no window but starts " + bits[i]
                            + " bits into a byte: it is no member start");
                }
                mh[m] = -1;
                md[m] = in[i];
                mu[m] = out[i];
                m++;
            } else {
                if (m == 0) {
                    throw new ZipException("gztool index point " + i + " comes before any member start");
                }
                cb[c] = in[i] * 8 - bits[i];
                cu[c] = out[i];
                cm[c] = m - 1;
                cw[c] = windows[i];
                c++;
            }
        }
        int[] wl = new int[withWindow];
        for (int i = 0; i < wl.length; i++) {
            wl[i] = cw[i].length;
        }
        GzipIndexPoints.check(-1, usize, mh, md, mu, cb, cu, cm, wl, false);
        return new GzipIndex(-1, usize, GzipIndex.DEFAULT_SPACING, mh, md, mu, cb, cu, cm, Window.all(cw), null, false);
    }

    /** Inflates a point's zlib-wrapped window, refusing more than 32 KiB or a stream that does not end there. */
    private static byte[] window(Inflater inf, byte[] bytes, int at, int stored, int point) throws ZipException {
        inf.reset();
        inf.setInput(bytes, at, stored);
        byte[] w = new byte[WINDOW + 1];
        int n = 0;
        try {
            while (n < w.length && !inf.finished() && !inf.needsInput() && !inf.needsDictionary()) {
                n += inf.inflate(w, n, w.length - n);
            }
        } catch (DataFormatException e) {
            throw new ZipException("corrupt window of gztool index point " + point + ": " + e.getMessage());
        }
        if (!inf.finished() || n > WINDOW || inf.getRemaining() != 0) {
            throw new ZipException("window of gztool index point " + point + " is not one zlib stream of at most "
                    + WINDOW + " bytes in its " + stored);
        }
        return Arrays.copyOf(w, n);
    }

    /**
     * gztool's version-0 index of {@code ix}: a point without a window at every member start, one with its window
     * (zlib-wrapped, as gztool stores them) at every checkpoint, in file order.
     *
     * @throws IllegalStateException if {@code ix} does not know its uncompressed size (gztool's tail needs it)
     */
    static byte[] write(GzipIndex ix) throws ZipException {
        if (ix.uncompressedSize < 0) {
            throw new IllegalStateException("an index without the uncompressed size cannot be saved in gztool's"
                    + " format");
        }
        int members = ix.memU.length;
        int cps = ix.cpU.length;
        int windows = cps * GzipIndexBuild.WINDOW / 3;
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + 24 * (members + cps) + windows);
        ByteBuffer b = ByteBuffer.allocate(32);
        out.writeBytes(new byte[8]);
        out.writeBytes(V0);
        out.write(b.clear().putLong(members + cps).putLong(members + cps).array(), 0, 16);
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION);
        try {
            int m = 0;
            int c = 0;
            while (m < members || c < cps) {
                b.clear();
                if (c >= cps || m < members && ix.memDeflate[m] * 8 <= ix.cpBit[c]) {
                    out.write(b.putLong(ix.memU[m]).putLong(ix.memDeflate[m]).putInt(0).putInt(0).array(), 0, 24);
                    m++;
                    continue;
                }
                byte[] w = zlib(d, ix.windows[c].bytes());
                long bit = ix.cpBit[c];
                b.putLong(ix.cpU[c]).putLong((bit + 7) >>> 3).putInt((int) ((8 - (bit & 7)) & 7)).putInt(w.length);
                out.write(b.array(), 0, 24);
                out.writeBytes(w);
                c++;
            }
        } finally {
            d.end();
        }
        out.write(b.clear().putLong(ix.uncompressedSize).array(), 0, 8);
        return out.toByteArray();
    }

    private static byte[] zlib(Deflater d, byte[] window) {
        d.reset();
        d.setInput(window);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream(window.length / 2 + 64);
        byte[] buf = new byte[16 * 1024];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        return out.toByteArray();
    }

    private static long field(long v, long min, long max, String name) throws ZipException {
        if (v < min || v > max) {
            throw new ZipException("gztool index field " + name + ": " + Long.toUnsignedString(v) + " not in ["
                    + min + ", " + max + "]");
        }
        return v;
    }
}
