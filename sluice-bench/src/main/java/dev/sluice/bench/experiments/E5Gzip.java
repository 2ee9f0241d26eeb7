package dev.sluice.bench.experiments;

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

    E5Gzip() {
        super("E5", "Gzip decompression",
                "GZIPInputStream should get a 64 KiB input buffer and read its source directly, with no "
                        + "BufferedInputStream under it.");
    }

    static int[] sweep(Scale s) {
        return s.tiny() ? new int[] {512, 8192, 65536} : new int[] {512, 2048, 8192, 16384, 65536, 262144, 1 << 20};
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
        c.add(new Case("Okio GzipSource", STRATEGIES, n, () -> Loops.sumBytes(
                okio.Okio.buffer(new okio.GzipSource(okio.Okio.source(gz))).inputStream(), 8192)));
        c.add(new Case("Sluice GzipInputStream", STRATEGIES, n, () -> Loops.sumBytes(
                new dev.sluice.gzip.GzipInputStream(new FileInputStream(gz.toFile())), 8192)));
        for (int size : sweep(corpus.scale())) {
            // Sluice's own class, so that the sweep can back advice on its property sluice.gzip.inputBufferSize.
            c.add(new Case("Sluice " + Loops.size(size) + " input buffer", SWEEP, n, () -> Loops.sumBytes(
                    dev.sluice.gzip.GzipInputStream.builder().bufferSize(size).build(new FileInputStream(gz.toFile())),
                    8192)));
        }
        return c;
    }
}
