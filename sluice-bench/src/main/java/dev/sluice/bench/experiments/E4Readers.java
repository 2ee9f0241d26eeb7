package dev.sluice.bench.experiments;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * E4: open a text file and read it whole into an 8 KiB char array through each reader; Latin-1 text decoded as
 * ISO-8859-1, Japanese text as UTF-8.
 */
final class E4Readers extends Experiment {
    static final String ISR = "InputStreamReader(FileInputStream)";
    static final String NEW_BUFFERED = "Files.newBufferedReader";
    static final String CHANNELS = "Channels.newReader";

    E4Readers() {
        super("E4", "Readers on Latin-1 and Japanese text",
                "Channels.newReader(FileChannel) is the fastest way to read a text file.");
    }

    static long[] sizes(Scale s) {
        return s.tiny() ? new long[] {4096, 65536} : new long[] {4096, 500_000, 5_000_000};
    }

    @Override
    public List<Case> cases(Corpus corpus) throws IOException {
        List<Case> c = new ArrayList<>();
        for (long size : sizes(corpus.scale())) {
            add(c, "Latin-1 " + Loops.size(size), corpus.latin1(size), StandardCharsets.ISO_8859_1);
            add(c, "Japanese " + Loops.size(size), corpus.japanese(size), StandardCharsets.UTF_8);
        }
        return c;
    }

    private static void add(List<Case> c, String p, Path f, Charset cs) throws IOException {
        long n = Files.size(f);
        c.add(new Case(ISR, p, n, () -> Loops.sumChars(new InputStreamReader(new FileInputStream(f.toFile()), cs))));
        c.add(new Case(NEW_BUFFERED, p, n, () -> Loops.sumChars(Files.newBufferedReader(f, cs))));
        c.add(new Case(CHANNELS, p, n, () -> Loops.sumChars(Channels.newReader(FileChannel.open(f), cs))));
        c.add(new Case("Sluice FastFiles.newReader", p, n, () -> Loops.sumChars(dev.sluice.file.FastFiles.newReader(f, cs))));
    }
}
