package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice cp}, {@code cmp} and {@code sum}, run in-process: exit codes and the exact lines they print. */
class CopyCompareCommandsTest {

    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        return file(name, content.getBytes(StandardCharsets.UTF_8));
    }

    private Path file(String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, content);
        return p;
    }

    private static void assertRun(String[] r, int code, String out, String err) {
        assertEquals(Integer.toString(code), r[0], "exit code; stdout: " + r[1] + "; stderr: " + r[2]);
        assertEquals(out, r[1].replace(System.lineSeparator(), "\n"), "stdout");
        assertEquals(err, r[2].replace(System.lineSeparator(), "\n"), "stderr");
    }

    // ---- cp ------------------------------------------------------------------------------------------------------

    @Test
    void cpCopiesAFileAndReplacesAnExistingTarget() throws IOException {
        byte[] data = new byte[300_001];
        new Random(1).nextBytes(data);
        Path src = file("src", data);
        Path dst = file("dst", "old");
        assertRun(MainTest.run("cp", src.toString(), dst.toString()), 0, "", "");
        assertArrayEquals(data, Files.readAllBytes(dst));
    }

    @Test
    void cpIntoADirectoryKeepsTheName() throws IOException {
        Path src = file("src.txt", "hello\n");
        Path sub = Files.createDirectory(dir.resolve("sub"));
        assertRun(MainTest.run("cp", "--sync", "-p", src.toString(), sub.toString()), 0, "", "");
        assertEquals("hello\n", Files.readString(sub.resolve("src.txt")));
        assertEquals(Files.getLastModifiedTime(src), Files.getLastModifiedTime(sub.resolve("src.txt")));
    }

    @Test
    void cpFailuresAreOneLineAndExitTwo() throws IOException {
        Path missing = dir.resolve("missing");
        Path dst = file("dst", "keep");
        assertRun(MainTest.run("cp", missing.toString(), dir.resolve("x").toString()), 2, "",
                "sluice: " + missing + ": No such file or directory\n");
        assertRun(MainTest.run("cp", "-n", file("src", "new").toString(), dst.toString()), 2, "",
                "sluice: " + dst + ": File exists\n");
        assertEquals("keep", Files.readString(dst));
        Path noDir = dir.resolve("no").resolve("dst");
        assertRun(MainTest.run("cp", dst.toString(), noDir.toString()), 2, "",
                "sluice: " + noDir.getParent() + ": No such file or directory\n");
        assertRun(MainTest.run("cp", dir.toString(), dst.toString()), 2, "", "sluice: " + dir + ": Is a directory\n");
        assertRun(MainTest.run("cp", dst.toString()), 2, "",
                "sluice: Missing required parameter: 'DST'\nTry 'sluice cp --help' for more information.\n");
    }

    /** The plain form (Main's fast path) and picocli give the same exit code, stderr and target, case by case. */
    @Test
    void cpPlainFormDoesWhatPicocliDoes() throws IOException {
        String[][] forms = {{}, {"-n"}, {"-p"}, {"-np"}, {"-p", "--"}};
        for (String[] form : forms) {
            for (int situation = 0; situation < 6; situation++) {
                String[] codes = new String[2];
                String[] errs = new String[2];
                String[] results = new String[2];
                for (int way = 0; way < 2; way++) {
                    Path sub = Files.createDirectories(dir.resolve("cp" + String.join("", form) + situation + way));
                    Path src = sub.resolve("src");
                    Files.writeString(src, "new" + situation);
                    Files.setLastModifiedTime(src, java.nio.file.attribute.FileTime.fromMillis(1_600_000_000_000L));
                    Path dst = sub.resolve("dst");
                    switch (situation) {
                        case 1 -> Files.writeString(dst, "old"); // replaced, or kept with -n
                        case 2 -> dst = Files.createDirectory(sub.resolve("into")); // copied under its name
                        case 3 -> src = sub.resolve("missing");
                        case 4 -> src = sub; // a directory
                        case 5 -> dst = sub.resolve("no").resolve("dst");
                        default -> { }
                    }
                    List<String> args = new ArrayList<>(List.of("cp"));
                    args.addAll(List.of(form));
                    args.add(src.toString());
                    args.add(dst.toString());
                    String[] argv = args.toArray(new String[0]);
                    if (way == 0) {
                        java.io.StringWriter e = new java.io.StringWriter();
                        Integer code = CpCommand.runPlainForm(argv, new java.io.PrintWriter(e, true));
                        assertTrue(code != null, "the plain form takes " + args);
                        codes[way] = code.toString();
                        errs[way] = e.toString();
                    } else {
                        String[] r = MainTest.run(argv);
                        codes[way] = r[0];
                        errs[way] = r[2];
                    }
                    errs[way] = errs[way].replace(sub.toString(), "DIR");
                    Path copy = situation == 2 ? dst.resolve("src") : dst;
                    String content = Files.isRegularFile(copy) ? Files.readString(copy) : null;
                    // A copy made with -p carries the source's time; an untouched target keeps its own.
                    boolean copied = content != null && content.startsWith("new");
                    results[way] = copied && String.join("", form).contains("p")
                            ? content + " " + Files.getLastModifiedTime(copy) : content;
                }
                String what = List.of(form) + " situation " + situation;
                assertEquals(codes[1], codes[0], what + ": exit code");
                assertEquals(errs[1], errs[0], what + ": stderr");
                assertEquals(results[1], results[0], what + ": target");
            }
        }
        Path a = file("a", "x");
        for (String[] argv : new String[][] {{"cp", a.toString()}, {"cp", a.toString(), "b", "c"},
                {"cp", "--sync", a.toString(), "b"}, {"cp", "-x", a.toString(), "b"}, {"cp", "-h"}}) {
            assertEquals(null, CpCommand.runPlainForm(argv, new java.io.PrintWriter(new java.io.StringWriter())),
                    List.of(argv).toString());
        }
    }

    // ---- cmp -----------------------------------------------------------------------------------------------------

    @Test
    void cmpSaysNothingForEqualFiles() throws IOException {
        Path a = file("a", "abc\ndef\n");
        Path b = file("b", "abc\ndef\n");
        assertRun(MainTest.run("cmp", a.toString(), b.toString()), 0, "", "");
        assertRun(MainTest.run("cmp", "-s", a.toString(), b.toString()), 0, "", "");
    }

    @Test
    void cmpPrintsTheFirstDifferingByteAndLine() throws IOException {
        Path a = file("a", "abc\ndef\n");
        Path b = file("b", "abc\ndxf\n");
        assertRun(MainTest.run("cmp", a.toString(), b.toString()), 1, a + " " + b + " differ: byte 6, line 2\n", "");
        assertRun(MainTest.run("cmp", "-s", a.toString(), b.toString()), 1, "", "");
        Path c = file("c", "xbc");
        assertRun(MainTest.run("cmp", a.toString(), c.toString()), 1, a + " " + c + " differ: byte 1, line 1\n", "");
    }

    @Test
    void cmpReportsThePrefixCasesAsGnuCmpWordsThem() throws IOException {
        Path full = file("full", "abc\ndef\n");
        Path partial = file("partial", "abc\nd");
        Path line = file("line", "abc\n");
        Path empty = file("empty", "");
        assertRun(MainTest.run("cmp", full.toString(), partial.toString()), 1, "",
                "sluice: EOF on " + partial + " after byte 5, in line 2\n");
        assertRun(MainTest.run("cmp", line.toString(), full.toString()), 1, "",
                "sluice: EOF on " + line + " after byte 4, line 1\n");
        assertRun(MainTest.run("cmp", empty.toString(), full.toString()), 1, "",
                "sluice: EOF on " + empty + " which is empty\n");
        assertRun(MainTest.run("cmp", "-s", full.toString(), partial.toString()), 1, "", "");
    }

    @Test
    void cmpTroubleIsExitTwoAndSilentWithS() throws IOException {
        Path a = file("a", "abc");
        Path missing = dir.resolve("missing");
        assertRun(MainTest.run("cmp", a.toString(), missing.toString()), 2, "",
                "sluice: " + missing + ": No such file or directory\n");
        assertRun(MainTest.run("cmp", "-s", a.toString(), missing.toString()), 2, "", "");
        assertRun(MainTest.run("cmp", a.toString(), dir.toString()), 2, "", "sluice: " + dir + ": Is a directory\n");
        String[] verbose = MainTest.run("--verbose", "cmp", a.toString(), missing.toString());
        assertEquals("2", verbose[0]);
        assertTrue(verbose[2].contains("\tat "), verbose[2]);
    }

    /** The pairs GNU cmp and sluice cmp are run on: every outcome, with differences across 1 MiB boundaries. */
    private List<Path[]> pairs() throws IOException {
        Random rnd = new Random(42);
        byte[] text = new byte[(1 << 20) + 300];
        for (int i = 0; i < text.length; i++) {
            text[i] = rnd.nextInt(40) == 0 ? (byte) '\n' : (byte) ('a' + rnd.nextInt(26));
        }
        List<Path[]> pairs = new ArrayList<>();
        Path base = file("base", text);
        pairs.add(new Path[] {base, file("same", text.clone())});
        int n = 0;
        for (int off : new int[] {0, 1, 4095, (1 << 20) - 1, 1 << 20, text.length - 1}) {
            byte[] b = text.clone();
            b[off] = (byte) (b[off] == 'x' ? 'y' : 'x');
            pairs.add(new Path[] {base, file("diff" + n++, b)});
        }
        for (int len : new int[] {0, 1, 1 << 20, text.length - 1}) {
            byte[] b = java.util.Arrays.copyOf(text, len);
            Path p = file("prefix" + n++, b);
            pairs.add(new Path[] {base, p});
            pairs.add(new Path[] {p, base});
        }
        pairs.add(new Path[] {base, dir.resolve("missing")});
        pairs.add(new Path[] {dir, base});
        return pairs;
    }

    /** Runs {@code args} through the fast path that {@code main} takes for the plain {@code cmp [-s] A B}. */
    private static String[] runPlain(String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        Integer code = CmpCommand.runPlainForm(args, new java.io.PrintWriter(out, true),
                new java.io.PrintWriter(err, true));
        return code == null ? null : new String[] {code.toString(), out.toString(), err.toString()};
    }

    @Test
    void onlyThePlainCmpFormSkipsPicocli() {
        for (String[] args : new String[][] {{"cmp"}, {"cmp", "a"}, {"cmp", "--help"}, {"cmp", "-s", "a"},
            {"cmp", "-x", "a", "b"}, {"cmp", "a", "-s"}, {"cmp", "a", "b", "c"}, {"--verbose", "cmp", "a", "b"},
            {"sum", "a", "b"}, {}}) {
            assertEquals(null, runPlain(args), String.join(" ", args));
        }
        assertEquals("sluice: nope: No such file or directory\n", runPlain("cmp", "nope", "nada")[2]);
        assertEquals("2", runPlain("cmp", "-s", "nope", "nada")[0]);
    }

    @Test
    void cmpPrintsWhatGnuCmpPrints() throws Exception {
        Path gnu = Path.of("/usr/bin/cmp");
        assumeTrue(Files.isExecutable(gnu), "GNU cmp (diffutils) is not installed");
        for (Path[] pair : pairs()) {
            for (boolean silent : new boolean[] {false, true}) {
                List<String> cmd = new ArrayList<>(List.of(gnu.toString()));
                if (silent) {
                    cmd.add("-s");
                }
                cmd.add(pair[0].toString());
                cmd.add(pair[1].toString());
                Process p = new ProcessBuilder(cmd).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                int code = p.waitFor();
                List<String> args = new ArrayList<>(cmd.subList(1, cmd.size()));
                args.add(0, "cmp");
                String[] r = MainTest.run(args.toArray(new String[0]));
                String what = String.join(" ", cmd);
                assertEquals(Integer.toString(code), r[0], what);
                assertEquals(out, r[1], what);
                assertEquals(err.replaceFirst("^\\S*cmp: ", "sluice: "), r[2], what); // GNU names itself by argv[0]
                assertArrayEquals(r, runPlain(args.toArray(new String[0])), what + ", without picocli");
            }
        }
    }

    // ---- sum -----------------------------------------------------------------------------------------------------

    private static String hex(Checksum c, byte[] data) {
        c.update(data, 0, data.length);
        return String.format("%08x", c.getValue());
    }

    @Test
    void sumPrintsOneHexLinePerFileForEachAlgorithm() throws IOException {
        byte[] one = new byte[1_500_007];
        new Random(3).nextBytes(one);
        byte[] two = "hello\n".getBytes(StandardCharsets.US_ASCII);
        Path a = file("one", one);
        Path b = file("two", two);
        assertRun(MainTest.run("sum", a.toString(), b.toString()), 0,
                hex(new CRC32C(), one) + "  " + a + "\n" + hex(new CRC32C(), two) + "  " + b + "\n", "");
        assertRun(MainTest.run("sum", "--crc32c", b.toString()), 0, hex(new CRC32C(), two) + "  " + b + "\n", "");
        assertRun(MainTest.run("sum", "--crc32", b.toString()), 0, "363a3020  " + b + "\n", "");
        assertEquals("363a3020", hex(new CRC32(), two), "the value gzip -l and zlib give for hello\\n");
        assertRun(MainTest.run("sum", "--adler32", a.toString()), 0, hex(new Adler32(), one) + "  " + a + "\n", "");
    }

    @Test
    void sumGoesOnAfterAFileItCannotReadAndExitsTwo() throws IOException {
        Path b = file("two", "hello\n");
        Path missing = dir.resolve("missing");
        assertRun(MainTest.run("sum", "--crc32", missing.toString(), b.toString(), dir.toString()), 2,
                "363a3020  " + b + "\n",
                "sluice: " + missing + ": No such file or directory\nsluice: " + dir + ": Is a directory\n");
        String[] r = MainTest.run("sum", "--crc32", "--adler32", b.toString());
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("sluice: Error: --crc32, --adler32 are mutually exclusive"), r[2]);
        assertFalse(r[2].contains("\tat "), r[2]);
        assertRun(MainTest.run("sum"), 2, "",
                "sluice: Missing required parameter: 'FILE'\nTry 'sluice sum --help' for more information.\n");
    }

    /** sum's plain form (Main's fast path) prints what picocli's way prints, with the same exit code. */
    @Test
    void sumPlainFormDoesWhatPicocliDoes() throws IOException {
        Path a = file("one", new byte[300_001]);
        Path b = file("two", "hello\n");
        Path missing = dir.resolve("missing");
        String[][] forms = {{}, {"--crc32c"}, {"--crc32"}, {"--adler32"}, {"--crc32", "--"}};
        List<List<String>> fileSets = List.of(List.of(a.toString()), List.of(a.toString(), b.toString()),
                List.of(missing.toString(), b.toString(), dir.toString()));
        for (String[] form : forms) {
            for (List<String> files : fileSets) {
                List<String> args = new ArrayList<>(List.of("sum"));
                args.addAll(List.of(form));
                args.addAll(files);
                String[] argv = args.toArray(new String[0]);
                java.io.StringWriter out = new java.io.StringWriter();
                java.io.StringWriter err = new java.io.StringWriter();
                Integer code = SumCommand.runPlainForm(argv, new java.io.PrintWriter(out, true),
                        new java.io.PrintWriter(err, true));
                String[] picocli = MainTest.run(argv);
                assertEquals(picocli[0], String.valueOf(code), args.toString());
                assertEquals(picocli[1], out.toString(), args.toString());
                assertEquals(picocli[2], err.toString(), args.toString());
            }
        }
        for (String[] argv : new String[][] {{"sum"}, {"sum", "--crc32", "--adler32", "x"}, {"sum", "-h"},
                {"sum", "--help"}, {"sum", "--md5", "x"}, {"sum", "--crc32"}, {"sum", "-x", "x"}}) {
            assertEquals(null, SumCommand.runPlainForm(argv, new java.io.PrintWriter(new java.io.StringWriter()),
                    new java.io.PrintWriter(new java.io.StringWriter())), List.of(argv).toString());
        }
    }
}
