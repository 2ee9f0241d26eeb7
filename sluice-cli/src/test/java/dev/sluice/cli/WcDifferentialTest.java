package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice wc -lwmcL} against GNU wc in the C.UTF-8 locale, byte for byte, over generated inputs: valid text of
 * every class wc tells apart (separators, non-printables, wide, combining, emoji), invalid and truncated UTF-8, NUL,
 * CR/LF, lines longer than a read, random bytes (where glibc is the one CharClasses was made from); one file,
 * several, and standard input (a file and a pipe). Skipped only where there is no GNU {@code wc} at all. Seeded:
 * {@code -Dsluice.test.seed=N} replays a failure.
 */
@Timeout(60)
class WcDifferentialTest {
    private static final long SEED = Long.getLong("sluice.test.seed", System.nanoTime());
    private static final int TIMEOUT_SECONDS = 30;

    @TempDir
    static Path dir;
    static final List<Path> inputs = new ArrayList<>();

    /** Code points on wc's rules: ASCII white space and controls, Unicode and no-break spaces, non-printables. */
    private static final int[] SPECIAL = {
        ' ', '\t', '\n', '\r', 0x0B, '\f', 0, 0x01, 0x1B, 0x1F, 0x7F, 0x85, 0xA0, 0xAD, 0x378, 0x1680, 0x2000, 0x2006,
        0x2007, 0x200A, 0x200B, 0x200D, 0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF, 0xE000, 0xFFFD, 0xFFFE,
        0x10FFFF, 0xE0001
    };
    /** Printable chars of width 0, 1 and 2: combining marks, Latin, CJK, Hangul, fullwidth, emoji. */
    private static final int[] PRINTABLE = {
        0x301, 0x308, 0x20DD, 0xE9, 0x3B1, 0x416, 0x5D0, 0x627, 0x915, 0x65E5, 0x672C, 0x3042, 0x30C6, 0xAC00, 0xFF21,
        0x1F600, 0x1F468, 0x1F1EF, 0x20000, 0x1D400
    };
    /** Byte sequences glibc does not decode (each byte then counts as nothing), and some it does beyond Unicode. */
    private static final String[] ODD = {
        "80", "BF", "C080", "C1BF", "E09FBF", "EDA080", "E381", "F09F", "F4908080", "F7BFBFBF", "F888808080",
        "F880808080", "FC8480808080", "FDBFBFBFBF", "FE", "FF"
    };

    @BeforeAll
    static void makeInputs() throws IOException {
        needsGnuWc();
        System.out.println("WcDifferentialTest seed: " + SEED + " (-Dsluice.test.seed=" + SEED + " to replay)");
        Random r = new Random(SEED);
        add("empty", new byte[0]);
        add("text", text(r, 40_000, 0));
        add("invalid", text(r, 40_000, 12));
        ByteArrayOutputStream cut = new ByteArrayOutputStream();
        cut.writeBytes(text(r, 5_000, 5));
        cut.writeBytes(new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}); // a 4-byte char cut by the end
        add("truncated", cut.toByteArray());
        add("ascii", ascii(r, 150_000));
        // One line longer than a 64 KiB read, with 3- and 4-byte chars straddling the reads at every offset.
        StringBuilder longLine = new StringBuilder();
        while (longLine.length() < 140_000) {
            longLine.append("x".repeat(r.nextInt(3))).appendCodePoint(r.nextBoolean() ? 0x65E5 : 0x1F600);
        }
        add("long-line", (longLine + "\tend\n" + longLine).getBytes(StandardCharsets.UTF_8));
        add("crlf", new String(ascii(r, 20_000), StandardCharsets.ISO_8859_1).replace("\n", "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        byte[] random = new byte[120_000];
        r.nextBytes(random);
        if (TABLE_GLIBC.equals(libcVersion())) {
            add("random", random);
        } else {
            // Random bytes decode to code points of any age; on another glibc a newer Unicode may class them anew.
            System.out.println("WcDifferentialTest: not " + TABLE_GLIBC + ", so no random bytes");
        }
    }

    /** The glibc whose C.UTF-8 sluice-core's CharClasses was generated from (its javadoc says which). */
    private static final String TABLE_GLIBC = "glibc 2.36";

    private static String libcVersion() {
        try {
            Process p = new ProcessBuilder("getconf", "GNU_LIBC_VERSION").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) ? v : "";
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }

    private static void add(String name, byte[] content) throws IOException {
        inputs.add(Files.write(dir.resolve(name), content));
    }

    /** Words of printable ASCII and runs of every other class, with {@code oddPerMille} invalid sequences. */
    private static byte[] text(Random r, int size, int oddPerMille) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (out.size() < size) {
            int k = r.nextInt(1000);
            if (k < oddPerMille) {
                out.writeBytes(HexFormat.of().parseHex(ODD[r.nextInt(ODD.length)]));
            } else if (k < 450) {
                out.write('a' + r.nextInt(26));
            } else if (k < 650) {
                out.writeBytes(utf8(PRINTABLE[r.nextInt(PRINTABLE.length)]));
            } else if (k < 800) {
                out.writeBytes(utf8(SPECIAL[r.nextInt(SPECIAL.length)]));
            } else {
                out.write(k < 950 ? ' ' : '\n');
            }
        }
        return out.toByteArray();
    }

