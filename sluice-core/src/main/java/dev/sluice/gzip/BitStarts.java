package dev.sluice.gzip;

import java.util.Arrays;

/**
 * Starting a raw-deflate engine at a block boundary {@code k} bits into a byte (an index checkpoint), with any
 * engine: the one owner of how, for the index's channel and the stream's parallel pieces. Stateless.
 *
 * <p>Shifting the input by {@code k} bits does not work: a later stored block aligns to the file's byte boundaries,
 * not the shifted ones (pigz's empty stored blocks break it at once). Instead the engine first gets empty, non-final
 * DEFLATE blocks whose length is {@code k} modulo 8, their last bits written into the low {@code k} bits of the
 * checkpoint's byte, which then goes in unshifted with the rest. They decode to nothing and cost at most 93 bits.
 */
final class BitStarts {
    private BitStarts() {}

    /** The longest run of empty blocks, in bytes: room a caller leaves in front of the checkpoint's byte. */
    static final int MAX_PREFIX = 16;

    /**
     * For k = 1..7: empty non-final DEFLATE blocks, {@code 8q + k} bits long, in {@code q + 1} bytes (the high
     * {@code 8 - k} bits of the last byte zero). An empty fixed-Huffman block is 10 bits; an empty dynamic block
     * (only end-of-block, code length 1; 19 code-length codes) is 93 bits; 5 + 2j covers the odd residues.
     */
    private static final byte[][] EMPTY_BLOCKS = new byte[8][];

    static {
        for (int k = 1; k < 8; k++) {
            Bits b = new Bits();
            int fixed = (k % 2 == 0) ? k / 2 : ((k - 5) & 7) / 2;
            if (k % 2 != 0) {
                emptyDynamic(b);
            }
            for (int i = 0; i < fixed; i++) {
                b.put(0, 1).put(1, 2).put(0, 7); // BFINAL 0, BTYPE 01, end-of-block (7 zero bits)
            }
            if ((b.n & 7) != k || (b.n + 7) >>> 3 > MAX_PREFIX) {
                throw new AssertionError("empty blocks for " + k + " are " + b.n + " bits");
            }
            EMPTY_BLOCKS[k] = Arrays.copyOf(b.bytes, (b.n + 7) >>> 3);
        }
    }

    /**
     * The input that starts an engine {@code k} (1..7) bits into a byte whose value is {@code first}: the empty
     * blocks, the last of their bytes merged with {@code first}. The rest of the data follows from the next byte.
     */
    static byte[] prefix(int k, byte first) {
        byte[] p = EMPTY_BLOCKS[k].clone();
        p[p.length - 1] |= (byte) (first & (0xff << k));
        return p;
    }

    /**
     * In place: writes the empty blocks for a start {@code k} (0..7) bits into {@code b[at]} so that they end in
     * {@code b[at]} (whose low {@code k} bits they replace), and returns where the engine's input now begins
     * ({@code at} itself when {@code k} is 0). {@code at} must be at least {@link #MAX_PREFIX}.
     */
    static int prime(byte[] b, int at, int k) {
        if (k == 0) {
            return at;
        }
        byte[] e = EMPTY_BLOCKS[k];
        int start = at - (e.length - 1);
        System.arraycopy(e, 0, b, start, e.length - 1);
        b[at] = (byte) ((b[at] & (0xff << k)) | e[e.length - 1]);
        return start;
    }

    /** Bytes {@link #end} may write after {@code at}: room a caller leaves behind the input. */
    static final int MAX_SUFFIX = 3;

    /**
     * In place: ends the deflate data {@code k} (0..7) bits into {@code b[at]} (at a block boundary, where a checkpoint
     * is) with an empty final fixed-Huffman block (10 bits: BFINAL 1, BTYPE 01, end-of-block), replacing the bits
     * from there on, and returns the end of the input. An engine given the data up to there must finish exactly at
     * that end with nothing left over: if the boundary is not a block boundary, it will not.
     */
    static int end(byte[] b, int at, int k) {
        int v = 3 << k; // bits 1, 1 (BFINAL, BTYPE's low bit), then eight zeros, from bit k on
        int end = at + ((k + 10 + 7) >>> 3);
        b[at] = (byte) ((b[at] & ((1 << k) - 1)) | v);
        for (int i = at + 1; i < end; i++) {
            b[i] = (byte) (v >>> (8 * (i - at)));
        }
        return end;
    }

    /** An empty dynamic block: literal code {256: 1 bit}, distance code {0: 1 bit}, code-length code {1, 18}. */
    private static void emptyDynamic(Bits b) {
        b.put(0, 1).put(2, 2).put(0, 5).put(0, 5).put(19 - 4, 4); // BFINAL 0, BTYPE 10, HLIT 257, HDIST 1, HCLEN 19
        int[] order = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
        for (int sym : order) {
            b.put(sym == 1 || sym == 18 ? 1 : 0, 3);
        }
        // Canonical codes: symbol 1 -> 0, symbol 18 -> 1. 256 zero lengths (138 + 118), then 1 for 256, 1 for dist 0.
        b.put(1, 1).put(138 - 11, 7).put(1, 1).put(118 - 11, 7).put(0, 1).put(0, 1);
        b.put(0, 1); // end-of-block: the only literal/length code, 0
    }

    /** LSB-first bit writer for the empty blocks. */
    private static final class Bits {
        final byte[] bytes = new byte[32];
        int n;

        Bits put(int value, int count) {
            for (int i = 0; i < count; i++, n++) {
                bytes[n >>> 3] |= (byte) (((value >>> i) & 1) << (n & 7));
            }
            return this;
        }
    }
}
