package dev.sluice.gzip;

import java.util.Objects;

/**
 * CRC-32 arithmetic the JDK lacks: {@link #combine}, zlib's {@code crc32_combine}, so that blocks compressed on
 * different threads need no second pass over the data to get the member's CRC.
 */
final class Crc32s {
    private Crc32s() {}

    /** The reversed CRC-32 polynomial (gzip, zlib, {@link java.util.zip.CRC32}). */
    private static final int POLY = 0xedb88320;

    /**
     * {@code X2N[k]} is x^(2^k) modulo the polynomial, in the reflected bit order of the CRC (x^0 is the top bit),
     * for k in 0..31: the operator for 2^k zero bits, which repeats with period 32 in k for any length that fits a
     * long.
     */
    private static final int[] X2N = new int[32];

    static {
        int p = 1 << 30; // x^1
        X2N[0] = p;
        for (int k = 1; k < 32; k++) {
            X2N[k] = p = multiply(p, p);
        }
    }

    /**
     * The CRC-32 of A followed by B, given {@code crcA} of A, {@code crcB} of B and B's length. This is zlib 1.2.12's
     * method: appending {@code lenB} zero bytes to A multiplies its CRC by x^(8 lenB) modulo the polynomial, a power
     * made of the precomputed x^(2^k) in at most 64 products of 32 steps each, never touching the data. (zlib's
     * earlier matrix-squaring method cost about 40 µs per call, which was 1-2% of a parallel gunzip's CPU time.)
     */
    static long combine(long crcA, long crcB, long lenB) {
        if (lenB <= 0) {
            return crcA;
        }
        int p = 1 << 31; // x^0
        int k = 3; // lenB bytes are 2^3 lenB bits
        for (long n = lenB; n != 0; n >>>= 1, k++) {
            if ((n & 1) != 0) {
                p = multiply(X2N[k & 31], p);
            }
        }
        return (multiply(p, (int) crcA) ^ crcB) & 0xffffffffL;
    }

    /** The byte-at-a-time table of the CRC, and for each top byte of an entry the entry's index (they differ). */
    private static final int[] TABLE = new int[256];
    private static final int[] BY_TOP = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ POLY : c >>> 1;
            }
            TABLE[i] = c;
            BY_TOP[c >>> 24] = i;
        }
    }

    /**
     * The CRC-32 of A, given {@code crc} of A followed by {@code b[off..off+len)}: the byte steps run backwards (each
     * step's table entry is known from its top byte, and the byte then gives the register's low byte), so that bytes
     * an engine wrote after A and the caller drops need no pass over A. Costs about what the bytes' CRC costs.
     */
    static long unappend(long crc, byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        int c = ~(int) crc;
        for (int i = off + len - 1; i >= off; i--) {
            int idx = BY_TOP[c >>> 24];
            c = ((c ^ TABLE[idx]) << 8) | ((idx ^ b[i]) & 0xff);
        }
        return ~c & 0xffffffffL;
    }

    /** {@code a * b} modulo the polynomial, both in the CRC's reflected bit order. */
    private static int multiply(int a, int b) {
        int m = 1 << 31;
        int p = 0;
        while (true) {
            if ((a & m) != 0) {
                p ^= b;
                if ((a & (m - 1)) == 0) {
                    return p;
                }
            }
            m >>>= 1;
            b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1;
        }
    }
}
