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
    void combineIsAssociativeAndHandlesEmptyParts() {
        // crc(A + Z + Z) combined as (A + Z) + Z and as A + (Z + Z) must agree, and equal the direct CRC.
        long z = crc(new byte[1 << 16]);
        long one = Crc32s.combine(Crc32s.combine(0x12345678L, z, 1 << 16), z, 1 << 16);
        long two = Crc32s.combine(0x12345678L, Crc32s.combine(z, z, 1 << 16), 1 << 17);
        assertEquals(one, two);
        assertEquals(crc(new byte[1 << 17]), Crc32s.combine(z, z, 1 << 16));
        assertEquals(0x12345678L, Crc32s.combine(0x12345678L, 0, 0));
    }

    private static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }
}
