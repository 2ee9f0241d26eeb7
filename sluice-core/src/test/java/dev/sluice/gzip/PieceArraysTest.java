package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An indexed decode makes its workers' arrays once: pieces of uneven length (the checkpoints lie at block ends, so
 * pieces differ by up to a block) all fit the output buffers and input arrays the first pieces made, because
 * {@link PieceReader} sizes them for the largest piece. Without that, a recycled array too small for the next piece
 * was dropped and a new one made, memory the kernel faults in and zeroes anew: a sixth of an indexed gunzip's CPU on
 * 2 cores (issue 31).
 */
@Timeout(60)
class PieceArraysTest {
    private static final long SEED = Long.getLong("sluice.test.seed", System.nanoTime());

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {2, 3})
    void unevenPiecesReuseTheFirstArrays(int threads) throws IOException {
        System.out.println("PieceArraysTest seed " + SEED);
        Random r = new Random(SEED + threads);
        // Stretches of text and of random bytes: checkpoints (at block ends) are uneven in both output and input.
        ByteArrayOutputStream d = new ByteArrayOutputStream();
        while (d.size() < 12_000_000) {
            int n = 20_000 + r.nextInt(120_000);
            d.writeBytes(r.nextBoolean() ? TestData.text(r, n) : TestData.mixed(r, n));
        }
        byte[] data = d.toByteArray();
        byte[] gz = TestData.member(GzipHeader.minimal(), data, 6);
        Path f = dir.resolve("uneven.gz");
        Files.write(f, gz);
        EntryPoints ep = GzipIndex.build(f, 20_000).entryPoints();
        // A few checkpoints a piece, so that the largest piece stays well under four times this (the hint's cap):
        // the JDK's deflater writes blocks of up to ~260 KB of output here.
        long pieceSize = 300_000;
        int maxInFlight = PieceReader.maxInFlight(threads);
        ParallelInflate workers = new ParallelInflate(threads, maxInFlight);
        int header = GzipHeader.minimal().encode(0).length;
        // The whole file as the bytes read past the header: every piece's input is a slice of that one block.
        PieceReader pieces = new PieceReader(ep, workers, new ByteArrayInputStream(new byte[0]), gz, header,
                gz.length, 0, null, false, pieceSize);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int count = 0;
        try {
            for (ParallelInflate.Decoded p; (p = pieces.next()) != null; count++) {
                ByteBuffer b = p.out.duplicate().limit(p.len).position(0);
                byte[] a = new byte[p.len];
                b.get(a);
                out.writeBytes(a);
                pieces.recycle(p);
            }
        } finally {
            pieces.close();
        }
        assertArrayEquals(data, out.toByteArray(), "seed " + SEED);
        // At most every piece in flight and the one the caller holds, each an output buffer and an input array.
        int bound = 2 * (maxInFlight + 1);
        assertTrue(count > 2 * bound, count + " pieces: too few for the bound to mean anything");
        assertTrue(workers.arraysMade() <= bound,
                workers.arraysMade() + " arrays made for " + count + " pieces, at most " + bound + " expected; seed "
                        + SEED);
    }
}
