package dev.sluice.gzip;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.ZipException;

/**
 * Reads and writes {@link GzipIndex} files. Stateless.
 *
 * <p>Sluice's format, all integers little-endian: "SLUICEGZ", u32 version (1), u32 flags (0, or 1 if the member
 * table lists only some members, the others found from their headers), u64 compressed size (-1 if unknown),
 * u64 uncompressed size (-1 if unknown), u64 spacing, u32 check length, u32 CRC32 of the gzip file's first and u32 of its last
 * check-length bytes, u32 member count, u32 checkpoint count; members (u64 header offset, u64 deflate offset, u64
 * uncompressed offset); checkpoints (u64 bit offset, u64 uncompressed offset, u32 member, u32 window length, u32
 * stored length); the windows, each raw deflate of its stored length; u32 CRC32 of everything before it.
 *
 * <p>indexed_gzip's GZIDX version 1 (facts from its zran.c, little-endian as written on x86): "GZIDX", u8 version,
 * u8 flags, u64 compressed size, u64 uncompressed size (0 if unknown), u32 spacing, u32 window size, u32 point count;
 * points (u64 offset of the first whole byte, u64 uncompressed offset, u8 bits of the byte before that still belong
 * to the point, u8 1 if it has a window); then the windows of the points that have one, window-size bytes each.
 * Points without a window are member starts, at the first byte of the member's deflate data.
 */
final class GzipIndexFiles {
    private GzipIndexFiles() {}

    private static final byte[] SLUICE_MAGIC = "SLUICEGZ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] IGZ_MAGIC = "GZIDX".getBytes(StandardCharsets.US_ASCII);
    private static final int WINDOW = GzipIndexBuild.WINDOW;
    /** The level Sluice's format compresses windows at (see {@link #sluice}). */
    private static final int WINDOW_LEVEL = 1;
    /** Sluice's format, flag 1: the member table lists only some members (an imported gztool index). */
    private static final int MEMBERS_FOLLOW = 1;

    static void save(GzipIndex ix, Path file, GzipIndex.Format format) throws IOException {
        byte[] bytes = format == GzipIndex.Format.SLUICE ? sluice(ix)
                : format == GzipIndex.Format.GZTOOL ? GzipIndexGztool.write(ix) : indexedGzip(ix);
        Files.write(file, bytes);
    }