    /** ASCII as source code and tar files hold it: words, spaces, newlines (some doubled), tabs, runs of NUL. */
    private static byte[] ascii(Random r, int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (out.size() < size) {
            int k = r.nextInt(100);
            if (k < 70) {
                out.write(0x21 + r.nextInt(0x5E));
            } else if (k < 85) {
                out.write(' ');
            } else if (k < 94) {
                out.writeBytes(k < 92 ? new byte[] {'\n'} : new byte[] {'\n', '\n'});
            } else if (k < 97) {
                out.write(k == 94 ? '\t' : k == 95 ? '\f' : 0x0B);
            } else if (k < 98) {
                out.writeBytes(new byte[8 + r.nextInt(40)]);
            } else {
                out.write(r.nextInt(0x20));
            }
        }
        return out.toByteArray();
    }

    private static byte[] utf8(int cp) {
        return new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
    }

    private static void needsGnuWc() {
        boolean present;
        try {
            Process p = new ProcessBuilder("wc", "--version").redirectErrorStream(true).start();
            present = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).contains("GNU coreutils")
                    && p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            present = false;
        }
        Assumptions.assumeTrue(present, "no GNU wc on this machine");
    }

    /** GNU wc's stdout for these arguments, with {@code stdin} (a file, or bytes through a pipe when a byte[]). */
    private static String gnuWc(List<String> args, Object stdin) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("wc"));
        cmd.addAll(args);
        return run(cmd, stdin);
    }

    private static String sluiceWc(List<String> args, Object stdin) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "wc"));
        cmd.addAll(args);
        return run(cmd, stdin);
    }

    private static String run(List<String> cmd, Object stdin) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("LC_ALL", "C.UTF-8");
        if (stdin instanceof Path) {
            pb.redirectInput(((Path) stdin).toFile());
        }
        Process p = pb.start();
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> {
            try {
                return p.getInputStream().readAllBytes();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        try (OutputStream in = p.getOutputStream()) {
            if (stdin instanceof byte[]) {
                in.write((byte[]) stdin);
            }
        }
        assertTrue(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), cmd + " did not end");
        return new String(out.get(TIMEOUT_SECONDS, TimeUnit.SECONDS), StandardCharsets.UTF_8);
    }

    private static void assertSame(List<String> args) throws Exception {
        String expected = gnuWc(args, null);
        List<String> argv = new ArrayList<>(List.of("wc"));
        argv.addAll(args);
        String[] got = MainTest.run(argv.toArray(new String[0]));
        assertEquals("0", got[0], got[2]);
        assertEquals(expected, got[1], "wc " + args + ", seed " + SEED);
    }

    @Test
    void eachInputAloneAsGnuWc() throws Exception {
        for (Path p : inputs) {
            assertSame(List.of("-lwmcL", p.toString()));
        }
    }

    @Test
    void allInputsAtOnceWithTheTotalLineAsGnuWc() throws Exception {
        for (List<String> opts : List.of(List.of("-lwmcL"), List.<String>of(), List.of("-L"), List.of("-m", "-L"),
                List.of("-c"), List.of("-wL"), List.of("-l"), List.of("-lc"))) {
            List<String> args = new ArrayList<>(opts);
            inputs.forEach(p -> args.add(p.toString()));
            assertSame(args);
        }
        for (String one : List.of("-L", "-m", "-c", "-l")) { // one count of one input: a width of 1
            assertSame(List.of(one, inputs.get(2).toString()));
        }
    }

    /** Standard input as a redirected file (wc takes its size for the width) and as a pipe (width 7), and "-". */
    @Test
    void standardInputAsGnuWc() throws Exception {
        Path in = inputs.get(2);
        byte[] bytes = Files.readAllBytes(in);
        assertEquals(gnuWc(List.of("-lwmcL"), in), sluiceWc(List.of("-lwmcL"), in), "stdin from a file, seed " + SEED);
        assertEquals(gnuWc(List.of(), bytes), sluiceWc(List.of(), bytes), "stdin from a pipe, seed " + SEED);
        assertEquals(gnuWc(List.of("-l"), bytes), sluiceWc(List.of("-l"), bytes), "-l of a pipe, seed " + SEED);
        List<String> both = List.of("-lwmcL", inputs.get(1).toString(), "-");
        assertEquals(gnuWc(both, bytes), sluiceWc(both, bytes), "a file and -, seed " + SEED);
    }
}
