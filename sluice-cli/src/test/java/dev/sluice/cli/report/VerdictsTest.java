package dev.sluice.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.cli.report.Report.Outcome;
import dev.sluice.cli.report.Report.Recommendation;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Sample;
import dev.sluice.cli.report.Report.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerdictsTest {
    static final int FORKS = 3;
    static final int ROUNDS = 6;

    /**
     * A result of 3 forks x 6 rounds whose speed is {@code mbs} MB/s times a fixed, small wobble per round (+-2%,
     * the same for every variant in a round, as load from elsewhere is) and per variant (+-1%).
     */
    static Result r(String variant, String param, double mbs) {
        List<Sample> s = new ArrayList<>();
        int salt = Math.floorMod(variant.hashCode() * 31 + param.hashCode(), 7);
        for (int f = 0; f < FORKS; f++) {
            for (int k = 0; k < ROUNDS; k++) {
                double load = 1 + 0.02 * Math.sin(f * 7 + k);
                double own = 1 + 0.01 * Math.cos(k * 3 + f + salt);
                long bytes = 1_000_000;
                long nanos = Math.round(bytes * 1e3 / (mbs * load * own));
                s.add(new Sample(f, k, 0, nanos, bytes, 1));
            }
        }
        return Result.of(variant, param, 1_000_000, s, null);
    }

    static List<Verdict> judge(String id, List<Result> rs) {
        return Verdicts.judge(id, rs, "page-cached");
    }

    @Test
    void statsAreOverEverySample() {
        Result x = r("v", "p", 500);
        assertEquals(FORKS, x.forks());
        assertEquals(FORKS * ROUNDS, x.samples().size());
        assertEquals(500, x.mbPerSec().median(), 15);
        assertTrue(x.mbPerSecCi()[0] <= x.mbPerSec().median() && x.mbPerSec().median() <= x.mbPerSecCi()[1]);
        assertTrue(x.mbPerSec().min() < x.mbPerSec().max());
        Result failed = Result.of("v", "p", 10, List.of(), "IOException: boom");
        assertTrue(!failed.measured());
        assertEquals("IOException: boom", failed.error());
    }

    @Test
    void oneRuleForEveryClaim() {
        assertEquals(0.95 * 2, Verdicts.threshold(3), 1e-12);
        assertEquals(0.95 * 1.15, Verdicts.threshold(1.3), 1e-12);
        assertEquals(0.95, Verdicts.threshold(1), 1e-12);
        assertEquals(Outcome.HELD, Verdicts.outcome(1.9, 2.5, 1.9));
        assertEquals(Outcome.DID_NOT_HOLD, Verdicts.outcome(1.2, 1.89, 1.9));
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.outcome(1.8, 2.0, 1.9));
        Verdict none = Verdicts.ratioVerdict("c", 3, "3x", List.of(), "the JDK side", "page-cached");
        assertEquals(Outcome.INCONCLUSIVE, none.outcome());
        assertNull(none.measured());
        assertTrue(none.summary().contains("the JDK side"), none.summary());
    }

    @Test
    void e1ComparesStreamsWithStreamsNotWithTheBulkLoop() {
        List<Result> rs = List.of(r("JDK Buffered*Stream", "copy", 100), r("plain 8 KiB array", "copy", 900),
                r("Okio buffer()", "copy", 250), r("JDK Buffered*Stream", "read", 1));
        Verdict v = judge("E1", rs).get(0);
        assertEquals(Outcome.HELD, v.outcome(), v.summary());
        assertEquals(2.5, v.measured(), 0.05);
        assertTrue(v.ci()[0] <= 2.5 && 2.5 <= v.ci()[1], v.summary());
        assertTrue(v.summary().startsWith("claimed ~3x, measured 2.5"), v.summary());
        assertTrue(v.summary().contains("Okio buffer()") && !v.summary().contains("plain"), v.summary());
        Verdict not = judge("E1", List.of(r("JDK Buffered*Stream", "copy", 100), r("x", "copy", 150))).get(0);
        assertEquals(Outcome.DID_NOT_HOLD, not.outcome());
        assertEquals(Outcome.INCONCLUSIVE, judge("E1", List.of(r("x", "copy", 150))).get(0).outcome());
        // At the threshold itself (1.9x) the interval straddles it: inconclusive here.
        Verdict edge = judge("E1", List.of(r("JDK Buffered*Stream", "copy", 100), r("x", "copy", 190))).get(0);
        assertEquals(Outcome.INCONCLUSIVE, edge.outcome(), edge.summary());
    }

    @Test
    void e2JudgesBuffersAboveTwoKibAndMidSizedArrays() {
        List<Result> rs = new ArrayList<>();
        for (String array : List.of("array 8 B", "array 512 B", "array 1 KiB", "array 64 KiB")) {
            rs.add(r("JDK buffer 512 B", array, 100));
            rs.add(r("JDK buffer 2 KiB", array, 100));
            rs.add(r("JDK buffer 8 KiB", array, array.equals("array 64 KiB") ? 200 : 150));
        }
        List<Verdict> v = judge("E2", rs);
        assertEquals(Outcome.DID_NOT_HOLD, v.get(0).outcome(), v.get(0).summary()); // 8 KiB gains 50% on small reads
        assertEquals(1 / 1.5, v.get(0).measured(), 0.02);
        assertEquals(Outcome.DID_NOT_HOLD, v.get(1).outcome(), v.get(1).summary()); // 150 vs 200
        assertEquals(0.75, v.get(1).measured(), 0.02);
        List<Result> flat = new ArrayList<>();
        for (String array : List.of("array 8 B", "array 512 B", "array 64 KiB")) {
            flat.add(r("JDK buffer 2 KiB", array, 100));
            flat.add(r("JDK buffer 8 KiB", array, 101));
        }
        List<Verdict> w = judge("E2", flat);
        assertEquals(Outcome.HELD, w.get(0).outcome(), w.get(0).summary());
        assertEquals(Outcome.HELD, w.get(1).outcome(), w.get(1).summary());
    }

    @Test
    void e2SizesParse() {
        assertEquals(65536, Verdicts.bufferOf("Sluice buffer 64 KiB"));
        assertEquals(4 << 20, Verdicts.bufferOf("JDK buffer 4 MiB"));
        assertEquals(512, Verdicts.arrayOf("array 512 B"));
        assertEquals(500_000, Verdicts.parseSize("500 KB"));
        assertEquals(-1, Verdicts.parseSize("lots"));
    }

    @Test
    void e3UsesFilesOfFourKibAndLess() {
        List<Result> rs = List.of(
                r("FileInputStream", "file 16 B", 1), r("FileChannel.open + Channels.newInputStream", "file 16 B", 1.44),
                r("FileInputStream", "file 4 KiB", 100), r("FileChannel.open + Channels.newInputStream", "file 4 KiB", 100),
                r("FileInputStream", "file 5 MB", 100), r("FileChannel.open + Channels.newInputStream", "file 5 MB", 10));
        Verdict v = judge("E3", rs).get(0);
        assertEquals(1.2, v.measured(), 0.02); // sqrt(1.44 * 1): the 5 MB file does not count
        assertEquals(Outcome.HELD, v.outcome(), v.summary());   // threshold 0.95 * 1.15 = 1.0925
    }

    @Test
    void e4ComparesChannelsNewReaderWithTheBetterOtherJdkReader() {
        List<Result> rs = List.of(
                r("Channels.newReader", "Latin-1 4 KiB", 99), r("Files.newBufferedReader", "Latin-1 4 KiB", 100),
                r("Channels.newReader", "Japanese 5 MB", 120), r("InputStreamReader(FileInputStream)", "Japanese 5 MB", 100));
        Verdict v = judge("E4", rs).get(0);
        assertEquals(Math.sqrt(0.99 * 1.2), v.measured(), 0.02);
        assertEquals(Outcome.HELD, v.outcome(), v.summary());
    }

    @Test
    void e5NeedsTheBigBufferToBeFastest() {
        List<Result> rs = List.of(r("GZIPInputStream (512 B default)", "strategies", 100),
                r("GZIPInputStream over BufferedInputStream", "strategies", 120),
                r("GZIPInputStream 64 KiB buffer", "strategies", 119));
        assertEquals(Outcome.HELD, judge("E5", rs).get(0).outcome());
        List<Result> worse = List.of(r("GZIPInputStream (512 B default)", "strategies", 100),
                r("GZIPInputStream over BufferedInputStream", "strategies", 150),
                r("GZIPInputStream 64 KiB buffer", "strategies", 120));
        assertEquals(Outcome.DID_NOT_HOLD, judge("E5", worse).get(0).outcome());
    }

    @Test
    void e6AndE7AreRatioClaims() {
        Verdict e6 = judge("E6", List.of(r("JDK BufferedInputStream", "every 512 B", 100),
                r("BufferedInputStream + O(1) available()", "every 512 B", 300))).get(0);
        assertEquals(Outcome.DID_NOT_HOLD, e6.outcome()); // 3x < 0.95 * 4.75x
        Verdict e7 = judge("E7", List.of(r("loop 4 KiB", "copy", 100), r("loop 8 KiB", "copy", 116))).get(0);
        assertEquals(Outcome.HELD, e7.outcome());
        assertEquals(1.16, e7.measured(), 0.02);
    }

    @Test
    void aStrategyIsRecommendedOnlyWhenItWinsClearlyAndInEveryFork() {
        List<Recommendation> out = new ArrayList<>();
        Verdicts.Table clear = new Verdicts.Table(List.of(r("A", "p", 130), r("B", "p", 100), r("C", "p", 50)));
        Recommendations.strategy(out, clear, "p", v -> true, "B", "Use %s", "basis");
        assertEquals("A", out.get(0).choice());
        assertEquals(1.3, out.get(0).ratio(), 0.02);
        Verdicts.Table tie = new Verdicts.Table(List.of(r("A", "p", 100.5), r("B", "p", 100)));
        Recommendations.strategy(out, tie, "p", v -> true, "B", "Use %s", "basis");
        assertEquals(Recommendations.NO_DIFFERENCE, out.get(1).choice());
        assertTrue(out.get(1).advice().contains("the default, B, will do"), out.get(1).advice());
    }

    @Test
    void aWinnerBehindInOneForkIsNoMeasurableDifference() {
        // A ahead by 20% in forks 0 and 1, behind by 5% in fork 2.
        double[][] ratio = {{1.2, 1.2, 1.2}, {1.2, 1.2, 1.2}, {0.95, 0.95, 0.95}};
        assertTrue(!Recommendations.aheadInEveryFork(java.util.Collections.singletonList(ratio)));
        assertTrue(Recommendations.aheadInEveryFork(java.util.Collections.singletonList(new double[][] {{1.1}, {1.01}, {1.2}})));
    }

    @Test
    void keepingTheDefaultPrintsNoFlag() {
        List<Result> rs = new ArrayList<>();
        for (String array : List.of("array 8 B", "array 512 B")) {
            rs.add(r("Sluice buffer 8 KiB", array, 100.3));
            rs.add(r("Sluice buffer 64 KiB", array, 100));
        }
        Recommendation keep = Recommendations.bufferSize(new Verdicts.Table(rs)).orElseThrow();
        assertEquals(Recommendations.NO_DIFFERENCE, keep.choice());
        assertNull(keep.jvmFlag());
        assertTrue(keep.advice().contains("keep FastBuffered*Stream's buffer at the built-in 64 KiB"), keep.advice());
        rs.add(r("Sluice buffer 1 MiB", "array 8 B", 130));
        rs.add(r("Sluice buffer 1 MiB", "array 512 B", 130));
        Recommendation change = Recommendations.bufferSize(new Verdicts.Table(rs)).orElseThrow();
        assertEquals("1048576", change.choice());
        assertEquals("-Dsluice.io.bufferSize=1048576", change.jvmFlag());
        List<Result> best = List.of(r("Sluice buffer 64 KiB", "array 8 B", 150), r("Sluice buffer 8 KiB", "array 8 B", 100));
        Recommendation def = Recommendations.bufferSize(new Verdicts.Table(best)).orElseThrow();
        assertEquals("65536", def.choice());
        assertNull(def.jvmFlag(), "keep the default: no flag");
        assertTrue(Recommendations.bufferSize(new Verdicts.Table(List.of())).isEmpty());
    }

    @Test
    void sweepSizesAreReadFromTheVariantName() {
        Verdicts.Table t = new Verdicts.Table(List.of(r("Sluice 512 B input buffer", "input buffer sweep", 100),
                r("Sluice 64 KiB input buffer", "input buffer sweep", 130), r("loop 8 KiB", "copy", 90)));
        List<Map<String, Result>> cells = Recommendations.sizes(t, "input buffer sweep");
        assertEquals(java.util.Set.of("512", "65536"), cells.get(0).keySet());
        Recommendation gz = Recommendations.sized("sluice.gzip.inputBufferSize", "x", cells, "E5").orElseThrow();
        assertEquals("65536", gz.choice());
        assertNull(gz.jvmFlag());
    }

    @Test
    void propertiesAreRecommendedOnlyWhenTheirClassIsInTheBuild() {
        assertTrue(Recommendations.present("dev.sluice.io.FastBufferedInputStream"));
        assertTrue(!Recommendations.present("dev.sluice.no.Such"));
    }
}