    static GzipIndex load(Path file) throws IOException {
        byte[] b;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE - 16) {
                throw new ZipException("index file too large: " + size + " bytes");
            }
            ByteBuffer bb = ByteBuffer.allocate((int) size);
            GzipIndexBuild.readAt(ch, bb, 0);
            b = bb.array();
        }
        if (startsWith(b, SLUICE_MAGIC)) {
            return readSluice(b);
        }
        if (startsWith(b, IGZ_MAGIC)) {
            return readIndexedGzip(b);
        }
        if (GzipIndexGztool.matches(b)) {
            return GzipIndexGztool.read(b);
        }
        throw new ZipException("not a gzip index: magic " + hex(Arrays.copyOf(b, Math.min(16, b.length)))
                + " is neither SLUICEGZ nor GZIDX nor gztool's gzipindx");
    }

    private static boolean startsWith(byte[] b, byte[] magic) {
        return b.length >= magic.length && Arrays.equals(b, 0, magic.length, magic, 0, magic.length);
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder("0x");
        for (byte x : b) {
            s.append(String.format("%02x", x));
        }
        return s.toString();
    }

    // ---- Sluice ----

    private static byte[] sluice(GzipIndex ix) throws ZipException {
        byte[][] stored = new byte[ix.windows.length][];
        // Level 1 of the stream engine (ISA-L where bound, else zlib): any inflater reads a window back, and at
        // 1.1 GB zlib's level 6 took 1.10 s of a 4-5 s `sluice index` (ISA-L's level 1: 0.15 s) for an index file of
        // 6.72 MB instead of 7.83 MB (docs/benchmarks/gzip.md, index section).
        DeflateEngine d = GzipEngines.streamDeflater(WINDOW_LEVEL, Deflater.DEFAULT_STRATEGY);
        long total = 0;
        try {
            byte[] buf = new byte[WINDOW + WINDOW / 8 + 64];
            for (int i = 0; i < stored.length; i++) {
                stored[i] = ix.windows[i].storedBytes();
                if (stored[i] == null) {
                    d.reset();
                    d.setInput(ix.windows[i].bytes(), 0, ix.windows[i].length());
                    d.finish();
                    ByteArrayOutputStream out = new ByteArrayOutputStream(WINDOW / 2);
                    for (int stalls = 0; !d.finished(); ) {
                        int n = d.deflate(buf, 0, buf.length, DeflateEngine.NO_FLUSH);
                        out.write(buf, 0, n);
                        if (n == 0 && ++stalls > 2) {
                            throw new IllegalStateException("window compression made no progress");
                        }
                    }
                    stored[i] = out.toByteArray();
                }
                total += stored[i].length;
            }
        } finally {
            d.end();
        }
        int members = ix.memU.length;
        int cps = ix.cpU.length;
        ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(64 + 24L * members + 28L * cps + total + 4))
                .order(ByteOrder.LITTLE_ENDIAN);
        b.put(SLUICE_MAGIC).putInt(1).putInt(ix.allMembers ? 0 : MEMBERS_FOLLOW).putLong(ix.compressedSize)
                .putLong(ix.uncompressedSize).putLong(ix.spacing);
        int[] check = ix.fileCheck != null ? ix.fileCheck : new int[2];
        b.putInt(ix.fileCheck != null ? GzipIndex.CHECK_BYTES : 0).putInt(check[0]).putInt(check[1]);
        b.putInt(members).putInt(cps);
        for (int i = 0; i < members; i++) {
            b.putLong(ix.memHeader[i]).putLong(ix.memDeflate[i]).putLong(ix.memU[i]);
        }
        for (int i = 0; i < cps; i++) {
            b.putLong(ix.cpBit[i]).putLong(ix.cpU[i]).putInt(ix.cpMember[i]).putInt(ix.windows[i].length())
                    .putInt(stored[i].length);
        }
        for (byte[] s : stored) {
            b.put(s);
        }
        CRC32 crc = new CRC32();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue());
        return Arrays.copyOf(b.array(), b.position());
    }

    private static GzipIndex readSluice(byte[] bytes) throws IOException {
        if (bytes.length < 68) {
            throw new EOFException("Sluice gzip index cut short: " + bytes.length + " bytes");
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int stored = b.getInt(bytes.length - 4);
        if (stored != (int) crc.getValue()) {
            throw new ZipException(String.format("index CRC32: actual 0x%08x != expected 0x%08x",
                    (int) crc.getValue(), stored));
        }
        b.limit(bytes.length - 4).position(8);
        try {
            int version = b.getInt();
            if (version != 1) {
                throw new ZipException("index version " + version + " not supported (1 expected)");
            }
            int flags = (int) field(b.getInt(), 0, MEMBERS_FOLLOW, "flags");
            long csize = field(b.getLong(), -1, Long.MAX_VALUE, "compressed size");
            long usize = field(b.getLong(), -1, Long.MAX_VALUE, "uncompressed size");
            long spacing = field(b.getLong(), 1, Long.MAX_VALUE, "spacing");
            int checkLen = b.getInt();
            int[] check = {b.getInt(), b.getInt()};
            if (checkLen != 0 && checkLen != GzipIndex.CHECK_BYTES) {
                throw new ZipException("index check length " + checkLen + " != " + GzipIndex.CHECK_BYTES);
            }
            int members = (int) field(b.getInt(), 0, b.remaining() / 24, "member count");
            int cps = (int) field(b.getInt(), 0, (b.remaining() - 24L * members) / 28, "checkpoint count");
            long[] mh = new long[members];
            long[] md = new long[members];
            long[] mu = new long[members];
            for (int i = 0; i < members; i++) {
                mh[i] = b.getLong();
                md[i] = b.getLong();
                mu[i] = b.getLong();
            }
            long[] cb = new long[cps];
            long[] cu = new long[cps];
            int[] cm = new int[cps];
            int[] wl = new int[cps];
            int[] sl = new int[cps];
            for (int i = 0; i < cps; i++) {
                cb[i] = b.getLong();
                cu[i] = b.getLong();
                cm[i] = b.getInt();
                wl[i] = b.getInt();
                sl[i] = (int) field(b.getInt(), 0, b.remaining(), "stored window length");
            }
            GzipIndexPoints.check(csize, usize, mh, md, mu, cb, cu, cm, wl, (flags & MEMBERS_FOLLOW) == 0);
            // Kept as stored and decoded when a read starts at the checkpoint (Window); the CRC32 above covers them.
            Window[] windows = new Window[cps];
            for (int i = 0; i < cps; i++) {
                if (sl[i] > b.remaining()) {
                    throw new EOFException("index cut short in the window of checkpoint " + i);
                }
                windows[i] = Window.stored(bytes, b.position(), sl[i], wl[i], i);
                b.position(b.position() + sl[i]);
            }
            return new GzipIndex(csize, usize, spacing, mh, md, mu, cb, cu, cm, windows, checkLen == 0 ? null : check,
                    (flags & MEMBERS_FOLLOW) == 0);
        } catch (BufferUnderflowException e) {
            throw new EOFException("Sluice gzip index cut short at byte " + b.position());
        }
    }

    private static long field(long v, long min, long max, String name) throws ZipException {
        if (v < min || v > max) {
            throw new ZipException("index field " + name + ": " + v + " not in [" + min + ", " + max + "]");
        }
        return v;
    }

    // ---- indexed_gzip ----

    private static byte[] indexedGzip(GzipIndex ix) throws ZipException {
        if (ix.compressedSize < 0 || !ix.allMembers) {
            // GZIDX needs both: its last point is at the end of the file, and every member start is a point.
            throw new IllegalStateException("an index without the gzip file's size or every member start (gztool's)"
                    + " cannot be saved in indexed_gzip's format");
        }
        int members = ix.memU.length;
        int cps = ix.cpU.length;
        ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(35 + 18L * (members + cps + 1) + (long) WINDOW * cps))
                .order(ByteOrder.LITTLE_ENDIAN);
        b.put(IGZ_MAGIC).put((byte) 1).put((byte) 0).putLong(ix.compressedSize)
                .putLong(Math.max(0, ix.uncompressedSize));
        // zran refuses a spacing below the window size; the value only guides indexed_gzip's own later points.
        // One more point without a window at the end of the file: indexed_gzip serves only offsets up to its last
        // point ("Index does not cover offset"); its own export ends with a point at the end of the data too.
        b.putInt((int) Math.min(0xffffffffL, Math.max(WINDOW, ix.spacing))).putInt(WINDOW)
                .putInt(members + cps + 1);
        // Points in file order: member starts and checkpoints interleaved by their offsets.
        int m = 0;
        int c = 0;
        while (m < members || c < cps) {
            if (c >= cps || m < members && ix.memDeflate[m] * 8 <= ix.cpBit[c]) {
                b.putLong(ix.memDeflate[m]).putLong(ix.memU[m]).put((byte) 0).put((byte) 0);
                m++;
            } else {
                long bit = ix.cpBit[c];
                b.putLong((bit + 7) >>> 3).putLong(ix.cpU[c]).put((byte) ((8 - (bit & 7)) & 7)).put((byte) 1);
                c++;
            }
        }
        b.putLong(ix.compressedSize).putLong(Math.max(0, ix.uncompressedSize)).put((byte) 0).put((byte) 0);
        for (Window w : ix.windows) {
            b.position(b.position() + WINDOW - w.length()); // zero fill before a short window
            b.put(w.bytes());
        }
        return b.array();
    }

    private static GzipIndex readIndexedGzip(byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        b.position(5);
        try {
            int version = b.get() & 0xff;
            if (version > 1) {
                throw new ZipException("GZIDX version " + version + " not supported (0 or 1)");
            }
            b.get();
            long csize = field(b.getLong(), 0, Long.MAX_VALUE, "compressed size");
            long usize = b.getLong();
            if (usize < 0) {
                throw new ZipException("index field uncompressed size: " + Long.toUnsignedString(usize));
            }
            long spacing = b.getInt() & 0xffffffffL;
            long windowSize = field(b.getInt() & 0xffffffffL, WINDOW, 1 << 30, "window size");
            int points = (int) field(b.getInt() & 0xffffffffL, 0, b.remaining() / 18, "point count");
            long[] cmp = new long[points];
            long[] unc = new long[points];
            int[] bits = new int[points];
            boolean[] data = new boolean[points];
            int withData = 0;
            for (int i = 0; i < points; i++) {
                cmp[i] = field(b.getLong(), 0, csize, "compressed offset of point " + i);
                unc[i] = field(b.getLong(), i > 0 ? unc[i - 1] : 0, Long.MAX_VALUE,
                        "uncompressed offset of point " + i);
                bits[i] = (int) field(b.get(), 0, 7, "bits of point " + i);
                data[i] = version >= 1 ? b.get() != 0 : i > 0;
                withData += data[i] ? 1 : 0;
            }
            if (windowSize * withData > b.remaining()) {
                throw new EOFException("GZIDX index cut short: " + withData + " windows of " + windowSize
                        + " bytes need " + windowSize * withData + ", " + b.remaining() + " left");
            }
            int members = points - withData;
            long[] mh = new long[members];
            long[] md = new long[members];
            long[] mu = new long[members];
            long[] cb = new long[withData];
            long[] cu = new long[withData];
            int[] cm = new int[withData];
            byte[][] windows = new byte[withData][];
            int m = 0;
            int c = 0;
            for (int i = 0; i < points; i++) {
                if (!data[i]) {
                    if (bits[i] != 0) {
                        throw new ZipException("GZIDX member-start point " + i + " has bits " + bits[i]);
                    }
                    mh[m] = -1;
                    md[m] = cmp[i];
                    mu[m] = unc[i];
                    m++;
                    continue;
                }
                if (m == 0) {
                    throw new ZipException("GZIDX point " + i + " comes before any member-start point");
                }
                // The window is the last 32 KiB of the point's window data; past the member's start it is unused.
                int len = (int) Math.min(WINDOW, unc[i] - mu[m - 1]);
                long at = b.position() + (long) c * windowSize + windowSize - len;
                windows[c] = Arrays.copyOfRange(bytes, (int) at, (int) at + len);
                cb[c] = cmp[i] * 8 - bits[i];
                cu[c] = unc[i];
                cm[c] = m - 1;
                c++;
            }
            long size = usize == 0 && points > 0 && unc[points - 1] > 0 ? -1 : usize;
            // indexed_gzip may add a point at the very end of the data; it is valid but never needed.
            GzipIndexPoints.check(csize, size, mh, md, mu, cb, cu, cm, lengths(windows), true);
            return new GzipIndex(csize, size, Math.max(1, spacing), mh, md, mu, cb, cu, cm, windows, null);
        } catch (BufferUnderflowException e) {
            throw new EOFException("GZIDX index cut short at byte " + b.position());
        }
    }

    private static int[] lengths(byte[][] windows) {
        int[] l = new int[windows.length];
        for (int i = 0; i < l.length; i++) {
            l[i] = windows[i].length;
        }
        return l;
    }
}
