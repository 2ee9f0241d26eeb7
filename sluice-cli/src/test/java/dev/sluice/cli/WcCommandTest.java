package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sluice wc against GNU wc (coreutils, present wherever the build runs) in the C.UTF-8 locale. */
class WcCommandTest {
    private static final long SEED = Long.getLong("sluice.test.seed", 0x3C3CL);

    @TempDir
    static Path dir;
    static List<Path> samples = new ArrayList<>();

    /** Code points that sit on wc's word rules: separators, non-printables, format chars, wide and 4-byte chars. */
    private static final int[] SPECIAL = {
        ' ', '\t', '\n', '\r', 0x0B, '\f', 0x01, 0x7F, 0x85, 0xA0, 0xAD, 0x1680, 0x2000, 0x2007, 0x200A, 0x200B,
        0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF, 0xE000, 0xFFFD, 0x1F600, 0x10FFFF, 0x65E5, 0xE9
    };

    @BeforeAll
    static void makeSamples() throws IOException {
        Random r = new Random(SEED);
        for (int i = 0; i < 6; i++) {
            StringBuilder sb = new StringBuilder();
            int len = i == 0 ? 0 : r.nextInt(20000);
            while (sb.length() < len) {
                int k = r.nextInt(10);
                if (k < 5) {
                    sb.append((char) ('a' + r.nextInt(26)));
                } else if (k < 7) {
                    sb.appendCodePoint(SPECIAL[r.nextInt(SPECIAL.length)]);
                } else if (k < 9) {
                    sb.append(' ');
                } else {
                    sb.append('\n');
                }
            }
            samples.add(Files.writeString(dir.resolve("s" + i + ".txt"), sb, StandardCharsets.UTF_8));
        }
        // Plain ASCII over several 64 Ki-char chunks (wc's fast path), then the same with a control char inside a
        // word in one chunk and a non-printable non-ASCII char between spaces in another (the exact path for those
        // chunks: a non-printable char neither starts nor ends a word).
        StringBuilder ascii = new StringBuilder();
        while (ascii.length() < 200_000) {
            int k = r.nextInt(12);
            ascii.append(k < 7 ? (char) ('a' + r.nextInt(26)) : k < 9 ? ' ' : k < 10 ? '\t' : k < 11 ? '\n' : '.');
        }
        samples.add(Files.writeString(dir.resolve("ascii.txt"), ascii, StandardCharsets.UTF_8));
        ascii.replace(70_001, 70_006, "ab\u0001cd");
        ascii.replace(150_001, 150_004, " \u2028 ");
        samples.add(Files.writeString(dir.resolve("ascii-special.txt"), ascii, StandardCharsets.UTF_8));
        // Plain chunks and Japanese ones in turn, with 3-byte chars cut by the 64 KiB reads at every offset.
        StringBuilder mixed = new StringBuilder();
        for (int cut = 0; cut < 3; cut++) {
            mixed.append("x y\n".repeat(16383)).append("ab".substring(0, 2 - cut % 2)).append(cut == 2 ? "z" : "");
            mixed.append("\u65e5\u672c\u8a9e \u3000\u30c6\u30ad\u30b9\u30c8\n".repeat(3000));
        }
        samples.add(Files.writeString(dir.resolve("mixed.txt"), mixed, StandardCharsets.UTF_8));
    }

