package dev.sluice.gzip;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A pure-Java DEFLATE decoder (RFC 1951) that can start at any block boundary without the 32 KiB window before it:
 * its output is 16-bit, a value below 256 is a byte, a value {@code 256 + i} stands for byte {@code i} of the unknown
 * window (32 KiB, right-aligned: index 32767 is the byte just before the start), to be resolved once the window is
 * known ({@link #resolve}). rapidgzip's and pugz's idea; this code is Sluice's own.
 *
 * <p>It decodes whole blocks from a start bit until the first block that ends at or after a stop bit (or after a soft
 * output limit), or until the final block of the deflate stream ends, and reports where it stopped ({@link #endBit},
 * {@link #status}). It never throws on bad data: anything zlib would refuse (a block type 3, stored lengths that do not
 * match, more than 286/30 codes, an over-subscribed or incomplete Huffman code, as zlib's inftrees.c judges them, a
 * repeat with no length before it or past the end, no end-of-block code, an invalid literal/length or distance code, a
 * distance before the member's start) and input that runs out before a block ends give {@link #FAILED}, and the caller
 * decides (its callers decode from a true start with the stream's own engine, which gives the one-thread path's
 * verdict). What it accepts, zlib accepts and decodes to the same bytes. Memory: the output array, grown by doubling up
 * to the hard limit given to {@link #decode}, and tables of about 60 KiB. Not thread-safe: one per worker.
 */
final class MarkerInflater {
    /** The window's size; markers are {@code WINDOW_MARK + index}. */
    static final int WINDOW = 32768;
    static final int WINDOW_MARK = 256;

    /** {@link #status}: stopped after a block ended at or past the stop bit, or after the soft output limit. */
    static final int BOUNDARY = 0;
    /** {@link #status}: the deflate stream's final block ended at {@link #endBit}. */
    static final int MEMBER_END = 1;
    /** {@link #status}: bad data, input that ran out, or output past the hard limit. */
    static final int FAILED = 2;

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final int LIT_MASK = (1 << DeflateTables.LIT_BITS) - 1;
    private static final int DIST_MASK = (1 << DeflateTables.DIST_BITS) - 1;

    private final int[] lit = new int[DeflateTables.LIT_SIZE];
    private final int[] dist = new int[DeflateTables.DIST_SIZE];
    private final int[] clTable = new int[1 << 7];
    private final byte[] lens = new byte[288 + 32];
    private final byte[] clLens = new byte[19];

    // Input and bit state: the next bit is bit 0 of bits; count of them are valid; in[p..limit) not yet loaded.
    private byte[] in;
    private int limit;
    private long bits;
    private int count;
    private int p;

    /** The output: {@code out[0..n)}; markers only in {@code out[0..markerEnd)}. */
    char[] out = new char[1 << 16];
    int n;
    int markerEnd;
    /** The smallest window index a marker refers to ({@link #WINDOW} if none). */
    int minMarker;
    int status;
    /** For BOUNDARY and MEMBER_END: the bit (of {@code in}) after the last block decoded. */
    long endBit;
    /**
     * Null, or (for an index build) every block end of the last {@link #decode}: {@link #endBit} and {@link #n} there,
     * in pairs, {@link #blocks} pairs; grown as needed.
     */
    long[] ends;
    int blocks;

    /** Bit position of the next unread bit. */
    long position() {
        return ((long) p << 3) - count;
    }

    /** Sets the input and moves to {@code bit}; bytes at and past {@code limit} are never read as data. */
    void seek(byte[] in, int limit, long bit) {
        this.in = in;
        this.limit = limit;
        this.p = (int) (bit >>> 3);
        this.bits = 0;
        this.count = 0;
        slowRefill();
        int k = (int) (bit & 7);
        bits >>>= k;
        count -= k;
    }

    /** Loads whole bytes until at least 57 bits are buffered, zeros past the limit (caught by {@link #overrun}). */
    private void slowRefill() {
        while (count <= 56) {
            if (p < limit) {
                bits |= (long) (in[p] & 0xff) << count;
            }
            p++;
            count += 8;
        }
    }

    private boolean overrun() {
        return position() > ((long) limit << 3);
    }

    private void drop(int k) {
        bits >>>= k;
        count -= k;
    }

    /**
     * Decodes from {@code startBit} of {@code in[0..limit)} (a block's first bit) as described in the class comment.
     * {@code memberStart}: the start is a member's first block, so no distance may reach before it. Output beyond
     * {@code softCap} symbols stops at the next block end; a block that would take it past {@code hardCap} fails.
     * Returns {@link #status}.
     */
    int decode(byte[] in, int limit, long startBit, long stopBit, boolean memberStart, int softCap, int hardCap) {
        seek(in, limit, startBit);
        n = 0;
        markerEnd = 0;
        minMarker = WINDOW;
        int histStart = memberStart ? 0 : -WINDOW;
        status = FAILED;
        blocks = 0;
        while (true) {
            slowRefill();
            int bfinal = (int) bits & 1;
            int type = (int) (bits >>> 1) & 3;
            drop(3);
            boolean ok;
            if (type == 0) {
                ok = stored(hardCap);
            } else if (type == 1) {
                ok = codes(DeflateTables.FIXED_LIT, DeflateTables.FIXED_DIST, histStart, hardCap);
            } else if (type == 2) {
                ok = dynamicHeader() && codes(lit, dist, histStart, hardCap);
            } else {
                ok = false;
            }
            if (!ok || overrun()) {
                return FAILED;
            }
            endBit = position();
            if (ends != null) {
                blockEnd();
            }
            if (bfinal != 0) {
                return status = MEMBER_END;
            }
            if (endBit >= stopBit || n >= softCap) {
                return status = BOUNDARY;
            }
        }
    }

    private void blockEnd() {
        if (2 * blocks == ends.length) {
            ends = java.util.Arrays.copyOf(ends, 4 * blocks);
        }
        ends[2 * blocks] = endBit;
        ends[2 * blocks + 1] = n;
        blocks++;
    }

    private boolean stored(int hardCap) {
        drop(count & 7); // to the byte boundary: p is whole bytes, count a multiple of 8 after this
        int len = (int) bits & 0xffff;
        int nlen = (int) (bits >>> 16) & 0xffff;
        if (len != (~nlen & 0xffff)) {
            return false;
        }
        int q = p - (count >>> 3) + 4;
        if (q + len > limit || !room(len, hardCap)) {
            return false;
        }
        char[] o = out;
        int m = n;
        for (int i = 0; i < len; i++) {
            o[m + i] = (char) (in[q + i] & 0xff);
        }
        n = m + len;
        p = q + len;
        bits = 0;
        count = 0;
        return true;
    }

    /** Makes room for {@code k} more symbols; false past {@code hardCap}. */
    private boolean room(int k, int hardCap) {
        if (n + k <= out.length) {
            return true;
        }
        if ((long) n + k > hardCap) {
            return false;
        }
        out = java.util.Arrays.copyOf(out, (int) Math.min(hardCap, Math.max(2L * out.length, n + k)));
        return true;
    }

    /**
     * Reads a dynamic block's header after its three type bits and builds {@link #lit} and {@link #dist}; false for
     * anything zlib refuses (see the class comment) or a header that runs past the input.
     */
    boolean dynamicHeader() {
        slowRefill();
        int hlit = (int) (bits & 31) + 257;
        int hdist = (int) (bits >>> 5 & 31) + 1;
        int hclen = (int) (bits >>> 10 & 15) + 4;
        drop(14);
        if (hlit > 286 || hdist > 30) {
            return false;
        }
        byte[] cl = clLens;
        java.util.Arrays.fill(cl, (byte) 0);
        slowRefill(); // 57 bits: all 19 lengths
        for (int i = 0; i < hclen; i++) {
            cl[DeflateTables.CL_ORDER[i]] = (byte) (bits & 7);
            drop(3);
        }
        if (DeflateTables.build(clTable, 7, cl, 0, 19, true) != DeflateTables.OK) {
            return false;
        }
        byte[] l = lens;
        int total = hlit + hdist;
        for (int i = 0; i < total; ) {
            if (count < 16) {
                slowRefill();
                if (overrun()) {
                    return false;
                }
            }
            int e = clTable[(int) bits & 127];
            drop(e & 15);
            int sym = e >>> 8;
            if (sym < 16) {
                l[i++] = (byte) sym;
                continue;
            }
            int rep;
            byte val = 0;
            if (sym == 16) {
                if (i == 0) {
                    return false;
                }
                val = l[i - 1];
                rep = 3 + (int) (bits & 3);
                drop(2);
            } else if (sym == 17) {
                rep = 3 + (int) (bits & 7);
                drop(3);
            } else {
                rep = 11 + (int) (bits & 127);
                drop(7);
            }
            if (i + rep > total) {
                return false;
            }
            for (int j = 0; j < rep; j++) {
                l[i++] = val;
            }
        }
        if (l[256] == 0 || overrun()) {
            return false;
        }
        return DeflateTables.build(lit, DeflateTables.LIT_BITS, l, 0, hlit, false) == DeflateTables.OK
                && DeflateTables.build(dist, DeflateTables.DIST_BITS, l, hlit, hdist, false) == DeflateTables.OK;
    }

    /** Decodes one Huffman block's symbols up to its end-of-block code; false on bad data or output past the cap. */
    private boolean codes(int[] litTable, int[] distTable, int histStart, int hardCap) {
        long b = bits;
        int c = count;
        int q = p;
        int m = n;
        char[] o = out;
        final byte[] src = in;
        final int safe = limit - 8;
        int mEnd = markerEnd;
        int minM = minMarker;
        try {
            while (true) {
                if (q <= safe) {
                    b |= (long) LONG_LE.get(src, q) << c;
                    q += (63 - c) >>> 3;
                    c |= 56;
                } else {
                    // The last bytes: one at a time, zeros past the end; running past it fails.
                    if (((long) q << 3) - c > ((long) limit << 3)) {
                        return false;
                    }
                    while (c <= 56) {
                        if (q < limit) {
                            b |= (long) (src[q] & 0xff) << c;
                        }
                        q++;
                        c += 8;
                    }
                }
                int e = litTable[(int) b & LIT_MASK];
                if ((e & 0x40) != 0) {
                    b >>>= DeflateTables.LIT_BITS;
                    c -= DeflateTables.LIT_BITS;
                    e = litTable[(e >>> 8) + ((int) b & ((1 << (e & 15)) - 1))];
                }
                int l = e & 15;
                if (l == 0) {
                    return false;
                }
                b >>>= l;
                c -= l;
                int sym = e >>> 8;
                if (sym < 256) {
                    if (m == o.length) {
                        n = m;
                        if (!room(1, hardCap)) {
                            return false;
                        }
                        o = out;
                    }
                    o[m++] = (char) sym;
                    continue;
                }
                if (sym == 256) {
                    return true;
                }
                int li = sym - 257;
                if (li >= 29) {
                    return false;
                }
                int x = DeflateTables.LENGTH_EXTRA[li];
                int len = DeflateTables.LENGTH_BASE[li] + ((int) b & ((1 << x) - 1));
                b >>>= x;
                c -= x;
                e = distTable[(int) b & DIST_MASK];
                if ((e & 0x40) != 0) {
                    b >>>= DeflateTables.DIST_BITS;
                    c -= DeflateTables.DIST_BITS;
                    e = distTable[(e >>> 8) + ((int) b & ((1 << (e & 15)) - 1))];
                }
                l = e & 15;
                int ds = e >>> 8;
                if (l == 0 || ds >= 30) {
                    return false;
                }
                b >>>= l;
                c -= l;
                x = DeflateTables.DIST_EXTRA[ds];
                int d = DeflateTables.DIST_BASE[ds] + ((int) b & ((1 << x) - 1));
                b >>>= x;
                c -= x;
                int from = m - d;
                if (m + len > o.length) {
                    n = m;
                    if (!room(len, hardCap)) {
                        return false;
                    }
                    o = out;
                }
                if (from < 0) {
                    if (from < histStart) {
                        return false; // before the member's start, or more than 32 KiB back: zlib refuses it
                    }
                    // Into the unknown window: markers for those bytes, then the copy goes on in the output.
                    minM = Math.min(minM, WINDOW + from);
                    int i = 0;
                    for (; i < len && from + i < 0; i++) {
                        o[m + i] = (char) (WINDOW_MARK + WINDOW + from + i);
                    }
                    for (; i < len; i++) {
                        o[m + i] = o[from + i];
                    }
                    m += len;
                    mEnd = m;
                    continue;
                }
                if (from < mEnd) {
                    mEnd = m + len;
                }
                if (d >= len) {
                    if (len <= 16) {
                        for (int i = 0; i < len; i++) {
                            o[m + i] = o[from + i];
                        }
                    } else {
                        System.arraycopy(o, from, o, m, len);
                    }
                } else if (d == 1) {
                    java.util.Arrays.fill(o, m, m + len, o[from]);
                } else {
                    for (int i = 0; i < len; i++) {
                        o[m + i] = o[from + i];
                    }
                }
                m += len;
            }
        } finally {
            bits = b;
            count = c;
            p = q;
            n = m;
            markerEnd = mEnd;
            minMarker = minM;
        }
    }

    /**
     * Resolves {@code src[from..to)} into bytes at {@code dst[at..]} with {@code window} (32 KiB, right-aligned as
     * the markers count); the caller has checked that every marker falls in the known part of the window. One table
     * of every symbol's byte (the 256 bytes, then the window) makes it a branch-free lookup per symbol.
     */
    static void resolve(char[] src, int from, int to, byte[] window, byte[] dst, int at) {
        byte[] lut = new byte[WINDOW_MARK + WINDOW];
        for (int i = 0; i < WINDOW_MARK; i++) {
            lut[i] = (byte) i;
        }
        System.arraycopy(window, 0, lut, WINDOW_MARK, WINDOW);
        for (int i = from; i < to; i++) {
            dst[at + i - from] = lut[src[i]];
        }
    }

    /** Narrows marker-free symbols {@code src[from..to)} to bytes at {@code dst[at..]}. */
    static void narrow(char[] src, int from, int to, byte[] dst, int at) {
        for (int i = from; i < to; i++) {
            dst[at + i - from] = (byte) src[i];
        }
    }
}
