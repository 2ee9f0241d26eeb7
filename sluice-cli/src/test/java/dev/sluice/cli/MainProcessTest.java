package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.gzip.ParallelGzipOutputStream;
import dev.sluice.gzip.ParallelGzipOutputStream.Format;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Main#main} in a JVM of its own, as the launcher runs it. A command that succeeds returns from main instead
 * of calling System.exit (which costs a tiny command about a fifth of its time on JDK 21+), so the JVM ends only
 * when no other non-daemon thread is left: each case here must end by itself, with its exit status, and a thread
 * that Sluice leaves running would show as a timeout.
 */
class MainProcessTest {

    @TempDir
    Path dir;

    private static final long TIMEOUT_SECONDS = 60;

    /** The command line of {@code sluice ARGS} in a child JVM of this one's JDK and class path. */
    private static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Runs {@code sluice ARGS} in a child JVM; returns its exit status and stdout. */
    private static Object[] sluice(String... args) throws Exception {
        Process p = new ProcessBuilder(command(args)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
        p.getOutputStream().close();
        boolean ended = p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        assertTrue(ended, "sluice " + String.join(" ", args) + " did not end within " + TIMEOUT_SECONDS + " s");
        return new Object[] {p.exitValue(), out.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)};
    }

    private static byte[] readAll(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A reader that goes away ({@code sluice gunzip -c big.gz | head}): the status a shell reports for gzip there
     * (141, killed by SIGPIPE) and nothing on stderr, for gunzip on one thread, gunzip on workers, gzip and extract.
     */
    @Test
    void aClosedPipeOnStdoutEndsQuietlyWith141() throws Exception {
        Random r = new Random(11);
        byte[] text = new byte[12 << 20];
        for (int i = 0; i < text.length; i++) {
            text[i] = (byte) ('a' + r.nextInt(4)); // compresses 4:1: the output is far larger than a pipe holds
        }
        byte[] noise = new byte[12 << 20];
        r.nextBytes(noise);
        Path plain = Files.write(dir.resolve("noise"), noise);
        Path one = dir.resolve("one.gz");
        try (OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(one))) {
            out.write(text);
        }
        Path members = dir.resolve("members.sgz");
        try (OutputStream out = ParallelGzipOutputStream.builder().format(Format.INDEPENDENT_MEMBERS).threads(2)
                .blockSize(256 * 1024).build(Files.newOutputStream(members))) {
            out.write(text);
        }
        for (String[] args : List.of(new String[] {"gunzip", "-c", one.toString()},
                new String[] {"gunzip", "-c", members.toString()}, new String[] {"gzip", "-1", "-c", plain.toString()},
                new String[] {"extract", one.toString()})) {
            Path err = dir.resolve("err.txt");
            Process p = new ProcessBuilder(command(args)).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            InputStream out = p.getInputStream();
            assertTrue(out.read() >= 0, String.join(" ", args) + " wrote nothing");
            out.close(); // the reader goes, as head does after its first lines
            boolean ended = p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly();
            }
            assertTrue(ended, String.join(" ", args) + " did not end within " + TIMEOUT_SECONDS + " s");
            assertEquals("", Files.readString(err), String.join(" ", args));
            assertEquals(GzipFiles.BROKEN_PIPE, p.exitValue(), String.join(" ", args));
        }
    }

    @Test
    void everydayCommandsEndByThemselvesWithTheirStatus() throws Exception {
        byte[] data = new byte[3 << 20];
        new Random(7).nextBytes(data);
        for (int i = 0; i < data.length; i += 2) {
            data[i] = 'a'; // compressible, so that the parallel members are real deflate work
        }
        Path a = Files.write(dir.resolve("a"), data);
        Path b = Files.write(dir.resolve("b"), data);
        data[data.length - 1] ^= 1;
        Path c = Files.write(dir.resolve("c"), data);
        data[data.length - 1] ^= 1;
        // Independent members, so that gunzip decodes on worker threads (the threads that must not keep the JVM).
        Path sgz = dir.resolve("a.sgz");
        try (OutputStream out = ParallelGzipOutputStream.builder().format(Format.INDEPENDENT_MEMBERS).threads(2)
                .blockSize(256 * 1024).build(Files.newOutputStream(sgz))) {
            out.write(data);
        }

        assertEquals(0, sluice("cmp", a.toString(), b.toString())[0]);
        assertEquals(1, sluice("cmp", "-s", a.toString(), c.toString())[0]);
        Object[] gunzip = sluice("gunzip", "-c", sgz.toString());
        assertEquals(0, gunzip[0]);
        assertArrayEquals(data, (byte[]) gunzip[1]);
        Object[] gzip = sluice("gzip", "-c", a.toString());
        assertEquals(0, gzip[0]);
        ByteArrayOutputStream back = new ByteArrayOutputStream();
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream((byte[]) gzip[1]))) {
            in.transferTo(back);
        }
        assertArrayEquals(data, back.toByteArray());
        assertEquals(0, sluice("wc", a.toString())[0]);
        assertEquals(0, sluice("sum", a.toString())[0]);
        assertEquals(0, sluice("cp", a.toString(), dir.resolve("copy").toString())[0]);
        assertArrayEquals(data, Files.readAllBytes(dir.resolve("copy")));
        assertEquals(0, sluice("--version")[0]);
        assertEquals(2, sluice("cmp", a.toString(), dir.resolve("missing").toString())[0]);
    }
}
