package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class Crc32sTest {
    @Test
    void combineEqualsTheCrcOfTheConcatenation() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < 500; i++) {
            byte[] a = TestData.random(r, r.nextInt(i < 10 ? 3 : 5000));
            byte[] b = TestData.random(r, r.nextInt(i < 20 ? 3 : 70_000));
            CRC32 ab = new CRC32();
            ab.update(a);
            ab.update(b);
            assertEquals(ab.getValue(), Crc32s.combine(crc(a), crc(b), b.length), "seed " + seed + " case " + i);
        }
    }

    @Test
    void unappendGivesTheCrcWithoutTheLastBytes() {
        long seed = new java.util.Random().nextLong();
        java.util.Random r = new java.util.Random(seed);
        for (int t = 0; t < 200; t++) {
            byte[] b = new byte[r.nextInt(300)];
            r.nextBytes(b);
            int cut = r.nextInt(b.length + 1);
            java.util.zip.CRC32 all = new java.util.zip.CRC32();
            all.update(b);
            java.util.zip.CRC32 head = new java.util.zip.CRC32();
            head.update(b, 0, cut);
            org.junit.jupiter.api.Assertions.assertEquals(head.getValue(),
                    Crc32s.unappend(all.getValue(), b, cut, b.length - cut), "seed " + seed + " case " + t);
        }
    }

    @Test
    void combineIsAssociativeAndHandlesEmptyParts() {
        // crc(A + Z + Z) combined as (A + Z) + Z and as A + (Z + Z) must agree, and equal the direct CRC.
        long z = crc(new byte[1 << 16]);
        long one = Crc32s.combine(Crc32s.combine(0x12345678L, z, 1 << 16), z, 1 << 16);
        long two = Crc32s.combine(0x12345678L, Crc32s.combine(z, z, 1 << 16), 1 << 17);
        assertEquals(one, two);
        assertEquals(crc(new byte[1 << 17]), Crc32s.combine(z, z, 1 << 16));
        assertEquals(0x12345678L, Crc32s.combine(0x12345678L, 0, 0));
    }

    /** Against zlib's older matrix-squaring method (kept here as the reference), at lengths up to 2^62. */
    @Test
    void combineAgreesWithTheMatrixMethodAtAnyLength() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            long crcA = r.nextInt() & 0xffffffffL;
            long crcB = r.nextInt() & 0xffffffffL;
            long len = i < 64 ? 1L << i % 63 : r.nextLong() >>> 1 + r.nextInt(63);
            assertEquals(matrixCombine(crcA, crcB, len), Crc32s.combine(crcA, crcB, len),
                    "seed " + seed + " case " + i + " length " + len);
        }
    }

    private static long matrixCombine(long crcA, long crcB, long lenB) {
        if (lenB <= 0) {
            return crcA;
        }
        long[] even = new long[32];
        long[] odd = new long[32];
        odd[0] = 0xedb88320L;
        long row = 1;
        for (int n = 1; n < 32; n++) {
            odd[n] = row;
            row <<= 1;
        }
        square(even, odd);
        square(odd, even);
        long crc = crcA;
        long len = lenB;
        do {
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

    private static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }
}