    private static String gnuWc(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("wc"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(false);
        pb.environment().put("LC_ALL", "C.UTF-8");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return out;
    }

    @Test
    void matchesGnuWcForEveryOptionSet() throws Exception {
        String[][] optionSets = {{}, {"-l"}, {"-w"}, {"-m"}, {"-c"}, {"-L"}, {"-lw"}, {"-l", "-m"}, {"-lwmcL"},
            {"-c", "-l"}, {"--max-line-length", "-w"}};
        for (String[] opts : optionSets) {
            for (List<Path> files : List.of(List.of(samples.get(1)), List.of(samples.get(0)), samples)) {
                List<String> args = new ArrayList<>(List.of(opts));
                files.forEach(f -> args.add(f.toString()));
                String expected = gnuWc(args);
                List<String> ours = new ArrayList<>(List.of("wc"));
                ours.addAll(args);
                String[] got = MainTest.run(ours.toArray(new String[0]));
                assertEquals("0", got[0], got[2]);
                assertEquals(expected, got[1], "wc " + args);
            }
        }
    }

    @Test
    void aMissingFileIsReportedAndTheOthersCountedWithExitOne() throws Exception {
        String missing = dir.resolve("missing").toString();
        String[] got = MainTest.run("wc", samples.get(2).toString(), missing, samples.get(3).toString());
        assertEquals("1", got[0]);
        assertEquals("sluice: wc: " + missing + ": No such file or directory", got[2].strip());
        assertEquals(gnuWc(List.of(samples.get(2).toString(), missing, samples.get(3).toString())), got[1]);
        // The first file missing: the widths come from the others.
        got = MainTest.run("wc", missing, samples.get(3).toString());
        assertEquals(gnuWc(List.of(missing, samples.get(3).toString())), got[1]);
    }

    @Test
    void aDirectoryIsAnErrorWithALineOfZerosAsInWc() throws Exception {
        String[] got = MainTest.run("wc", dir.toString(), samples.get(1).toString());
        assertEquals("1", got[0]);
        assertEquals("sluice: wc: " + dir + ": Is a directory", got[2].strip());
        assertEquals(gnuWc(List.of(dir.toString(), samples.get(1).toString())), got[1]);
    }

    /** As GNU wc: a usage error exits 1, the code of its other failures (issue 23). */
    @Test
    void aBadOptionIsExitOne() {
        String[] got = MainTest.run("wc", "-z");
        assertEquals("1", got[0]);
        assertTrue(got[2].startsWith("sluice: Unknown option: '-z'"), got[2]);
    }

    /** The plain form (Main's fast path) prints exactly what picocli's way prints, with the same exit code. */
    @Test
    void thePlainFormDoesWhatPicocliDoes() {
        String missing = dir.resolve("missing").toString();
        String[][] optionSets = {{}, {"-l"}, {"-w"}, {"-m"}, {"-c"}, {"-L"}, {"-lw"}, {"-l", "-m"}, {"-lwmcL"},
            {"-c", "--"}};
        List<List<String>> fileSets = List.of(List.of(samples.get(1).toString()),
                List.of(samples.get(2).toString(), missing, samples.get(3).toString()),
                List.of(dir.toString(), samples.get(4).toString()));
        for (String[] opts : optionSets) {
            for (List<String> files : fileSets) {
                List<String> args = new ArrayList<>(List.of("wc"));
                args.addAll(List.of(opts));
                args.addAll(files);
                String[] argv = args.toArray(new String[0]);
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                Integer code = WcCommand.runPlainForm(argv, new PrintWriter(out, true), new PrintWriter(err, true));
                String[] picocli = MainTest.run(argv);
                assertEquals(picocli[0], String.valueOf(code), args.toString());
                assertEquals(picocli[1], out.toString(), args.toString());
                assertEquals(picocli[2], err.toString(), args.toString());
            }
        }
        for (String[] argv : new String[][] {{"wc"}, {"wc", "--lines", "x"}, {"wc", "-z", "x"}, {"wc", "-h"},
                {"gzip", "x"}, {"wc", "-lz", "x"}}) {
            assertNull(WcCommand.runPlainForm(argv, new PrintWriter(new StringWriter()),
                    new PrintWriter(new StringWriter())), List.of(argv).toString());
        }
    }

    /**
     * GNU's parsing, both ways: "@list" names a file (picocli would read arguments from "list"), and a repeated
     * option is no error (picocli would refuse "--lines --lines").
     */
    @Test
    void atNamesAndRepeatedOptionsAsGnuWcBothWays() throws Exception {
        Path list = Files.writeString(dir.resolve("list"), samples.get(1).toString());
        Path at = Files.writeString(dir.resolve("@list"), "one line\n");
        String atName = dir.resolve("@list").toString();
        assertTrue(Files.exists(at) && Files.exists(list));
        for (String[] argv : new String[][] {{"wc", "-l", atName}, {"wc", "--lines", atName}, {"wc", "-ll", atName},
                {"wc", "--lines", "--lines", atName}, {"wc", "-l", "--lines", atName}}) {
            String[] got = MainTest.run(argv);
            assertEquals("0", got[0], List.of(argv) + ": " + got[2]);
            assertEquals(gnuWc(List.of("-l", atName)), got[1], List.of(argv).toString());
        }
    }
}
