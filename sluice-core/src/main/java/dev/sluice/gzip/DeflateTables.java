package dev.sluice.gzip;

import java.util.Arrays;

/**
 * The DEFLATE (RFC 1951) code tables and Huffman decoding tables, the one owner for the Java code that reads deflate
 * streams: {@link GzipIndexScanner} (block walk for the index), {@link MarkerInflater} (decoding before the window is
 * known) and {@link BlockFinder} (block starts inside a compressed stream). Stateless; the arrays are never written
 * after class initialisation.
 *
 * <p>Table format (two levels): a direct entry is {@code symbol << 8 | length}; a link to a subtable is
 * {@code offset << 8 | 0x40 | subBits}; a subtable entry is {@code symbol << 8 | (length - primaryBits)}; 0 marks a
 * code that does not exist (only in the incomplete codes zlib allows: a single code of length 1, or no codes), which
 * is an error only when met.
 */
final class DeflateTables {
    private DeflateTables() {}

    static final int[] LENGTH_BASE = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83,
        99, 115, 131, 163, 195, 227, 258};
    static final int[] LENGTH_EXTRA = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5,
        5, 0};
    static final int[] DIST_BASE = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
        1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
    static final int[] DIST_EXTRA = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
        12, 12, 13, 13};
    /** The order in which a dynamic block's header gives the code-length code's lengths. */
    static final int[] CL_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

    /** Primary bits of the literal/length and distance tables. */
    static final int LIT_BITS = 10;
    static final int DIST_BITS = 8;
    /** Table sizes that fit any code the header can describe (primary part and every subtable). */
    static final int LIT_SIZE = (1 << LIT_BITS) + 288 * 32;
    static final int DIST_SIZE = (1 << DIST_BITS) + 32 * 128;

    /** The fixed-Huffman block's tables (with zlib's 32 distance codes: 30 and 31 exist but are invalid). */
    static final int[] FIXED_LIT = new int[LIT_SIZE];
    static final int[] FIXED_DIST = new int[DIST_SIZE];

    /** Verdicts of {@link #build}. */
    static final int OK = 0;
    static final int OVER_SUBSCRIBED = 1;
    static final int INCOMPLETE = 2;

    static {
        byte[] lens = new byte[288 + 32];
        for (int i = 0; i < 288; i++) {
            lens[i] = (byte) (i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8);
        }
        Arrays.fill(lens, 288, 320, (byte) 5);
        if (build(FIXED_LIT, LIT_BITS, lens, 0, 288, false) != OK
                || build(FIXED_DIST, DIST_BITS, lens, 288, 32, false) != OK) {
            throw new AssertionError("fixed tables");
        }
    }

    /**
     * zlib's verdict on a code (inftrees.c) without building it: {@link #OVER_SUBSCRIBED}, {@link #INCOMPLETE} (for a
     * code-length code any incomplete code, for the others an incomplete code other than a single code of length 1 or
     * no code at all), else {@link #OK}. {@code counts[l]} is the number of codes of length l (index 0 ignored).
     */
    static int verdict(int[] counts, boolean codeLengthCode) {
        int left = 1;
        int max = 0;
        for (int l = 1; l < 16; l++) {
            left = (left << 1) - counts[l];
            if (left < 0) {
                return OVER_SUBSCRIBED;
            }
            if (counts[l] != 0) {
                max = l;
            }
        }
        // Incomplete: left > 0, and a code-length code or more than a single code of length 1. zlib lets an empty
        // code-length code through and then decodes every length as 0 with one bit, which always ends in "missing
        // end-of-block": refusing it at once gives the same verdict for whole input. Computed without a branch: the
        // block finder's filters make an incomplete code rare, and C2 compiles a branch never seen taken as a trap
        // that throws the compiled table builder away when it is (MarkerInflater's loops' comment).
        int incomplete = -left >> 31 & ((codeLengthCode ? -1 : 0) | (1 - max) >> 31);
        return incomplete & INCOMPLETE;
    }

    /**
     * Builds {@code table} (format in the class comment) for the {@code n} code lengths at {@code lens[off..]} after
     * checking them with {@link #verdict}; returns the verdict, the table being valid only for {@link #OK}.
     */
    static int build(int[] table, int primary, byte[] lens, int off, int n, boolean codeLengthCode) {
        int[] counts = new int[16];
        int max = 0;
        for (int i = 0; i < n; i++) {
            int l = lens[off + i];
            counts[l]++;
            max = Math.max(max, l);
        }
        counts[0] = 0;
        int v = verdict(counts, codeLengthCode);
        if (v != OK) {
            return v;
        }
        int[] next = new int[16];
        for (int l = 1, code = 0; l < 16; l++) {
            code = (code + counts[l - 1]) << 1;
            next[l] = code;
        }
        int size = 1 << primary;
        Arrays.fill(table, 0, size, 0);
        int sub = Math.max(0, max - primary);
        int free = size;
        for (int s = 0; s < n; s++) {
            int l = lens[off + s];
            if (l == 0) {
                continue;
            }
            int rev = Integer.reverse(next[l]++) >>> (32 - l);
            if (l <= primary) {
                int e = s << 8 | l;
                for (int i = rev; i < size; i += 1 << l) {
                    table[i] = e;
                }
            } else {
                int p = rev & (size - 1);
                int link = table[p];
                if ((link & 0x40) == 0) {
                    link = free << 8 | 0x40 | sub;
                    table[p] = link;
                    Arrays.fill(table, free, free + (1 << sub), 0);
                    free += 1 << sub;
                }
                int subOff = link >>> 8;
                int l2 = l - primary;
                int e = s << 8 | l2;
                for (int i = rev >>> primary; i < 1 << sub; i += 1 << l2) {
                    table[subOff + i] = e;
                }
            }
        }
        return OK;
    }
}
