package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class GzipHeaderTest {
    @Test
    void minimalIsTenBytesAsGzipWritesForAPipe() {
        assertArrayEquals(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}, GzipHeader.minimal().encode(0));
        assertFalse(GzipHeader.minimal().name().isPresent());
        assertFalse(GzipHeader.minimal().modificationTime().isPresent());
    }

    @Test
    void builderSettersAcceptNullToRemoveAndValueSemanticsHold() {
        GzipHeader a = GzipHeader.builder().name("x").comment("c").extra(new byte[] {1}).name(null).comment(null)
                .extra(null).modificationTime(null).build();
        assertEquals(GzipHeader.minimal(), a);
        assertEquals(GzipHeader.minimal().hashCode(), a.hashCode());
        byte[] extra = {1, 2};
        GzipHeader b = GzipHeader.builder().extra(extra).name("n").build();
        extra[0] = 9; // the builder copied it
        assertArrayEquals(new byte[] {1, 2}, b.extra().orElseThrow());
        b.extra().orElseThrow()[0] = 9; // and so does the getter
        assertArrayEquals(new byte[] {1, 2}, b.extra().orElseThrow());
        assertNotEquals(a, b);
        assertTrue(b.toString().contains("name=n") && b.toString().contains("extra=2 bytes"), b.toString());
        assertEquals(Instant.ofEpochSecond(0xffffffffL), GzipHeader.builder()
                .modificationTime(Instant.ofEpochSecond(0xffffffffL)).build().modificationTime().orElseThrow());
    }

    @Test
    void headerOfAnEmptyStreamIsEof() {
        GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(new byte[0]));
        assertThrows(EOFException.class, in::header);
    }
}
