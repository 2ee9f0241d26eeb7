package dev.sluice.gzip;

/**
 * CRC-32 arithmetic the JDK lacks: {@link #combine}, zlib's {@code crc32_combine}, so that blocks compressed on
 * different threads need no second pass over the data to get the member's CRC.
 */
final class Crc32s {
    private Crc32s() {}

    /** The reversed CRC-32 polynomial (gzip, zlib, {@link java.util.zip.CRC32}). */
    private static final long POLY = 0xedb88320L;

    /**
     * The CRC-32 of A followed by B, given {@code crcA} of A, {@code crcB} of B and B's length. This is zlib's
     * method: appending {@code lenB} zero bytes to A is a linear map over GF(2), applied by repeatedly squaring
     * the 32x32 matrix for one zero bit, so it costs O(log lenB) matrix products and never touches the data.
     */
    static long combine(long crcA, long crcB, long lenB) {
        if (lenB <= 0) {
            return crcA;
        }
        long[] even = new long[32];
        long[] odd = new long[32];
        odd[0] = POLY; // the operator for one zero bit
        long row = 1;
        for (int n = 1; n < 32; n++) {
            odd[n] = row;
            row <<= 1;
        }
        square(even, odd); // two zero bits
        square(odd, even); // four zero bits
        long crc = crcA;
        long len = lenB;
        do {
            // The first square makes the operator for one zero byte, then two, four, ... bytes.
            square(even, odd);
            if ((len & 1) != 0) {
                crc = times(even, crc);
            }
            len >>>= 1;
            if (len == 0) {
                break;
            }
            square(odd, even);
            if ((len & 1) != 0) {
                crc = times(odd, crc);
            }
            len >>>= 1;
        } while (len != 0);
        return crc ^ crcB;
    }

    private static long times(long[] mat, long vec) {
        long sum = 0;
        for (int i = 0; vec != 0; i++, vec >>>= 1) {
            if ((vec & 1) != 0) {
                sum ^= mat[i];
            }
        }
        return sum;
    }

    private static void square(long[] square, long[] mat) {
        for (int n = 0; n < 32; n++) {
            square[n] = times(mat, mat[n]);
        }
    }
}
