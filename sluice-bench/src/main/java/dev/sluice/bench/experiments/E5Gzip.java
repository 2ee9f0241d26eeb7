package dev.sluice.bench.experiments;

import dev.sluice.gzip.GzipInputStream;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * E5: decompress the gzipped byte corpus, reading the output through an 8 KiB array. MB/s counts uncompressed
 * bytes. The sweep varies Sluice GzipInputStream's input buffer (its property sluice.gzip.inputBufferSize)
 * over a plain FileInputStream.
 */
final class E5Gzip extends Experiment {
    static final String STRATEGIES = "strategies";
    static final String SWEEP = "input buffer sweep";
    static final String DEFAULT = "GZIPInputStream (512 B default)";
    static final String OVER_BIS = "GZIPInputStream over BufferedInputStream";
    static final String BUF64K = "GZIPInputStream 64 KiB buffer";
    static final String BUF64K_OVER_BIS = "GZIPInputStream 64 KiB buffer over BufferedInputStream";
    static final String OKIO = "Okio GzipSource";
    static final String SLUICE = "Sluice GzipInputStream";

    E5Gzip() {
        super("E5", "Gzip decompression",
                "GZIPInputStream's buffer size, and whether a BufferedInputStream under it helps (source A).");
    }

    static int[] sweep(Scale s) {
        return s.tiny() ? new int[] {512, 8192, 65536} : new int[] {512, 2048, 8192, 16384, 65536, 262144, 1 << 20};
    }

    static String sweepVariant(int size) {
        return "Sluice " + Loops.size(size) + " input buffer";
    }

    @Override
    public List<Case> cases(Corpus corpus) throws IOException {
        Path gz = corpus.gzip();
        long n = Files.size(corpus.bytes());
        List<Case> c = new ArrayList<>();
        c.add(new Case(DEFAULT, STRATEGIES, n, () -> Loops.sumBytes(new GZIPInputStream(new FileInputStream(gz.toFile())), 8192)));
        c.add(new Case(OVER_BIS, STRATEGIES, n, () -> Loops.sumBytes(
                new GZIPInputStream(new BufferedInputStream(new FileInputStream(gz.toFile()))), 8192)));
        c.add(new Case(BUF64K, STRATEGIES, n, () -> Loops.sumBytes(
                new GZIPInputStream(new FileInputStream(gz.toFile()), 65536), 8192)));
        c.add(new Case(BUF64K_OVER_BIS, STRATEGIES, n, () -> Loops.sumBytes(
                new GZIPInputStream(new BufferedInputStream(new FileInputStream(gz.toFile())), 65536), 8192)));
        c.add(new Case(OKIO, STRATEGIES, n, () -> Loops.sumBytes(
                okio.Okio.buffer(new okio.GzipSource(okio.Okio.source(gz))).inputStream(), 8192)));
        c.add(new Case(SLUICE, STRATEGIES, n, () -> Loops.sumBytes(
                new GzipInputStream(new FileInputStream(gz.toFile())), 8192)));
        for (int size : sweep(corpus.scale())) {
            // Sluice's own class, so that the sweep can back advice on its property sluice.gzip.inputBufferSize.
            c.add(new Case(sweepVariant(size), SWEEP, n, () -> Loops.sumBytes(
                    GzipInputStream.builder().bufferSize(size).build(new FileInputStream(gz.toFile())), 8192)));
        }
        return c;
    }

    @Override
    public List<Claim> claims(Scale s) {
        String setup = "Article A: advice with no loop or file given. Here: the " + Loops.size(s.corpusBytes())
                + " byte corpus gzipped at level 6, page-cached, decompressed into an 8 KiB array (bytes added up)";
        return List.of(
                new Claim("C06", Claim.Source.A, "GZIPInputStream with a 64 KiB buffer reads faster than with its "
                        + "512 B default.", "faster", Claim.Rule.BETTER, Claim.FASTER, Claim.Metric.TIME, setup + ".",
                        List.of(new Claim.Pair(Claim.at(BUF64K, STRATEGIES), Claim.at(DEFAULT, STRATEGIES))), false,
                        null),
                new Claim("C07", Claim.Source.A, "A BufferedInputStream under GZIPInputStream(in, 64 KiB) adds nothing.",
                        "as fast", Claim.Rule.NOT_WORSE, 1, Claim.Metric.TIME, setup + "; 64 KiB straight on the file "
                        + "against 64 KiB over a BufferedInputStream (8 KiB).",
                        List.of(new Claim.Pair(Claim.at(BUF64K, STRATEGIES), Claim.at(BUF64K_OVER_BIS, STRATEGIES))),
                        false, null));
    }

    @Override
    public List<Advice> advice(Scale s) {
        List<String> candidates = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        String builtIn = null;
        for (int size : sweep(s)) {
            candidates.add(sweepVariant(size));
            sizes.add((long) size);
            if (size == GzipInputStream.DEFAULT_BUFFER_SIZE) {
                builtIn = sweepVariant(size);
            }
        }
        return List.of(
                Advice.code("E5: gzip readers over the same file", "To read gzip use %s", List.of(STRATEGIES),
                        List.of(DEFAULT, OVER_BIS, BUF64K, BUF64K_OVER_BIS, OKIO, SLUICE), DEFAULT),
                new Advice("E5: Sluice GzipInputStream input buffer sweep", "Sluice GzipInputStream's input buffer",
                        List.of(SWEEP), candidates, builtIn, "sluice.gzip.inputBufferSize", sizes));
    }
}
