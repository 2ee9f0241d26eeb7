package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.gzip.GzipIndex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21: {@code sluice gunzip} and the index beside its FILE ({@link IndexBeside}): found and used when it fits;
 * stale, of another file, unreadable or not an index: a warning, exit status 2, and the same output; one that passes
 * the checks but lies: the decoder's error; {@code --index} and {@code --no-index}; and what {@code sluice index}
 * says about it. Every output is compared byte for byte.
 */
class GunzipIndexTest {

    @TempDir
    Path dir;

    private byte[] data;
    private Path gz;
    private Path out;

    @BeforeEach
    void writeFile() throws IOException {
        Random r = new Random(21);
        StringBuilder sb = new StringBuilder();
        while (sb.length() < 700_000) {
            sb.append(r.nextInt(100_000)).append(r.nextInt(9) == 0 ? '\n' : ' ');
        }
        data = sb.toString().getBytes(StandardCharsets.US_ASCII);
        gz = dir.resolve("d.gz");
        Files.write(gz, gzip(data));
        Files.setLastModifiedTime(gz, FileTime.fromMillis(1_600_000_000_000L));
        out = dir.resolve("d");
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(b)) {
            g.write(data);
        }
        return b.toByteArray();
    }

    /** Saves {@code gz}'s index at {@code at}, newer than {@code gz}. */
    private Path index(Path of, Path at, GzipIndex.Format format) throws IOException {
        GzipIndex.build(of, 64 * 1024).save(at, format);
        Files.setLastModifiedTime(at, FileTime.fromMillis(Files.getLastModifiedTime(of).toMillis() + 1000));
        return at;
    }

    /** Runs gunzip -k -f ARGS d.gz: its exit code and stderr; the output must be the data whatever happened. */
    private String[] gunzip(String... args) throws IOException {
        Files.deleteIfExists(out);
        String[] all = new String[args.length + 4];
        all[0] = "gunzip";
        all[1] = "-k";
        all[2] = "-f";
        System.arraycopy(args, 0, all, 3, args.length);
        all[all.length - 1] = gz.toString();
        String[] r = MainTest.run(all);
        assertArrayEquals(data, Files.readAllBytes(out), String.join(" ", all) + ": " + r[2]);
        return new String[] {r[0], r[2]};
    }

    /** What the last {@link #choose} printed. */
    private String chooseErr;

    private GzipIndex choose(Path named) {
        StringWriter err = new StringWriter();
        GzipFiles io = new GzipFiles(new PrintWriter(err, true));
        GzipIndex chosen = IndexBeside.choose(gz, named, io);
        chooseErr = err.toString();
        assertEquals(chosen == null && !err.toString().isEmpty() ? GzipFiles.WARNING : GzipFiles.OK, io.exit(),
                err.toString());
        return chosen;
    }

    @Test
    void anIndexThatFitsIsFoundAndUsedSilently() throws IOException {
        assertNull(choose(null)); // none yet
        String[] indexRun = MainTest.run("index", "--spacing", "65536", gz.toString());
        assertEquals("0", indexRun[0], indexRun[2]);
        assertTrue(indexRun[2].contains("'sluice gunzip " + gz + "' and 'sluice extract' will use " + gz + ".sgzi"),
                indexRun[2]);
        Files.setLastModifiedTime(Path.of(gz + ".sgzi"), FileTime.fromMillis(1_600_000_001_000L));
        GzipIndex chosen = choose(null);
        assertNotNull(chosen);
        assertTrue(chosen.checkpoints() > 3, chosen.toString());
        String[] r = gunzip();
        assertEquals("0", r[0], r[1]);
        assertEquals("", r[1]);
        // -t and -c take the same way.
        assertEquals("0", MainTest.run("gunzip", "-t", gz.toString())[0]);
    }

    @Test
    void everyFormatIsFoundBesideTheFile() throws IOException {
        for (GzipIndex.Format f : GzipIndex.Format.values()) {
            Path at = index(gz, dir.resolve(f.fileName("d.gz")), f);
            assertNotNull(choose(null), f.toString());
            String[] r = gunzip();
            assertEquals("0", r[0], f + ": " + r[1]);
            assertEquals("", r[1], f.toString());
            Files.delete(at);
        }
    }

    @Test
    void aStaleIndexIsAWarningAndTheFileIsDecodedWithoutIt() throws IOException {
        index(gz, Path.of(gz + ".sgzi"), GzipIndex.Format.SLUICE);
        Files.setLastModifiedTime(gz, FileTime.fromMillis(1_600_000_005_000L)); // touched after the index
        assertNull(choose(null));
        String[] r = gunzip();
        assertEquals("2", r[0], r[1]);
        assertEquals("sluice: " + gz + ": index " + gz + ".sgzi not used (it is older than " + gz
                + "); decompressing without it", r[1].strip());
        assertEquals("2", MainTest.run("gunzip", "-t", gz.toString())[0]);
    }

    @Test
    void anotherFilesIndexIsAWarning() throws IOException {
        // Another size: every format knows the gzip file's size.
        Path other = dir.resolve("other.gz");
        Files.write(other, gzip(new byte[] {'x', '\n'}));
        index(other, Path.of(gz + ".sgzi"), GzipIndex.Format.SLUICE);
        Files.setLastModifiedTime(Path.of(gz + ".sgzi"), FileTime.fromMillis(1_600_000_009_000L));
        String[] r = gunzip();
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].contains("index " + gz + ".sgzi not used (") && r[1].contains("compressed size"), r[1]);
        // The same size, other bytes (the header's MTIME): Sluice's format knows the CRC32s of the file's ends.
        byte[] same = Files.readAllBytes(gz);
        same[4] ^= 1;
        Files.write(other, same);
        index(other, Path.of(gz + ".sgzi"), GzipIndex.Format.SLUICE);
        Files.setLastModifiedTime(Path.of(gz + ".sgzi"), FileTime.fromMillis(1_600_000_009_000L));
        r = gunzip();
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].contains("not used (") && r[1].contains("CRC32"), r[1]);
    }

    @Test
    void anUnreadableIndexIsAWarning() throws IOException {
        Path index = Files.createDirectory(Path.of(gz + ".sgzi")); // unreadable as a file, for root too
        Files.setLastModifiedTime(index, FileTime.fromMillis(1_600_000_009_000L));
        String[] r = gunzip();
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].startsWith("sluice: " + gz + ": index " + index + " not used ("), r[1]);
        Files.delete(index);
        Files.write(index, "not an index".getBytes(StandardCharsets.US_ASCII));
        Files.setLastModifiedTime(index, FileTime.fromMillis(1_600_000_009_000L));
        r = gunzip();
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].contains("not used ("), r[1]);
    }

    /**
     * The index reaches the decoder: a GZIDX file (no checksum) whose windows were overwritten passes IndexBeside's
     * checks, and the decoder, working through it on several threads, refuses it: an error, exit 1, no output file.
     * Without the index the same FILE decodes. (With one thread the decoder does not use an index.)
     */
    @Test
    void anIndexWhoseWindowsLieIsTheDecodersError() throws IOException {
        assumeTrue(Runtime.getRuntime().availableProcessors() > 1
                && System.getProperty("sluice.gzip.inflateThreads") == null, "one thread: no index decoding");
        // Larger than the decoder's pieces (about 4 MiB of output), so that pieces start at checkpoints.
        ByteArrayOutputStream big = new ByteArrayOutputStream();
        for (int i = 0; i < 18; i++) {
            big.writeBytes(data);
            big.write('0' + i % 10);
        }
        data = big.toByteArray();
        Files.write(gz, gzip(data));
        Files.setLastModifiedTime(gz, FileTime.fromMillis(1_600_000_000_000L));
        Path index = index(gz, Path.of(gz + ".gzidx"), GzipIndex.Format.INDEXED_GZIP);
        byte[] b = Files.readAllBytes(index);
        int windows = GzipIndex.load(index).checkpoints();
        assertTrue(windows > 2, "checkpoints: " + windows);
        // GZIDX keeps the windows, 32 KiB each, at the end of the file: overwrite all but the last one's.
        Arrays.fill(b, b.length - windows * 32768, b.length - 32768, (byte) 'Z');
        Files.write(index, b);
        Files.setLastModifiedTime(index, FileTime.fromMillis(1_600_000_009_000L));
        assertNotNull(choose(null), () -> chooseErr);
        Files.deleteIfExists(out);
        String[] r = MainTest.run("gunzip", "-k", gz.toString());
        assertEquals("1", r[0], r[2]);
        assertTrue(r[2].startsWith("sluice: " + gz + ": "), r[2]);
        assertTrue(!Files.exists(out), "no partial output");
        r = gunzip("--no-index");
        assertEquals("0", r[0], r[1]);
        // The true index, through the decoder's pieces: the same bytes.
        index(gz, index, GzipIndex.Format.INDEXED_GZIP);
        r = gunzip();
        assertEquals("0", r[0], r[1]);
        assertEquals("", r[1]);
    }

    @Test
    void indexNamesOneAndNoIndexIgnoresThem() throws IOException {
        Path named = index(gz, Files.createDirectory(dir.resolve("elsewhere")).resolve("x.idx"),
                GzipIndex.Format.SLUICE);
        assertNotNull(choose(named));
        String[] r = gunzip("--index", named.toString());
        assertEquals("0", r[0], r[1]);
        assertEquals("", r[1]);
        String[] indexRun = MainTest.run("index", "-o", dir.resolve("elsewhere/y.idx").toString(), gz.toString());
        assertTrue(indexRun[2].contains("only when named: 'sluice gunzip --index "), indexRun[2]);

        // A stale index beside the file: --no-index does not look at it, in both parsers.
        index(gz, Path.of(gz + ".gzidx"), GzipIndex.Format.INDEXED_GZIP);
        Files.setLastModifiedTime(gz, FileTime.fromMillis(1_600_000_005_000L));
        assertEquals("2", gunzip()[0]);
        r = gunzip("--no-index");
        assertEquals("0", r[0], r[1]);
        assertEquals("", r[1]);
        Files.delete(out);
        StringWriter err = new StringWriter();
        assertEquals(Integer.valueOf(0), GunzipCommand.runPlainForm(new String[] {"gunzip", "-k", "--no-index",
            gz.toString()}, new PrintWriter(err, true)));
        assertEquals("", err.toString());
        assertArrayEquals(data, Files.readAllBytes(out));

        // --index naming one that does not fit (stale too): the same warning.
        r = gunzip("--index", named.toString());
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].contains("index " + named + " not used (it is older than"), r[1]);

        // Usage errors: exit 1, nothing written.
        Files.delete(out);
        assertEquals("1", MainTest.run("gunzip", "--index", named.toString(), "--no-index", gz.toString())[0]);
        assertEquals("1", MainTest.run("gunzip", "--index", named.toString(), gz.toString(), gz.toString())[0]);
        assertEquals("1", MainTest.run("gunzip", "--index", named.toString())[0]);
        assertTrue(!Files.exists(out));
    }

    /**
     * Issue 32 item 3: {@code --write-index} decodes FILE and saves its index beside it in the same pass; FILE is
     * kept; the next gunzip uses the index silently; trailing garbage is still gzip's warning; a corrupt FILE leaves
     * neither output nor index; standard input and {@code --index} are usage errors.
     */
    @Test
    void writeIndexSavesTheIndexWhileDecoding() throws IOException {
        Path sgzi = Path.of(gz + ".sgzi");
        String[] r = MainTest.run("gunzip", "--write-index", gz.toString());
        assertEquals("0", r[0], r[2]);
        assertEquals("", r[2]);
        assertArrayEquals(data, Files.readAllBytes(out));
        assertTrue(Files.exists(gz), "--write-index keeps FILE");
        GzipIndex written = GzipIndex.load(sgzi);
        assertEquals(data.length, written.uncompressedSize());
        try (java.nio.channels.SeekableByteChannel ch = written.openChannel(gz)) {
            Random rnd = new Random(32);
            for (int i = 0; i < 20; i++) {
                int at = rnd.nextInt(data.length);
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(Math.min(5000, data.length - at));
                while (b.hasRemaining() && ch.position(at + b.position()).read(b) > 0) {
                    // fills b
                }
                assertArrayEquals(Arrays.copyOfRange(data, at, at + b.capacity()), b.array(), "at " + at);
            }
        }
        assertNotNull(choose(null), chooseErr);
        r = gunzip();
        assertEquals("0", r[0], r[1]);
        assertEquals("", r[1]);

        // -c writes the data to stdout and the index beside FILE.
        Files.delete(sgzi);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        GzipFiles io = new GzipFiles(new PrintWriter(err, true));
        io.stdout = stdout;
        GunzipCommand c = new GunzipCommand();
        c.writeIndex = true;
        c.options.toStdout = true;
        c.options.files = java.util.List.of(gz.toString());
        c.io = io;
        assertEquals(Integer.valueOf(0), c.call(), err.toString());
        assertArrayEquals(data, stdout.toByteArray());
        assertEquals(data.length, GzipIndex.load(sgzi).uncompressedSize());

        // Trailing garbage: gzip's warning, the data, and the index of the members before it.
        Files.delete(sgzi);
        byte[] garbage = Arrays.copyOf(gzip(data), gzip(data).length + 7);
        Arrays.fill(garbage, garbage.length - 7, garbage.length, (byte) 'x');
        Files.write(gz, garbage);
        r = MainTest.run("gunzip", "-f", "--write-index", gz.toString());
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].contains("trailing garbage ignored"), r[2]);
        assertArrayEquals(data, Files.readAllBytes(out));
        assertEquals(data.length, GzipIndex.load(sgzi).uncompressedSize());

        // A corrupt FILE: an error, and neither output nor index.
        Files.delete(sgzi);
        Files.delete(out);
        byte[] bad = gzip(data);
        bad[bad.length / 2] ^= 0x40;
        Files.write(gz, bad);
        r = MainTest.run("gunzip", "--write-index", gz.toString());
        assertEquals("1", r[0], r[2]);
        assertTrue(!Files.exists(out) && !Files.exists(sgzi), r[2]);

        // Usage errors.
        assertEquals("1", MainTest.run("gunzip", "--write-index")[0]);
        assertEquals("1", MainTest.run("gunzip", "--write-index", "-")[0]);
        assertEquals("1", MainTest.run("gunzip", "--write-index", "--index", sgzi.toString(), gz.toString())[0]);
    }
}
