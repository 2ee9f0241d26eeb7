package dev.sluice.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.cli.report.Report.Outcome;
import dev.sluice.cli.report.Report.Recommendation;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VerdictsTest {

    /** A result whose repetitions took exactly the time that gives {@code mbs} MB/s for a 1 MB op. */
    static Result r(String variant, String param, double mbs) {
        double nanos = 1_000_000 * 1e3 / mbs;
        return Result.of(variant, param, 1_000_000, new double[] {nanos * 1.1, nanos, nanos * 0.9}, null);
    }

    @Test
    void statsAreMinMedianMaxOfThroughput() {
        Result x = Result.of("v", "p", 1_000_000, new double[] {2e6, 1e6, 4e6}, null);
        assertEquals(250, x.mbPerSec().min());
        assertEquals(500, x.mbPerSec().median());
        assertEquals(1000, x.mbPerSec().max());
        assertEquals(2e6, x.nanosPerOp().median());
        assertEquals(3, x.samples());
        Result even = Result.of("v", "p", 1_000_000, new double[] {1e6, 2e6, 4e6, 8e6}, null);
        assertEquals(375, even.mbPerSec().median()); // (250 + 500) / 2: the median of the speeds, not of the times
    }

    @Test
    void aFailedCaseHasNoNumbers() {
        Result x = Result.of("v", "p", 10, null, "IOException: boom");
        assertTrue(!x.measured());
        assertEquals("IOException: boom", x.error());
    }

    @Test
    void theRuleIsHalfTheClaimedAdvantage() {
        assertEquals(2.0, Verdicts.threshold(3));
        assertEquals(1.15, Verdicts.threshold(1.3), 1e-12);
        assertEquals(Outcome.HELD, Verdicts.ratioVerdict("c", 3, "3x", 2.0, "w").outcome());
        assertEquals(Outcome.DID_NOT_HOLD, Verdicts.ratioVerdict("c", 3, "3x", 1.99, "w").outcome());
        Verdict none = Verdicts.ratioVerdict("c", 3, "3x", null, "the JDK side");
        assertEquals(Outcome.INCONCLUSIVE, none.outcome());
        assertNull(none.measured());
        assertTrue(none.summary().contains("the JDK side"), none.summary());
    }

    @Test
    void e1ComparesTheFastestUnsynchronizedCopyWithTheJdk() {
        List<Result> rs = List.of(r("JDK Buffered*Stream", "copy", 100), r("plain 8 KiB array", "copy", 250),
                r("Okio buffer()", "copy", 180), r("JDK Buffered*Stream", "read", 1));
        Verdict v = Verdicts.judge("E1", rs).get(0);
        assertEquals(Outcome.HELD, v.outcome());
        assertEquals(2.5, v.measured(), 1e-9);
        assertTrue(v.summary().contains("plain 8 KiB array"), v.summary());
        Verdict not = Verdicts.judge("E1", List.of(r("JDK Buffered*Stream", "copy", 100), r("x", "copy", 150))).get(0);
        assertEquals(Outcome.DID_NOT_HOLD, not.outcome());
        assertEquals(Outcome.INCONCLUSIVE, Verdicts.judge("E1", List.of(r("x", "copy", 150))).get(0).outcome());
    }

    @Test
    void e2JudgesBuffersAboveTwoKibAndMidSizedArrays() {
        List<Result> rs = new ArrayList<>();
        for (String array : List.of("array 8 B", "array 512 B", "array 1 KiB", "array 64 KiB")) {
            rs.add(r("JDK buffer 512 B", array, 100));
            rs.add(r("JDK buffer 2 KiB", array, 100));
            rs.add(r("JDK buffer 8 KiB", array, array.equals("array 64 KiB") ? 200 : 150));
        }
        List<Verdict> v = Verdicts.judge("E2", rs);
        assertEquals(Outcome.DID_NOT_HOLD, v.get(0).outcome(), v.get(0).summary()); // 8 KiB gains 50% on small reads
        assertEquals(1.5, v.get(0).measured(), 1e-9);
        assertEquals(Outcome.DID_NOT_HOLD, v.get(1).outcome(), v.get(1).summary()); // 150 vs 200: 75% of best
        assertEquals(0.75, v.get(1).measured(), 1e-9);
        List<Result> flat = new ArrayList<>();
        for (String array : List.of("array 8 B", "array 512 B", "array 64 KiB")) {
            flat.add(r("JDK buffer 2 KiB", array, 100));
            flat.add(r("JDK buffer 8 KiB", array, 105));
        }
        List<Verdict> w = Verdicts.judge("E2", flat);
        assertEquals(Outcome.HELD, w.get(0).outcome());
        assertEquals(Outcome.HELD, w.get(1).outcome());
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
        Verdict v = Verdicts.judge("E3", rs).get(0);
        assertEquals(1.2, v.measured(), 1e-9); // sqrt(1.44 * 1): the 5 MB file does not count
        assertEquals(Outcome.HELD, v.outcome());
    }

    @Test
    void e4CountsTheCellsWhereChannelsNewReaderIsFastest() {
        List<Result> rs = List.of(
                r("Channels.newReader", "Latin-1 4 KiB", 99), r("Files.newBufferedReader", "Latin-1 4 KiB", 100),
                r("Channels.newReader", "Japanese 4 KiB", 50), r("Files.newBufferedReader", "Japanese 4 KiB", 100),
                r("Channels.newReader", "Japanese 5 MB", 120), r("InputStreamReader(FileInputStream)", "Japanese 5 MB", 100));
        Verdict v = Verdicts.judge("E4", rs).get(0);
        assertEquals(Outcome.HELD, v.outcome(), v.summary()); // within 3% in the first cell, fastest in the third
        assertTrue(v.summary().contains("2 of 3"), v.summary());
    }

    @Test
    void e5NeedsTheBigBufferToBeatTheDefaultAndMatchTheBufferedStack() {
        List<Result> rs = List.of(r("GZIPInputStream (512 B default)", "strategies", 100),
                r("GZIPInputStream over BufferedInputStream", "strategies", 120),
                r("GZIPInputStream 64 KiB buffer", "strategies", 118));
        assertEquals(Outcome.HELD, Verdicts.judge("E5", rs).get(0).outcome());
        List<Result> worse = List.of(r("GZIPInputStream (512 B default)", "strategies", 100),
                r("GZIPInputStream over BufferedInputStream", "strategies", 150),
                r("GZIPInputStream 64 KiB buffer", "strategies", 120));
        assertEquals(Outcome.DID_NOT_HOLD, Verdicts.judge("E5", worse).get(0).outcome());
    }

    @Test
    void e6AndE7AreRatioClaims() {
        Verdict e6 = Verdicts.judge("E6", List.of(r("JDK BufferedInputStream", "every 512 B", 100),
                r("BufferedInputStream + O(1) available()", "every 512 B", 300))).get(0);
        assertEquals(Outcome.DID_NOT_HOLD, e6.outcome()); // 3x < 4.75x
        Verdict e7 = Verdicts.judge("E7", List.of(r("loop 4 KiB", "copy", 100), r("loop 8 KiB", "copy", 116))).get(0);
        assertEquals(Outcome.HELD, e7.outcome());
        assertEquals(1.16, e7.measured(), 1e-9);
    }

    @Test
    void bufferSizeRecommendationKeepsTheDefaultUnlessAnotherWinsClearly() {
        List<Result> rs = new ArrayList<>();
        for (String array : List.of("array 8 B", "array 512 B")) {
            rs.add(r("Sluice buffer 8 KiB", array, 103));
            rs.add(r("Sluice buffer 64 KiB", array, 100));
        }
        Optional<Recommendation> keep = Recommendations.bufferSize(new Verdicts.Table(rs));
        assertEquals("65536", keep.orElseThrow().value());
        assertTrue(keep.get().advice().startsWith("Keep FastBuffered*Stream's default buffer at the built-in 64 KiB"),
                keep.get().advice());
        // r() spreads about +-10%: 130 (min ~118) clears 100 (max ~111).
        rs.add(r("Sluice buffer 1 MiB", "array 8 B", 130));
        rs.add(r("Sluice buffer 1 MiB", "array 512 B", 130));
        Recommendation change = Recommendations.bufferSize(new Verdicts.Table(rs)).orElseThrow();
        assertEquals("1048576", change.value());
        assertEquals("-Dsluice.io.bufferSize=1048576", change.jvmFlag());
        assertEquals(30.0, change.marginPercent(), 1e-9);
        assertTrue(Recommendations.bufferSize(new Verdicts.Table(List.of())).isEmpty());
    }

    @Test
    void aFasterMedianWithOverlappingSpreadsKeepsTheDefault() {
        java.util.Map<Long, Report.Stats> score = new java.util.LinkedHashMap<>();
        score.put(65536L, new Report.Stats(80, 100, 140));
        score.put(8192L, new Report.Stats(90, 120, 150));   // +20% by median, but 90 < 140
        Recommendation r = Recommendations.sized("sluice.x", 65536, "the x", score, "b").orElseThrow();
        assertEquals("65536", r.value());
        assertTrue(r.advice().contains("spreads overlap"), r.advice());
        score.put(8192L, new Report.Stats(141, 150, 160));
        assertEquals("8192", Recommendations.sized("sluice.x", 65536, "the x", score, "b").orElseThrow().value());
    }

    @Test
    void sizedVariantsAreReadFromEitherEndOfTheName() {
        Verdicts.Table t = new Verdicts.Table(List.of(r("512 B input buffer", "input buffer sweep", 100),
                r("64 KiB input buffer", "input buffer sweep", 130), r("loop 8 KiB", "copy", 90),
                r("Files.copy", "copy", 500)));
        assertEquals(java.util.Set.of(512L, 65536L), Recommendations.bySize(t, "input buffer sweep").keySet());
        assertEquals(130.0, Recommendations.bySize(t, "input buffer sweep").get(65536L).median(), 1e-9);
        assertEquals(java.util.Set.of(8192L), Recommendations.bySize(t, "copy").keySet());
        Recommendation gz = Recommendations.sized("sluice.gzip.inputBufferSize", 65536, "x",
                Recommendations.bySize(t, "input buffer sweep"), "E5").orElseThrow();
        assertEquals("65536", gz.value());
        Recommendation copy = Recommendations.sized("sluice.copy.bufferSize", 65536, "x",
                Recommendations.bySize(t, "copy"), "E7").orElseThrow();
        assertEquals("8192", copy.value(), "the default was not measured: the best measured size");
    }

    @Test
    void propertiesAreRecommendedOnlyWhenTheirClassIsInTheBuild() {
        assertTrue(Recommendations.present("dev.sluice.io.FastBufferedInputStream"));
        assertTrue(!Recommendations.present("dev.sluice.no.Such"));
    }
}
