package dev.sluice.gzip;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A pure-Java DEFLATE decoder (RFC 1951) that can start at any block boundary without the 32 KiB window before it:
 * its output is 16-bit at first ({@link #out}), a value below 256 is a byte, a value {@code 256 + i} stands for byte
 * {@code i} of the unknown window (32 KiB, right-aligned: index 32767 is the byte just before the start), to be
 * resolved once the window is known ({@link #resolve}). At the first block end where the last 32 KiB of output hold
 * no marker, no later back-reference can reach one, so the rest is decoded straight into bytes ({@link #bytes}),
 * half the memory traffic, no resolution pass, and 1.7x the symbol rate (on the JDK-source corpus, whose license
 * headers copied from file to file carry markers far, that is after 56% of a chunk's output on average). A decode
 * from a member's start ({@code memberStart}) has no unknown window and is bytes from its first symbol. A caller
 * that learns the window while the decode runs can hand it over ({@link #windowSource}). rapidgzip's and pugz's
 * idea; this code is Sluice's own.
 *
 * <p>It decodes whole blocks from a start bit until the first block that ends at or after a stop bit (or after a soft
 * output limit), or until the final block of the deflate stream ends, and reports where it stopped ({@link #endBit},
 * {@link #status}). It never throws on bad data: anything zlib would refuse (a block type 3, stored lengths that do not
 * match, more than 286/30 codes, an over-subscribed or incomplete Huffman code, as zlib's inftrees.c judges them, a
 * repeat with no length before it or past the end, no end-of-block code, an invalid literal/length or distance code, a
 * distance before the member's start) and input that runs out before a block ends give {@link #FAILED}, and the caller
 * decides (its callers decode from a true start with the stream's own engine, which gives the one-thread path's
 * verdict). What it accepts, zlib accepts and decodes to the same bytes. Memory: the output array, grown by doubling up
 * to the hard limit given to {@link #decode} (2 bytes a symbol while markers may remain, then 1), and tables of about
 * 60 KiB. Not thread-safe: one per worker.
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
    /**
     * Room kept free at the end of {@link #bytes} before each symbol: a back-reference's 258 bytes, the 15 that its
     * 16-byte copy may write past them, and a run of literals decoded from one 64-bit refill (at most 56).
     */
    static final int SLACK = 258 + 16 + 56;

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

    /**
     * The 16-bit output, {@code out[0..n)}; markers only in {@code out[0..markerEnd)}. Once decoding turned to bytes
     * ({@link #split} {@code < n}), only {@code out[0..split)} is output, the rest having been narrowed into
     * {@link #bytes}.
     */
    char[] out = new char[1 << 16];
    int n;
    /**
     * The output as bytes, {@code bytes[0..length)}, of which {@code bytes[split..length)} are decoded and
     * {@code bytes[0..split)} are left for the caller to fill from {@code out[0..split)} ({@link #complete}); null or
     * unused while the output is 16-bit only ({@code split == n == length}). The caller may hand one in before
     * {@link #decode} (it is grown by doubling when too small).
     */
    byte[] bytes;
    int split;
    /** The output's length in symbols (bytes once resolved). */
    int length;
    /** Phase one: the first {@link #n} at which the last 32 KiB of {@link #out} may hold no marker. */
    private int nextCheck;
    /**
     * Where a decode may learn, while it runs, the whole 32 KiB window before its start (null: it never does): asked
     * at each block end of the 16-bit phase; once it gives a window, the symbols so far are resolved with it and the
     * rest is decoded as bytes. Set by the caller before {@link #decode}.
     */
    java.util.function.Supplier<byte[]> windowSource;
    /**
     * Null, or where the rest of a decode goes to the stream's native engine once the 32 KiB before the position are
     * bytes (ISA-L, about 2.5x this decoder's byte phase): asked at the start of a decode whose window is known (a
     * member's start, or a window from {@link #windowSource}) and at each block end of the byte phase; a handoff that
     * takes ends the decode where it stopped, one refused leaves it as it was. Set by the caller before
     * {@link #decode}; {@link EngineRest#from} then says where its output starts in {@link #bytes}.
     */
    EngineRest rest;
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
        split = -1;
        length = 0;
        nextCheck = WINDOW;
        int histStart = memberStart ? 0 : -WINDOW;
        status = FAILED;
        blocks = 0;
        if (memberStart && !toBytes(hardCap)) {
            return FAILED;
        }
        if (rest != null) {
            rest.begin(in, limit, stopBit);
            int r = memberStart ? rest.tryRest(this, startBit, bytes, 0, 0, softCap) : windowAtStart(startBit, softCap,
                    hardCap);
            if (r != EngineRest.NO) {
                return done(r);
            }
        }
        while (true) {
            slowRefill();
            int bfinal = (int) bits & 1;
            int type = (int) (bits >>> 1) & 3;
            drop(3);
            boolean ok;
            boolean wide = split < 0;
            if (type == 0) {
                ok = stored(hardCap);
            } else if (type == 1) {
                ok = wide ? codes(DeflateTables.FIXED_LIT, DeflateTables.FIXED_DIST, histStart, hardCap)
                        : byteCodes(DeflateTables.FIXED_LIT, DeflateTables.FIXED_DIST, hardCap);
            } else if (type == 2) {
                ok = dynamicHeader() && (wide ? codes(lit, dist, histStart, hardCap)
                        : byteCodes(lit, dist, hardCap));
            } else {
                ok = false;
            }
            length = wide ? n : length;
            if (!ok || overrun() || length > hardCap) {
                return FAILED;
            }
            endBit = position();
            if (ends != null) {
                blockEnd();
            }
            if (wide && n >= WINDOW) {
                byte[] w = windowSource != null ? windowSource.get() : null;
                if (w != null ? !resolveNow(w, hardCap) : n >= nextCheck && markerFree() && !toBytes(hardCap)) {
                    return FAILED;
                }
            }
            if (bfinal != 0) {
                return done(MEMBER_END);
            }
            if (endBit >= stopBit || length >= softCap) {
                return done(BOUNDARY);
            }
            if (rest != null && split >= 0) {
                int k = Math.min(length, WINDOW); // the history: bytes, whatever markers lie before split
                int r = rest.tryRest(this, endBit, bytes, length - k, k, softCap);
                if (r != EngineRest.NO) {
                    return done(r);
                }
            }
        }
    }

    /**
     * The engine from the start of a decode that is given its window at once (a redecode from a true boundary):
     * all of its output is then the engine's bytes. {@link EngineRest#NO} where there is no window yet or the
     * engine refused.
     */
    private int windowAtStart(long startBit, int softCap, int hardCap) {
        byte[] w = windowSource != null ? windowSource.get() : null;
        if (w == null || !roomBytes(SLACK, hardCap)) {
            return EngineRest.NO;
        }
        int r = rest.tryRest(this, startBit, w, 0, WINDOW, softCap);
        if (r != EngineRest.NO) {
            split = 0; // no symbol: everything is bytes
            n = 0;
        }
        return r;
    }

    private void blockEnd() {
        if (2 * blocks == ends.length) {
            ends = java.util.Arrays.copyOf(ends, 4 * blocks);
        }
        ends[2 * blocks] = endBit;
        ends[2 * blocks + 1] = length; // the output so far, symbols or bytes
        blocks++;
    }

    private int done(int s) {
        if (split < 0) {
            split = n; // never turned to bytes: all of it is for complete()
            if (bytes == null || bytes.length < n) {
                bytes = new byte[n];
            }
        }
        return status = s;
    }

    /**
     * True if {@code out[n - WINDOW..n)} holds no marker; else moves {@link #nextCheck} past the last marker's reach
     * (a scan from the end, so each symbol is looked at about once).
     */
    private boolean markerFree() {
        char[] o = out;
        for (int i = n - 1, lo = n - WINDOW; i >= lo; i--) {
            if (o[i] >= WINDOW_MARK) {
                nextCheck = i + 1 + WINDOW;
                return false;
            }
        }
        return true;
    }

    /**
     * Turns the output to bytes with the window now known: every symbol so far resolved into {@link #bytes}, so that
     * no marker is left ({@link #markerEnd} 0, {@link #split} 0; {@link #minMarker} stays, for the caller's check).
     */
    private boolean resolveNow(byte[] window, int hardCap) {
        length = n;
        if (bytes != null && bytes.length < n + SLACK) {
            bytes = null;
        }
        if (!roomBytes(SLACK, hardCap)) {
            return false;
        }
        complete(out, n, markerEnd, window, bytes);
        split = 0;
        markerEnd = 0;
        return true;
    }

    /**
     * Turns the output to bytes: the last 32 KiB of {@link #out} (marker-free, the history later back-references
     * read) narrowed into {@link #bytes} where they belong, the symbols before them left for {@link #complete}.
     */
    private boolean toBytes(int hardCap) {
        int keep = Math.min(n, WINDOW);
        split = n - keep;
        length = n;
        if (bytes != null && bytes.length < n + SLACK) {
            bytes = null; // too small: a new one, not a copy of what it holds
        }
        if (!roomBytes(SLACK, hardCap)) {
            return false;
        }
        narrow(out, split, n, bytes, split);
        return true;
    }

    private boolean stored(int hardCap) {
        drop(count & 7); // to the byte boundary: p is whole bytes, count a multiple of 8 after this
        int len = (int) bits & 0xffff;
        int nlen = (int) (bits >>> 16) & 0xffff;
        if (len != (~nlen & 0xffff)) {
            return false;
        }
        int q = p - (count >>> 3) + 4;
        if (q + len > limit) {
            return false;
        }
        if (split >= 0) {
            if (!roomBytes(len + SLACK, hardCap)) {
                return false;
            }
            System.arraycopy(in, q, bytes, length, len);
            length += len;
        } else {
            if (!room(len, hardCap)) {
                return false;
            }
            char[] o = out;
            int m = n;
            for (int i = 0; i < len; i++) {
                o[m + i] = (char) (in[q + i] & 0xff);
            }
            n = m + len;
        }
        p = q + len;
        bits = 0;
        count = 0;
        return true;
    }

    /**
     * Makes room for {@code k} more symbols in {@link #out}; false past {@code hardCap} and the slack the decoding
     * loop keeps (a decode whose output passes {@code hardCap} fails at the block's end).
     */
    private boolean room(int k, int hardCap) {
        if (n + k <= out.length) {
            return true;
        }
        long cap = (long) hardCap + SLACK;
        if ((long) n + k > cap) {
            return false;
        }
        out = java.util.Arrays.copyOf(out, (int) Math.min(cap, Math.max(2L * out.length, (long) n + k)));
        return true;
    }

    /**
     * Makes room for {@code k} more bytes in {@link #bytes} after {@link #length}; false past {@code hardCap} (and
     * the slack the byte decoder writes into).
     */
    private boolean roomBytes(int k, int hardCap) {
        byte[] b = bytes;
        if (b != null && length + k <= b.length) {
            return true;
        }
        long cap = (long) hardCap + SLACK;
        if ((long) length + k > cap) {
            return false;
        }
        int size = (int) Math.min(cap, Math.max(b == null ? 1 << 16 : 2L * b.length, (long) length + k));
        bytes = b == null ? new byte[size] : java.util.Arrays.copyOf(b, size);
        return true;
    }

    /**
     * Reads a dynamic block's header after its three type bits and builds {@link #lit} and {@link #dist}; false for
     * anything zlib refuses (see the class comment) or a header that runs past the input.
     */
    boolean dynamicHeader() {
        // The verdicts that the block finder's filters make rare (too many codes, a bad code-length code, a header
        // past the input, a bad distance code) are gathered in bad (negative: refused) and judged once at the end,
        // with the common ones: a branch C2 saw taken from the finder's many refusals, not one it compiles as a trap
        // (see the decoding loops' comment).
        slowRefill();
        int hlit = (int) (bits & 31) + 257;
        int hdist = (int) (bits >>> 5 & 31) + 1;
        int hclen = (int) (bits >>> 10 & 15) + 4;
        drop(14);
        int bad = (286 - hlit) | (30 - hdist);
        byte[] cl = clLens;
        java.util.Arrays.fill(cl, (byte) 0);
        slowRefill(); // 57 bits: all 19 lengths
        for (int i = 0; i < hclen; i++) {
            cl[DeflateTables.CL_ORDER[i]] = (byte) (bits & 7);
            drop(3);
        }
        // A refused code-length code leaves clTable as it was (valid entries, or zeros): the lengths decode to
        // something, bounded by total, and are refused with it.
        bad |= -DeflateTables.build(clTable, 7, cl, 0, 19, true);
        byte[] l = lens;
        int total = hlit + hdist; // at most 288 + 32, the size of lens
        for (int i = 0; i < total; ) {
            if (count < 16) {
                slowRefill(); // zeros past the limit: judged by the position at the end
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
        bad |= (l[256] - 1) >> 31; // no end-of-block code
        bad |= (int) ((((long) limit << 3) - position()) >> 32); // past the input
        bad |= -DeflateTables.build(lit, DeflateTables.LIT_BITS, l, 0, hlit, false);
        bad |= -DeflateTables.build(dist, DeflateTables.DIST_BITS, l, hlit, hdist, false);
        return bad >= 0;
    }

    /**
     * Decodes one Huffman block's symbols up to its end-of-block code into {@link #out}; false on bad data or output
     * past the cap. The same decoding as {@link #byteCodes}, 16 bits a symbol, with markers: {@link #codesStep} a
     * stretch at a time. The two steps are written out each (not one loop over shared helpers for the table walk and
     * the back-reference's fields: that measured 13% slower, 400 against 460 MB/s of output on one core, JDK 25,
     * 2026-11-28).
     */
    private boolean codes(int[] litTable, int[] distTable, int histStart, int hardCap) {
        while (true) {
            if (out.length - n < SLACK && !room(SLACK, hardCap)) {
                return false;
            }
            int x = codesStep(litTable, distTable, histStart);
            if (x != MORE) {
                return x == END_OF_BLOCK;
            }
        }
    }

    /**
     * {@link #byteCodes}' results and {@link #codesStep}'s: {@link #END_OF_BLOCK} (the block ended), {@link #MORE}
     * (a stretch done, the block goes on), anything else bad data.
     */
    private static final int END_OF_BLOCK = 256;
    private static final int MORE = 0x10000;
    /** Symbols a step decodes at most (then it returns {@link #MORE}). */
    private static final int STEP = 2048;
    /**
     * {@link DeflateTables#DIST_BASE} with distance codes 30 and 31 (and a missing code, taken as 31) given a
     * distance no output reaches back, so that an invalid distance code fails as a distance too far back does.
     */
    private static final int[] DIST_BASE = java.util.Arrays.copyOf(DeflateTables.DIST_BASE, 32);
    private static final int[] DIST_EXTRA = java.util.Arrays.copyOf(DeflateTables.DIST_EXTRA, 32);

    static {
        DIST_BASE[30] = 1 << 30;
        DIST_BASE[31] = 1 << 30;
    }

    /*
     * Why the decoding loops have the shape they have (C2, 2026-11-28): C2 compiles a branch that its profile never
     * saw taken as a trap, and the first time it is taken the method is thrown away, run in the interpreter and
     * compiled again; with the loop of a whole block in one call the profile was a slice of one call (an OSR
     * compile), blind to what happens once per block, and each decode loop was compiled 4 to 6 times (about 1 s of a
     * 6 s gunzip's CPU on two cores). So a call decodes at most STEP symbols, and everything rare leaves the loop by
     * the one exit the end-of-block code takes in every block: invalid and missing codes are exit symbols, an
     * invalid distance or one too far back only marks the step bad (err) and is copied from a clamped position,
     * and growing the output is the caller's, between steps.
     */

    /**
     * Decodes up to {@link #STEP} symbols (and the last back-reference's) of a Huffman block into {@link #out},
     * which the caller made {@link #SLACK} symbols of room in; returns {@link #END_OF_BLOCK}, {@link #MORE}, or
     * another value for bad data (a step that met bad data may have written garbage: the decode fails).
     */
    private int codesStep(int[] litTable, int[] distTable, int histStart) {
        long b = bits;
        int c = count;
        int q = p;
        int m = n;
        final char[] o = out;
        final byte[] src = in;
        final int safe = limit - 8;
        final int mStop = Math.min(o.length - SLACK, m + STEP);
        int mEnd = markerEnd;
        int minM = minMarker;
        int err = 0;
        int x = MORE;
        try {
            do {
                if (q <= safe) {
                    b |= (long) LONG_LE.get(src, q) << c;
                    q += (63 - c) >>> 3;
                    c |= 56;
                } else {
                    bits = b;
                    count = c;
                    p = q;
                    if (!tailRefill()) {
                        return -1;
                    }
                    b = bits;
                    c = count;
                    q = p;
                }
                int e = litTable[(int) b & LIT_MASK];
                if (e > 0 && e < 0x10000) {
                    // Direct literals (a link is at least 0x40000, a missing code 0): while 15 bits remain.
                    do {
                        int l = e & 15;
                        b >>>= l;
                        c -= l;
                        o[m++] = (char) (e >>> 8);
                        if (c < 15) {
                            break;
                        }
                        e = litTable[(int) b & LIT_MASK];
                    } while (e > 0 && e < 0x10000);
                    continue;
                }
                if ((e & 0x40) != 0) {
                    b >>>= DeflateTables.LIT_BITS;
                    c -= DeflateTables.LIT_BITS;
                    e = litTable[(e >>> 8) + ((int) b & ((1 << (e & 15)) - 1))];
                }
                int l = e & 15;
                b >>>= l;
                c -= l;
                int sym = e >>> 8 | ((l - 1) >> 31 & 0x200); // a missing code (length 0): an exit symbol
                if (sym < 256) {
                    o[m++] = (char) sym;
                    continue;
                }
                int li = sym - 257;
                if ((li | (28 - li)) < 0) { // end of block, or an invalid or missing code
                    x = sym;
                    break;
                }
                int xb = DeflateTables.LENGTH_EXTRA[li];
                int len = DeflateTables.LENGTH_BASE[li] + ((int) b & ((1 << xb) - 1));
                b >>>= xb;
                c -= xb;
                e = distTable[(int) b & DIST_MASK];
                if ((e & 0x40) != 0) {
                    b >>>= DeflateTables.DIST_BITS;
                    c -= DeflateTables.DIST_BITS;
                    e = distTable[(e >>> 8) + ((int) b & ((1 << (e & 15)) - 1))];
                }
                l = e & 15;
                int ds = e >>> 8 | ((l - 1) >> 31 & 31); // a missing code: 31, invalid
                b >>>= l;
                c -= l;
                xb = DIST_EXTRA[ds];
                int d = DIST_BASE[ds] + ((int) b & ((1 << xb) - 1));
                b >>>= xb;
                c -= xb;
                int from = m - d;
                if (from < 0) {
                    // Before the member's start, more than 32 KiB back or an invalid code: zlib refuses it.
                    err |= from - histStart;
                    from = Math.max(from, histStart);
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
                    System.arraycopy(o, from, o, m, len);
                } else if (d == 1) {
                    java.util.Arrays.fill(o, m, m + len, o[from]);
                } else {
                    for (int i = 0; i < len; i++) {
                        o[m + i] = o[from + i];
                    }
                }
                m += len;
            } while (m <= mStop);
            return x | err >> 31;
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
     * The refill near the end of the input, from the fields (the loops store their bit state first): whole bytes,
     * zeros past the limit; false once the position is past the limit (the data ran out).
     */
    private boolean tailRefill() {
        if (overrun()) {
            return false;
        }
        slowRefill();
        return true;
    }

    /**
     * {@link #codes} for the byte phase: the same decoding (and the same verdicts) into {@link #bytes}, whose last
     * 32 KiB before {@link #split} or its start are the history; no marker can arise (a distance before a member's
     * start fails, as there). {@link #byteStep} a stretch at a time.
     */
    private boolean byteCodes(int[] litTable, int[] distTable, int hardCap) {
        while (true) {
            if (bytes.length - length < SLACK && !roomBytes(SLACK, hardCap)) {
                return false;
            }
            int x = byteStep(litTable, distTable);
            if (x != MORE) {
                return x == END_OF_BLOCK;
            }
        }
    }

    /**
     * {@link #codesStep} for the byte phase. Literals are decoded several to a refill, back-references copied 16 bytes
     * at a time (8 for distances of 8 to 15; overlapping copies too: each load reads bytes already written).
     */
    private int byteStep(int[] litTable, int[] distTable) {
        long b = bits;
        int c = count;
        int q = p;
        int m = length;
        final byte[] o = bytes;
        final byte[] src = in;
        final int safe = limit - 8;
        final int mStop = Math.min(o.length - SLACK, m + STEP);
        int err = 0;
        int x = MORE;
        try {
            do {
                if (q <= safe) {
                    b |= (long) LONG_LE.get(src, q) << c;
                    q += (63 - c) >>> 3;
                    c |= 56;
                } else {
                    bits = b;
                    count = c;
                    p = q;
                    if (!tailRefill()) {
                        return -1;
                    }
                    b = bits;
                    c = count;
                    q = p;
                }
                int e = litTable[(int) b & LIT_MASK];
                if (e > 0 && e < 0x10000) {
                    do {
                        int l = e & 15;
                        b >>>= l;
                        c -= l;
                        o[m++] = (byte) (e >>> 8);
                        if (c < 15) {
                            break;
                        }
                        e = litTable[(int) b & LIT_MASK];
                    } while (e > 0 && e < 0x10000);
                    continue;
                }
                if ((e & 0x40) != 0) {
                    b >>>= DeflateTables.LIT_BITS;
                    c -= DeflateTables.LIT_BITS;
                    e = litTable[(e >>> 8) + ((int) b & ((1 << (e & 15)) - 1))];
                }
                int l = e & 15;
                b >>>= l;
                c -= l;
                int sym = e >>> 8 | ((l - 1) >> 31 & 0x200);
                if (sym < 256) {
                    o[m++] = (byte) sym;
                    continue;
                }
                int li = sym - 257;
                if ((li | (28 - li)) < 0) {
                    x = sym;
                    break;
                }
                int xb = DeflateTables.LENGTH_EXTRA[li];
                int len = DeflateTables.LENGTH_BASE[li] + ((int) b & ((1 << xb) - 1));
                b >>>= xb;
                c -= xb;
                e = distTable[(int) b & DIST_MASK];
                if ((e & 0x40) != 0) {
                    b >>>= DeflateTables.DIST_BITS;
                    c -= DeflateTables.DIST_BITS;
                    e = distTable[(e >>> 8) + ((int) b & ((1 << (e & 15)) - 1))];
                }
                l = e & 15;
                int ds = e >>> 8 | ((l - 1) >> 31 & 31);
                b >>>= l;
                c -= l;
                xb = DIST_EXTRA[ds];
                int d = DIST_BASE[ds] + ((int) b & ((1 << xb) - 1));
                b >>>= xb;
                c -= xb;
                // Before the member's start (the history is 32 KiB otherwise) or an invalid code: zlib refuses it.
                int from = m - d;
                err |= from;
                from = Math.max(from, 0);
                if (d >= 16) {
                    for (int i = 0; i < len; i += 16) {
                        long lo = (long) LONG_LE.get(o, from + i);
                        long hi = (long) LONG_LE.get(o, from + i + 8);
                        LONG_LE.set(o, m + i, lo);
                        LONG_LE.set(o, m + i + 8, hi);
                    }
                } else if (d >= 8) {
                    for (int i = 0; i < len; i += 8) {
                        LONG_LE.set(o, m + i, (long) LONG_LE.get(o, from + i));
                    }
                } else if (d == 1) {
                    java.util.Arrays.fill(o, m, m + len, o[from]);
                } else {
                    for (int i = 0; i < len; i++) {
                        o[m + i] = o[from + i];
                    }
                }
                m += len;
            } while (m <= mStop);
            return x | err >> 31;
        } finally {
            bits = b;
            count = c;
            p = q;
            length = m;
        }
    }

    /**
     * Fills {@code bytes[0..split)} from {@code symbols[0..split)}: markers (only before {@code markerEnd}) resolved
     * from {@code window} (null if there are none), the rest narrowed. For a decode's results after it returned.
     */
    static void complete(char[] symbols, int split, int markerEnd, byte[] window, byte[] bytes) {
        int resolved = Math.min(markerEnd, split);
        if (resolved > 0) {
            resolve(symbols, 0, resolved, window, bytes, 0);
        }
        narrow(symbols, resolved, split, bytes, resolved);
    }

    /** The output of the last decode as a new array, its markers resolved from {@code window} (null if none). */
    byte[] toArray(byte[] window) {
        complete(out, split, markerEnd, window, bytes);
        return java.util.Arrays.copyOf(bytes, length);
    }

    /**
     * Resolves {@code src[from..to)} into bytes at {@code dst[at..]} with {@code window} (32 KiB, right-aligned as
     * the markers count); the caller has checked that every marker falls in the known part of the window. One table
     * of every symbol's byte (the 256 bytes, then the window) makes it a branch-free lookup per symbol.
     */
    static void resolve(char[] src, int from, int to, byte[] window, byte[] dst, int at) {
        // A table lookup per symbol measured 2.2x faster than narrowing with a rarely taken branch to the window
        // (1.4 against 0.6 GB/s, JDK 25, 2026-11-28) and faster than narrowing and then patching blocks with markers.
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
