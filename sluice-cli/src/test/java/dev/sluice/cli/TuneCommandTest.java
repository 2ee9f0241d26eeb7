package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TuneCommandTest {
    private static double[] m(double median) {
        return new double[] {median * 0.9, median, median * 1.1};
    }

    @Test
    void recommendsTheSizeAfterWhichGrowingGainsLessThanFivePercent() {
        // 4K, 16K, 64K, 256K, 1M, 4M
        assertEquals(3, TuneCommand.recommend(List.of(m(20), m(140), m(440), m(880), m(900), m(915))));
        assertEquals(5, TuneCommand.recommend(List.of(m(20), m(140), m(440), m(880), m(900), m(940)))); // +6.8% over 256K
        assertEquals(0, TuneCommand.recommend(List.of(m(100), m(104), m(103), m(99), m(100), m(101))));
        // a later size that beats the pick by 5% still wins, even after a dip
        assertEquals(5, TuneCommand.recommend(List.of(m(100), m(90), m(101), m(100), m(102), m(110))));
    }

    @Test
    void aBadSizeIsOneLine() {
        String[] r = MainTest.run("tune", "--dir", ".", "--size", "lots");
        assertEquals("2", r[0]);
        assertEquals("sluice: --size: not a size: lots", r[2].strip());
        String[] small = MainTest.run("tune", "--dir", ".", "--size", "4k");
        assertEquals("sluice: --size must be at least 1m: 4k", small[2].strip());
    }
}
