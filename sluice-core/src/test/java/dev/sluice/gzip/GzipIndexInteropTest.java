package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GzipIndex} against indexed_gzip (Debian python3-indexed-gzip): its GZIDX files read by Sluice, Sluice's
 * read by it, with every range compared with a full decompression. The committed fixture was made by
 * {@code index/make-fixtures.sh}; the live tests skip only when {@code /usr/bin/python3} cannot import indexed_gzip.
 */
@Timeout(120)
class GzipIndexInteropTest {

    @TempDir
    Path tmp;

    private static final String PYTHON = "/usr/bin/python3";

    static boolean indexedGzipInstalled() {
        try {
            Tools.run(new byte[0], PYTHON, "-c", "import indexed_gzip");
            return true;
        } catch (IOException | InterruptedException e) {
            System.out.println("indexed_gzip not importable: " + e.getMessage());
            return false;
        }
    }

    static byte[] gunzip(Path gz) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            return in.readAllBytes();
        }
    }

    @Test
    void committedGzidxFixture() throws IOException {
        Path dir = TestData.fixtureDir().resolve("index");
        Path gz = dir.resolve("two-members.gz");
        GzipIndex ix = GzipIndex.load(dir.resolve("two-members.gz.gzidx"));
        assertEquals(2, ix.members());
        byte[] data = gunzip(gz);
        assertEquals(data.length, ix.uncompressedSize());
        GzipIndexTest.checkReads(ix, gz, data, new Random(GzipIndexTest.seed("interop fixture")), "gzidx fixture");
    }

    @Test
    void toolIndexReadBySluice() throws Exception {
        if (!indexedGzipInstalled()) {
            return;
        }
        long seed = GzipIndexTest.seed("interop tool->sluice");
        Random r = new Random(seed);
        byte[] data = TestData.mixed(r, 3_000_000 + r.nextInt(1000));
        Path gz = tmp.resolve("t.gz");
        Files.write(gz, GzipIndexTest.concat(TestData.member(GzipHeader.minimal(), data, 6),
                TestData.member(GzipHeader.minimal(), data, 1)));
        Path idx = tmp.resolve("t.gzidx");
        Tools.run(new byte[0], PYTHON, "-c", "import indexed_gzip, sys\n"
                + "f = indexed_gzip.IndexedGzipFile(sys.argv[1], spacing=65536)\n"
                + "f.build_full_index()\nf.export_index(sys.argv[2])\nf.close()\n", gz.toString(), idx.toString());
        GzipIndex ix = GzipIndex.load(idx);
        assertTrue(ix.checkpoints() > 50, ix.toString());
        GzipIndexTest.checkReads(ix, gz, gunzip(gz), r, "indexed_gzip index, seed " + seed);
    }

    @Test
    void sluiceIndexUsedByTool() throws Exception {
        if (!indexedGzipInstalled()) {
            return;
        }
        long seed = GzipIndexTest.seed("interop sluice->tool");
        Random r = new Random(seed);
        byte[] data = TestData.text(r, 2_000_000 + r.nextInt(1000));
        Path gz = tmp.resolve("s.gz");
        Files.write(gz, GzipIndexTest.concat(TestData.member(GzipHeader.minimal(), data, 9),
                TestData.member(GzipHeader.minimal(), new byte[0], 6), TestData.member(GzipHeader.minimal(), data, 6)));
        byte[] all = gunzip(gz);
        GzipIndex ix = GzipIndex.build(gz, 100_000);
        Path idx = tmp.resolve("s.gzidx");
        ix.save(idx, GzipIndex.Format.INDEXED_GZIP);
        StringBuilder expected = new StringBuilder();
        StringBuilder offsets = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            int p = r.nextInt(all.length);
            int len = Math.min(1 + r.nextInt(70_000), all.length - p);
            offsets.append(p).append(' ').append(len).append('\n');
            expected.append(TestData.sha256(java.util.Arrays.copyOfRange(all, p, p + len))).append('\n');
        }
        // auto_build=False: the tool must seek with the imported points alone, never build its own.
        byte[] out = Tools.run(offsets.toString().getBytes(StandardCharsets.US_ASCII), PYTHON, "-c",
                "import indexed_gzip, sys, hashlib\n"
                + "f = indexed_gzip.IndexedGzipFile(sys.argv[1], auto_build=False)\n"
                + "f.import_index(sys.argv[2])\n"
                + "for line in sys.stdin:\n"
                + "    p, n = map(int, line.split())\n"
                + "    f.seek(p)\n"
                + "    print(hashlib.sha256(f.read(n)).hexdigest())\n", gz.toString(), idx.toString());
        assertEquals(expected.toString(), new String(out, StandardCharsets.US_ASCII), "seed " + seed);
    }
}
