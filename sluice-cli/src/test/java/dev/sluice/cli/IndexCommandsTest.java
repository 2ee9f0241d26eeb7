package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice index} and {@code sluice extract}, in-process. */
@Timeout(60)
class IndexCommandsTest {

    @TempDir
    Path dir;

    private Path gz(byte[] data) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(b)) {
            z.write(data);
        }
        Path p = dir.resolve("d.gz");
        Files.write(p, b.toByteArray());
        return p;
    }

    @Test
    void indexThenExtractRanges() throws IOException {
        byte[] data = new byte[3_000_000];
        Random r = new Random(5);
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) ('a' + r.nextInt(4));
        }
        Path gz = gz(data);
        Path out = dir.resolve("out");
        // No index saved yet: built in memory.
        String[] run = MainTest.run("extract", gz.toString(), "--offset", "1234567", "--length", "70000", "-o",
                out.toString());
        assertEquals("0", run[0], run[2]);
        assertArrayEquals(Arrays.copyOfRange(data, 1234567, 1234567 + 70000), Files.readAllBytes(out));
        for (String format : new String[] {"sluice", "indexed_gzip", "gztool"}) {
            run = MainTest.run("index", "--spacing", "100000", "--format", format, gz.toString());
            assertEquals("0", run[0], run[2]);
            Path saved = dir.resolve(format.equals("sluice") ? "d.gz.sgzi" : format.equals("gztool") ? "d.gzi"
                    : "d.gz.gzidx");
            assertTrue(Files.isRegularFile(saved), run[2]);
            run = MainTest.run("extract", gz.toString(), "-s", "2999990", "-n", "100", "-i", saved.toString(), "-o",
                    out.toString());
            assertEquals("0", run[0], run[2]);
            assertArrayEquals(Arrays.copyOfRange(data, 2999990, 3_000_000), Files.readAllBytes(out));
        }
        run = MainTest.run("extract", gz.toString(), "-o", out.toString());
        assertArrayEquals(data, Files.readAllBytes(out));
    }

    /** Issue 23: gztool's index beside the file (a.gz -> a.gzi) is found and used. */
    @Test
    void extractUsesGztoolsIndexBesideTheFile() throws Exception {
        // The fixture sluice-core's gztool interop test reads (made by make-gztool-fixture.sh there); tests run in
        // the module's directory.
        Path fixtures = Path.of("../sluice-core/src/test/resources/dev/sluice/gzip/index");
        Path gz = dir.resolve("t.gz");
        Files.copy(fixtures.resolve("two-members-gztool.gz"), gz);
        byte[] data;
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(gz))) {
            data = in.readAllBytes();
        }
        Path out = dir.resolve("out");
        Files.copy(fixtures.resolve("two-members-gztool.gzi"), dir.resolve("t.gzi"));
        String[] run = MainTest.run("extract", gz.toString(), "-s", "2400000", "-n", "5000", "-o", out.toString());
        assertEquals("0", run[0], run[2]);
        assertArrayEquals(Arrays.copyOfRange(data, 2400000, 2405000), Files.readAllBytes(out));
        // It is that index that was used: a damaged one is an error, not a silent rebuild.
        Files.write(dir.resolve("t.gzi"), Arrays.copyOf(Files.readAllBytes(dir.resolve("t.gzi")), 30));
        run = MainTest.run("extract", gz.toString(), "-s", "2400000", "-n", "5000", "-o", out.toString());
        assertEquals("2", run[0], run[2]);
        assertTrue(run[2].contains("gztool index cut short"), run[2]);
    }

    /** Issue 23: a negative or overflowing offset or length is a usage error, not a request for the rest. */
    @Test
    void negativeOrOverflowingRangesAreUsageErrors() throws IOException {
        Path gz = gz(new byte[1000]);
        Path out = dir.resolve("out");
        for (String[] range : new String[][] {{"-n", "-7"}, {"-s", "-1"}, {"--length", "-1"},
                {"-n", "9223372036854775808"}, {"-s", "99999999999999999999"}, {"-n", "0x10"}}) {
            String[] run = MainTest.run("extract", gz.toString(), range[0], range[1], "-o", out.toString());
            assertEquals("2", run[0], String.join(" ", range) + ": " + run[2]);
            assertTrue(run[2].startsWith("sluice: "), run[2]);
            assertTrue(run[2].contains("Try 'sluice extract --help'"), run[2]);
            assertTrue(!Files.exists(out), "nothing written for " + String.join(" ", range));
        }
        String[] run = MainTest.run("extract", gz.toString(), "-s", "990", "-n", "9223372036854775807", "-o",
                out.toString());
        assertEquals("0", run[0], run[2]);
        assertEquals(10, Files.size(out), "offset + length past Long.MAX_VALUE is cut at the end");
    }

    @Test
    void troubleIsOneLineAndExitTwo() throws IOException {
        Path notGz = dir.resolve("x.gz");
        Files.writeString(notGz, "not gzip at all");
        String[] run = MainTest.run("index", notGz.toString());
        assertEquals("2", run[0]);
        assertTrue(run[2].startsWith("sluice: not gzip"), run[2]);
        assertTrue(!run[2].contains("\tat "), run[2]);
        run = MainTest.run("index", "--format", "zip", notGz.toString());
        assertEquals("2", run[0]);
        run = MainTest.run("extract", "--help");
        assertTrue(run[1].contains("a usage error"), run[1]);
        assertEquals("0", run[0]);
        assertTrue(run[1].contains("--offset"), run[1]);
    }
}
