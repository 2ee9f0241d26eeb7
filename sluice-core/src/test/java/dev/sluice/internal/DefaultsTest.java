package dev.sluice.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DefaultsTest {

    @Test
    void sizesParseWithBinaryUnits() {
        assertEquals(4096, Defaults.parseSize("4096"));
        assertEquals(65536, Defaults.parseSize("64k"));
        assertEquals(65536, Defaults.parseSize("64K"));
        assertEquals(1 << 20, Defaults.parseSize("1m"));
        assertEquals(1L << 30, Defaults.parseSize("1g"));
        assertThrows(NumberFormatException.class, () -> Defaults.parseSize(""));
        assertThrows(NumberFormatException.class, () -> Defaults.parseSize("k"));
        assertThrows(NumberFormatException.class, () -> Defaults.parseSize("12q"));
    }

    @Test
    void aBadPropertyFallsBackInsteadOfFailing() {
        String name = "sluice.test.defaults." + System.nanoTime();
        assertEquals(7, Defaults.intProperty(name, 7));
        for (String bad : new String[] {"", "0", "-5", "lots", "3g", "99999999999"}) {
            System.setProperty(name, bad);
            assertEquals(7, Defaults.intProperty(name, 7), bad);
        }
        System.setProperty(name, " 16k ");
        assertEquals(16384, Defaults.intProperty(name, 7));
        // With a minimum of 0, 0 is a value; below the minimum still falls back.
        System.setProperty(name, "0");
        assertEquals(0, Defaults.intProperty(name, 0, 7));
        System.setProperty(name, "-1");
        assertEquals(7, Defaults.intProperty(name, 0, 7));
        System.clearProperty(name);
    }

    @Test
    void checksAnswerWithTheJdkExceptionTypesAndTheValue() {
        assertEquals("x == null", assertThrows(NullPointerException.class, () -> Checks.notNull(null, "x")).getMessage());
        assertEquals("size <= 0: -3",
                assertThrows(IllegalArgumentException.class, () -> Checks.positive(-3, "size")).getMessage());
        assertEquals("n < 0: -1",
                assertThrows(IllegalArgumentException.class, () -> Checks.nonNegative(-1L, "n")).getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> Checks.checkRange(10, 5, Integer.MAX_VALUE));
        assertEquals("Stream closed", Checks.streamClosed().getMessage());
    }
}
