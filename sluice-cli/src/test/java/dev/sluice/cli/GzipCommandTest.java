package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.gzip.GzipHeader;
import dev.sluice.gzip.GzipMembers;
import dev.sluice.gzip.GzipInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sluice gzip} and {@code sluice gunzip}: gzip's behaviour, exit codes and never a partial output file. */
class GzipCommandTest {
    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private static byte[] data(int size, long seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder();
        while (sb.length() < size) {
            sb.append(r.nextInt(1000)).append(r.nextBoolean() ? ' ' : '\n');
        }
        return sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] gunzip(byte[] gz) throws IOException {
        try (InputStream in = new GzipInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        }
    }

    private Path file(String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, content);
        Files.setLastModifiedTime(p, FileTime.from(Instant.ofEpochSecond(1_600_000_000L)));
        return p;
    }

    private void assertNoTempFiles() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            assertFalse(s.anyMatch(p -> p.getFileName().toString().endsWith(".sluice-tmp")), "temp file left");
        }
    }

    @Test
    void gzipReplacesTheFileKeepingNameTimeAndPermissions() throws IOException {
        byte[] data = data(3 << 20, 1);
        Path a = file("a.txt", data);
        assertEquals(0, run("gzip", "-p", "2", a.toString()), err.toString());
        Path gz = dir.resolve("a.txt.gz");
        assertFalse(Files.exists(a));
        assertArrayEquals(data, gunzip(Files.readAllBytes(gz)));
        GzipHeader h = new GzipInputStream(Files.newInputStream(gz)).header();
        assertEquals("a.txt", h.name().orElseThrow());
        assertEquals(Instant.ofEpochSecond(1_600_000_000L), h.modificationTime().orElseThrow());
        assertEquals(FileTime.from(Instant.ofEpochSecond(1_600_000_000L)), Files.getLastModifiedTime(gz));
        assertEquals(0, run("gunzip", gz.toString()), err.toString());
        assertArrayEquals(data, Files.readAllBytes(a));
        assertFalse(Files.exists(gz));
        assertNoTempFiles();
    }

    /** Independent members by default (on one thread too), one member with --single-member, BGZF with --bgzf. */
    @Test
    void formats() throws IOException {
        byte[] data = data(2_500_000, 4);
        Path a = file("a", data);
        for (String[] form : new String[][] {{"-p", "1"}, {"-p", "2"}}) {
            assertEquals(0, run("gzip", "-kf", form[0], form[1], a.toString()), err.toString());
            try (FileChannel ch = FileChannel.open(dir.resolve("a.gz"))) {
                long at = 0;
                long size = 0;
                int members = 0;
                while (at < ch.size()) {
                    GzipMembers.Member m = GzipMembers.read(ch, at);
                    assertEquals(Math.min(1 << 20, data.length - size), m.uncompressedSize(), Arrays.toString(form));
                    at += m.totalLength();
                    size += m.uncompressedSize();
                    members++;
                }
                assertEquals(3, members, Arrays.toString(form));
            }
            assertArrayEquals(data, gunzip(Files.readAllBytes(dir.resolve("a.gz"))));
            assertEquals(0, run("gzip", "-kf", "--single-member", form[0], form[1], a.toString()), err.toString());
            try (FileChannel ch = FileChannel.open(dir.resolve("a.gz"))) {
                assertEquals(null, GzipMembers.read(ch, 0));
            }
            assertArrayEquals(data, gunzip(Files.readAllBytes(dir.resolve("a.gz"))));
            assertEquals(0, run("gzip", "-kf", "--bgzf", form[0], form[1], a.toString()), err.toString());
            try (FileChannel ch = FileChannel.open(dir.resolve("a.gz"))) {
                assertTrue(GzipMembers.read(ch, 0).bgzf());
            }
            assertArrayEquals(data, gunzip(Files.readAllBytes(dir.resolve("a.gz"))));
        }
    }

    @Test
    void levelsThreadsKeepAndStdout() throws IOException {
        byte[] data = data(1 << 20, 2);
        Path a = file("a", data);
        assertEquals(0, run("gzip", "-1", "-k", "-p", "1", a.toString()));
        long fast = Files.size(dir.resolve("a.gz"));
        assertTrue(Files.exists(a));
        assertEquals(0, run("gzip", "-9kf", a.toString()), err.toString());
        long best = Files.size(dir.resolve("a.gz"));
        assertTrue(best < fast, best + " vs " + fast);
        assertArrayEquals(data, gunzip(Files.readAllBytes(dir.resolve("a.gz"))));

        GzipFiles io = new GzipFiles(new PrintWriter(err, true));
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        io.stdout = stdout;
        GzipCommand gzip = new GzipCommand();
        gzip.io = io;
        assertEquals(0, new CommandLine(gzip).execute("-c", "-p", "3", a.toString()));
        assertArrayEquals(data, gunzip(stdout.toByteArray()));
        assertTrue(Files.exists(a));
    }

    /**
     * gunzip -c to a stdout that is a file: it gets stdout itself (a native decoder's output goes through its channel)
     * and reads its input on a second thread (here whatever its size); the bytes are the data, and stdout is still
     * open afterwards.
     */
    @Test
    void gunzipToAFileOnStdoutLeavesStdoutOpen() throws IOException {
        byte[] data = data((3 << 20) + 12345, 9);
        Path a = file("a", data);
        for (String layout : new String[] {"--single-member", "--processes=2"}) { // one member; independent ones
            assertEquals(0, run("gzip", "-1", "-kf", layout, a.toString()), err.toString());
            Path out = dir.resolve("out" + layout);
            GzipFiles io = new GzipFiles(new PrintWriter(err, true));
            try (FileOutputStream stdout = new FileOutputStream(out.toFile())) {
                io.stdout = stdout;
                GunzipCommand gunzip = new GunzipCommand();
                gunzip.io = io;
                assertEquals(0, new CommandLine(gunzip).execute("-c", dir.resolve("a.gz").toString()),
                        err.toString());
                stdout.write('!'); // still open
            }
            byte[] expected = Arrays.copyOf(data, data.length + 1);
            expected[data.length] = '!';
            assertArrayEquals(expected, Files.readAllBytes(out), layout);
        }
    }

    @Test
    void stdinToStdoutBothWays() throws IOException {
        byte[] data = data(200_000, 3);
        GzipFiles io = new GzipFiles(new PrintWriter(err, true));
        io.stdin = new ByteArrayInputStream(data);
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        io.stdout = gz;
        GzipCommand gzip = new GzipCommand();
        gzip.io = io;
        assertEquals(0, new CommandLine(gzip).execute());
        GzipFiles io2 = new GzipFiles(new PrintWriter(err, true));
        io2.stdin = new ByteArrayInputStream(gz.toByteArray());
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        io2.stdout = plain;
        GunzipCommand gunzip = new GunzipCommand();
        gunzip.io = io2;
        assertEquals(0, new CommandLine(gunzip).execute("-"));
        assertArrayEquals(data, plain.toByteArray());
    }

    @Test
    void neverOverwritesWithoutForce() throws IOException {
        Path a = file("a", data(1000, 4));
        Path gz = file("a.gz", new byte[] {42});
        assertEquals(2, run("gzip", a.toString()));
        assertTrue(err.toString().contains("a.gz already exists; not overwritten"), err.toString());
        assertArrayEquals(new byte[] {42}, Files.readAllBytes(gz));
        assertTrue(Files.exists(a));
        assertEquals(0, run("gzip", "-f", a.toString()));
        assertArrayEquals(data(1000, 4), gunzip(Files.readAllBytes(gz)));
    }

    @Test
    void exitCodesAsGzip() throws IOException {
        Files.createDirectory(dir.resolve("d"));
        assertEquals(2, run("gzip", dir.resolve("d").toString()));
        assertTrue(err.toString().contains("is a directory -- ignored"));
        assertEquals(1, run("gzip", dir.resolve("d").toString(), dir.resolve("missing").toString()));
        assertTrue(err.toString().contains("missing: No such file or directory"));
        Path x = file("x", new byte[] {1});
        assertEquals(2, run("gunzip", x.toString()));
        assertTrue(err.toString().contains("x: unknown suffix -- ignored"));
        assertEquals(1, run("gzip", "-p", "0", x.toString()), "a usage error, as gzip's");
        Path link = Files.createSymbolicLink(dir.resolve("link"), x);
        assertEquals(1, run("gzip", link.toString()));
        assertTrue(err.toString().contains("link: Too many levels of symbolic links"), err.toString());
        assertEquals(0, run("gzip", "-f", link.toString()));
        assertTrue(Files.exists(dir.resolve("link.gz")) && Files.exists(x));
    }

    /** Issue 23: gzip exits 1 on a usage error (2 is its warning), and so do both commands, as --help says. */
    @Test
    void usageErrorsExitOneAsGzipsDo() throws IOException {
        Path x = file("x", new byte[] {1});
        assertEquals(1, run("gzip", "--bogus", x.toString()));
        assertTrue(err.toString().contains("Unknown option: '--bogus'"), err.toString());
        assertEquals(1, run("gunzip", "--bogus", x.toString() + ".gz"));
        assertEquals(1, run("gzip", "-p", "many", x.toString()));
        assertTrue(Files.exists(x) && !Files.exists(dir.resolve("x.gz")), "nothing done on a usage error");
        for (String command : new String[] {"gzip", "gunzip"}) {
            String[] help = MainTest.run(command, "--help");
            assertEquals("0", help[0]);
            String text = help[1].replaceAll("\\s+", " ");
            assertTrue(text.contains("1 if any FILE failed or the command line is wrong (a usage error)"), text);
            assertTrue(text.contains("the next FILE is still done"), text);
            if (command.equals("gunzip")) {
                assertTrue(text.contains("Huffman code is incomplete"), "the one engine-dependent verdict: " + text);
            }
        }
    }

    /** Issue 23, item 5: a corrupt file does not stop the next one; the exit status is 1 at the end. */
    @Test
    void aCorruptFileDoesNotStopTheNextOne() throws IOException {
        byte[] data = data(200_000, 9);
        Path a = file("a", data);
        Path b = file("b", data(1000, 10));
        assertEquals(0, run("gzip", "-k", a.toString(), b.toString()));
        byte[] gz = Files.readAllBytes(dir.resolve("a.gz"));
        Files.delete(a);
        Files.delete(b);
        Path bad = file("bad.gz", Arrays.copyOf(gz, gz.length / 2));
        assertEquals(1, run("gunzip", bad.toString(), dir.resolve("missing.gz").toString(), dir.resolve("a.gz").toString(),
                dir.resolve("b.gz").toString()));
        assertArrayEquals(data, Files.readAllBytes(a));
        assertArrayEquals(data(1000, 10), Files.readAllBytes(b));
        assertTrue(Files.exists(bad) && !Files.exists(dir.resolve("bad")));
        assertEquals(1, run("gunzip", "-t", bad.toString(), dir.resolve("nothing.gz").toString()));
        assertNoTempFiles();
    }

    @Test
    void corruptInputLeavesNoPartialFileAndKeepsTheInput() throws IOException {
        byte[] data = data(500_000, 5);
        Path a = file("a", data);
        assertEquals(0, run("gzip", a.toString()));
        byte[] gz = Files.readAllBytes(dir.resolve("a.gz"));
        Path truncated = file("t.gz", Arrays.copyOf(gz, gz.length / 2));
        assertEquals(1, run("gunzip", truncated.toString()));
        assertTrue(err.toString().contains("t.gz: truncated gzip input"), err.toString());
        assertFalse(Files.exists(dir.resolve("t")));
        assertTrue(Files.exists(truncated));
        byte[] bad = gz.clone();
        bad[bad.length - 6] ^= 1;
        Path corrupt = file("c.gz", bad);
        assertEquals(1, run("gunzip", corrupt.toString()));
        assertTrue(err.toString().contains("CRC32 mismatch"), err.toString());
        assertFalse(Files.exists(dir.resolve("c")));
        assertEquals(1, run("gunzip", "-t", corrupt.toString()));
        assertEquals(0, run("gunzip", "-t", dir.resolve("a.gz").toString()));
        assertTrue(Files.exists(dir.resolve("a.gz")), "-t removes nothing");
        assertFalse(Files.exists(dir.resolve("a")), "-t writes nothing");
        assertNoTempFiles();
    }

    @Test
    void trailingGarbageIsAWarningWithTheDataKeptAndTgzBecomesTar() throws IOException {
        byte[] data = data(10_000, 6);
        Path a = file("a.tar", data);
        assertEquals(0, run("gzip", a.toString()));
        byte[] gz = Files.readAllBytes(dir.resolve("a.tar.gz"));
        Files.delete(dir.resolve("a.tar.gz"));
        Path tgz = file("b.tgz", gz);
        assertEquals(0, run("gunzip", tgz.toString()));
        assertArrayEquals(data, Files.readAllBytes(dir.resolve("b.tar")));
        byte[] withGarbage = Arrays.copyOf(gz, gz.length + 3);
        withGarbage[gz.length] = 'x';
        Path g = file("g.gz", withGarbage);
        assertEquals(2, run("gunzip", g.toString()));
        assertTrue(err.toString().contains("g.gz: decompression OK, trailing garbage ignored"), err.toString());
        assertArrayEquals(data, Files.readAllBytes(dir.resolve("g")));
        assertFalse(Files.exists(g));
    }

    /**
     * The plain form (Main's fast path) and picocli agree: the same exit code, stderr and output file for every
     * form the plain parser takes; and it hands every other form to picocli.
     */
    @Test
    void thePlainFormDoesWhatPicocliDoes() throws IOException {
        byte[] data = data(300_000, 41);
        String[][] forms = {
            {"-k"}, {"-1", "-k"}, {"-9kf"}, {"-k", "-p", "1"}, {"-p", "2", "-k"}, {"-3", "-k", "-f"}, {"-k", "--"},
            {"-k", "--single-member"}, {"--bgzf", "-k"}, {"-k", "--bgzf", "--single-member"},
            {"-k", "-p", "1", "--single-member"},
            {}, // replaces the file
        };
        for (String[] form : forms) {
            byte[][] gz = new byte[2][];
            String[] errs = new String[2];
            int[] codes = new int[2];
            for (int way = 0; way < 2; way++) {
                Path sub = Files.createDirectories(dir.resolve("form" + String.join("", form) + way));
                Path f = sub.resolve("a.txt");
                Files.write(f, data);
                Files.setLastModifiedTime(f, FileTime.from(Instant.ofEpochSecond(1_600_000_000L)));
                StringWriter e = new StringWriter();
                codes[way] = runWay(way, command("gzip", form, f), e);
                errs[way] = e.toString();
                gz[way] = Files.readAllBytes(sub.resolve("a.txt.gz"));
                assertEquals(form.length > 0, Files.exists(f), "input kept with -k only: " + Arrays.toString(form));
            }
            String what = Arrays.toString(form);
            assertEquals(codes[1], codes[0], what + ": exit code");
            assertEquals(errs[1], errs[0], what + ": stderr");
            assertArrayEquals(gz[1], gz[0], what + ": output");
            assertArrayEquals(data, gunzip(gz[0]), what);
        }
        // Errors: the same words and codes both ways.
        Path missing = dir.resolve("missing");
        Path exists = file("b", data);
        file("b.gz", new byte[] {1});
        for (String[] args : new String[][] {{"gzip", missing.toString()}, {"gzip", exists.toString()},
                {"gzip", "-k", missing.toString(), exists.toString()}}) {
            StringWriter e0 = new StringWriter();
            StringWriter e1 = new StringWriter();
            Integer plain = GzipCommand.runPlainForm(args, new PrintWriter(e0, true));
            CommandLine cl = Main.commandLine();
            cl.setErr(new PrintWriter(e1, true));
            int picocli = cl.execute(args);
            assertEquals(Integer.valueOf(picocli), plain, Arrays.toString(args));
            assertEquals(e1.toString(), e0.toString(), Arrays.toString(args));
        }
        // Everything else is picocli's.
        for (String[] args : new String[][] {{"gzip"}, {"gunzip", "x"}, {"gzip", "--fast", "x"}, {"gzip", "-h"},
                {"gzip", "-p", "0", "x"}, {"gzip", "-p", "257", "x"}, {"gzip", "-p"}, {"gzip", "-x", "x"},
                {"gzip", "--verbose", "x"}, {"gzip", "-p2", "x"}}) {
            assertEquals(null, GzipCommand.runPlainForm(args, new PrintWriter(new StringWriter())),
                    Arrays.toString(args));
        }
    }

    /** As for gzip: gunzip's plain form and picocli give the same exit code, stderr and files. */
    @Test
    void theGunzipPlainFormDoesWhatPicocliDoes() throws IOException {
        byte[] data = data(300_000, 43);
        byte[] gz = gzipped(data);
        byte[] garbage = Arrays.copyOf(gz, gz.length + 3);
        garbage[gz.length] = 'x';
        byte[] corrupt = gz.clone();
        corrupt[gz.length - 6] ^= 1; // the CRC
        String[][] forms = {{"-k"}, {"-kf"}, {"-f", "-k"}, {"-t"}, {"-tk"}, {"-k", "--"}, {}};
        byte[][] inputs = {gz, garbage, corrupt};
        for (String[] form : forms) {
            for (int input = 0; input < inputs.length; input++) {
                byte[][] out = new byte[2][];
                String[] errs = new String[2];
                int[] codes = new int[2];
                boolean[] kept = new boolean[2];
                for (int way = 0; way < 2; way++) {
                    Path sub = Files.createDirectories(dir.resolve("gunzip" + String.join("", form) + input + way));
                    Path f = sub.resolve("a.txt.gz");
                    Files.write(f, inputs[input]);
                    StringWriter e = new StringWriter();
                    codes[way] = runWay(way, command("gunzip", form, f), e);
                    errs[way] = e.toString().replace(sub.toString(), "DIR");
                    Path target = sub.resolve("a.txt");
                    out[way] = Files.exists(target) ? Files.readAllBytes(target) : null;
                    kept[way] = Files.exists(f);
                }
                String what = Arrays.toString(form) + " input " + input;
                assertEquals(codes[1], codes[0], what + ": exit code");
                assertEquals(errs[1], errs[0], what + ": stderr");
                assertArrayEquals(out[1], out[0], what + ": output");
                assertEquals(kept[1], kept[0], what + ": input kept");
                if (input == 0 && !String.join("", form).contains("t")) {
                    assertArrayEquals(data, out[0], what);
                }
            }
        }
        // Everything else is picocli's.
        for (String[] args : new String[][] {{"gunzip"}, {"gzip", "x"}, {"gunzip", "--test", "x"}, {"gunzip", "-h"},
                {"gunzip", "-x", "x"}, {"gunzip", "-p", "2", "x"}, {"gunzip", "-9", "x"}, {"gunzip", "-kx", "x"}}) {
            assertEquals(null, GunzipCommand.runPlainForm(args, new PrintWriter(new StringWriter())),
                    Arrays.toString(args));
        }
    }

    /** {@code name}, the options of {@code form}, then {@code file}. */
    private static String[] command(String name, String[] form, Path file) {
        String[] args = new String[form.length + 2];
        args[0] = name;
        System.arraycopy(form, 0, args, 1, form.length);
        args[args.length - 1] = file.toString();
        return args;
    }

    /** Runs {@code args} through the command's plain form (way 0) or through picocli (way 1), stderr into e. */
    private static int runWay(int way, String[] args, StringWriter e) {
        if (way == 0) {
            PrintWriter err = new PrintWriter(e, true);
            Integer code = args[0].equals("gzip") ? GzipCommand.runPlainForm(args, err)
                    : GunzipCommand.runPlainForm(args, err);
            assertTrue(code != null, "the plain form takes " + Arrays.toString(args));
            return code;
        }
        CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(e, true));
        return cl.execute(args);
    }

    private static byte[] gzipped(byte[] data) throws IOException {
        java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(sink)) {
            out.write(data);
        }
        return sink.toByteArray();
    }

    /** {@code --stats}: one line on standard error after each run, in the documented format, with the run's sizes. */
    @Test
    void statsPrintOneLineWithTheRunsFigures() throws IOException {
        java.util.regex.Pattern line = java.util.regex.Pattern.compile("sluice-stats: wall_s=\\d+\\.\\d{3}"
                + " cpu_s=\\d+\\.\\d{3} caller_cpu_s=\\d+\\.\\d{3} threads=(\\d+) in_bytes=(\\d+)"
                + " out_bytes=(\\d+)");
        byte[] data = data(3 << 20, 7);
        Path a = file("a.txt", data);
        assertEquals(0, run("gzip", "--stats", "-k", "-p", "2", a.toString()), err.toString());
        Path gz = dir.resolve("a.txt.gz");
        String[] lines = err.toString().split("\\R");
        assertEquals(1, lines.length, err.toString());
        java.util.regex.Matcher m = line.matcher(lines[0]);
        assertTrue(m.matches(), lines[0]);
        assertEquals("2", m.group(1));
        assertEquals(String.valueOf(data.length), m.group(2));
        assertEquals(String.valueOf(Files.size(gz)), m.group(3));

        Files.delete(a);
        err.getBuffer().setLength(0);
        assertEquals(0, run("gunzip", "--stats", "-k", gz.toString()), err.toString());
        assertArrayEquals(data, Files.readAllBytes(a));
        lines = err.toString().split("\\R");
        assertEquals(1, lines.length, err.toString());
        m = line.matcher(lines[0]);
        assertTrue(m.matches(), lines[0]);
        assertEquals(String.valueOf(GzipInputStream.DEFAULT_THREADS), m.group(1), "independent members, on workers");
        assertEquals(String.valueOf(Files.size(gz)), m.group(2));
        assertEquals(String.valueOf(data.length), m.group(3));

        // The plain form (no picocli) takes it too; without it, nothing is printed.
        StringWriter plain = new StringWriter();
        assertEquals(0, GunzipCommand.runPlainForm(new String[] {"gunzip", "--stats", "-t", gz.toString()},
                new PrintWriter(plain, true)));
        assertTrue(line.matcher(plain.toString().strip()).matches(), plain.toString());
        err.getBuffer().setLength(0);
        assertEquals(0, run("gunzip", "-t", gz.toString()), err.toString());
        assertEquals("", err.toString());
    }
}
