package dev.sluice.bench.experiments;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * E4: open a text file and read it whole into an 8 KiB char array through each of source C's five readers (and
 * Sluice's); Latin-1 text decoded as ISO-8859-1, Japanese text as UTF-8.
 */
final class E4Readers extends Experiment {
    static final String ISR = "InputStreamReader(FileInputStream)";
    static final String ISR_FILES = "InputStreamReader(Files.newInputStream)";
    static final String NEW_BUFFERED = "Files.newBufferedReader";
    static final String CHANNELS = "Channels.newReader";
    static final String CHANNELS_RAF = "Channels.newReader(RandomAccessFile channel)";
    static final String SLUICE = "Sluice FastFiles.newReader";
    /** The article's four others, against which it found Channels.newReader(FileChannel.open) fastest. */
    static final List<String> OTHERS = List.of(ISR, ISR_FILES, NEW_BUFFERED, CHANNELS_RAF);
    static final String LATIN1 = "Latin-1 ";
    static final String JAPANESE = "Japanese ";

    E4Readers() {
        super("E4", "Readers on Latin-1 and Japanese text",
                "Channels.newReader(FileChannel.open(..)) against the other readers on small and big files (source C).");
    }

    static long[] sizes(Scale s) {
        return s.tiny() ? new long[] {4096, 65536} : new long[] {4096, 500_000, 5_000_000};
    }

    @Override
    public List<Case> cases(Corpus corpus) throws IOException {
        List<Case> c = new ArrayList<>();
        for (long size : sizes(corpus.scale())) {
            add(c, LATIN1 + Loops.size(size), corpus.latin1(size), StandardCharsets.ISO_8859_1);
            add(c, JAPANESE + Loops.size(size), corpus.japanese(size), StandardCharsets.UTF_8);
        }
        return c;
    }

    private static void add(List<Case> c, String p, Path f, Charset cs) throws IOException {
        long n = Files.size(f);
        c.add(new Case(ISR, p, n, () -> Loops.sumChars(new InputStreamReader(new FileInputStream(f.toFile()), cs))));
        c.add(new Case(ISR_FILES, p, n, () -> Loops.sumChars(new InputStreamReader(Files.newInputStream(f), cs))));
        c.add(new Case(NEW_BUFFERED, p, n, () -> Loops.sumChars(Files.newBufferedReader(f, cs))));
        c.add(new Case(CHANNELS_RAF, p, n, () -> {
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "r")) {
                return Loops.sumChars(Channels.newReader(raf.getChannel(), cs));
            }
        }));
        c.add(new Case(CHANNELS, p, n, () -> Loops.sumChars(Channels.newReader(FileChannel.open(f), cs))));
        c.add(new Case(SLUICE, p, n, () -> Loops.sumChars(dev.sluice.file.FastFiles.newReader(f, cs))));
    }

    private static List<String> params(Scale s, String corpus, boolean small) {
        List<String> out = new ArrayList<>();
        for (long size : sizes(s)) {
            if ((size <= 32768) == small) {
                out.add(corpus + Loops.size(size));
            }
        }
        return out;
    }

    @Override
    public List<Claim> claims(Scale s) {
        String setup = "Article C: JMH, files of 16 B-5 MB, Latin-1 and Japanese text, each reader's chars consumed. "
                + "Here: page-cached files of " + Loops.size(sizes(s)[0]) + "-" + Loops.size(sizes(s)[sizes(s).length - 1])
                + ", read whole into an 8 KiB char array (chars added up); Latin-1 decoded as ISO-8859-1, Japanese as "
                + "UTF-8";
        List<String> big = new ArrayList<>(params(s, LATIN1, false));
        big.addAll(params(s, JAPANESE, false));
        return List.of(
                new Claim("C17", Claim.Source.C, "Channels.newReader(FileChannel.open(..)) is 30-40% faster than the "
                        + "other four readers on small Latin-1 files.", "1.3x", Claim.Rule.BETTER, 1.3,
                        Claim.Metric.TIME, setup + "; against the best of the other four, small files.",
                        Claim.perParam(params(s, LATIN1, true), List.of(CHANNELS), OTHERS), false, null),
                new Claim("C18", Claim.Source.C, "... and as fast as them on big files.", "as fast",
                        Claim.Rule.EQUIVALENT, 1, Claim.Metric.TIME,
                        setup + "; against the best of the other four, big files of both corpora.",
                        Claim.perParam(big, List.of(CHANNELS), OTHERS), false, null),
                new Claim("C19", Claim.Source.C, "The ranking is the same on Japanese text: Channels.newReader is again "
                        + "30-40% ahead of the other four on small files.", "same winner (1.3x)", Claim.Rule.BETTER, 1.3,
                        Claim.Metric.TIME, setup + "; as C17, on the Japanese corpus.",
                        Claim.perParam(params(s, JAPANESE, true), List.of(CHANNELS), OTHERS), false, null));
    }

    @Override
    public List<Advice> advice(Scale s) {
        List<Advice> out = new ArrayList<>();
        for (long size : sizes(s)) {
            for (String corpus : List.of(LATIN1, JAPANESE)) {
                String p = corpus + Loops.size(size);
                out.add(Advice.code("E4: readers on " + p + " text", "To read " + p + " text use %s", List.of(p),
                        List.of(ISR, ISR_FILES, NEW_BUFFERED, CHANNELS_RAF, CHANNELS, SLUICE), NEW_BUFFERED));
            }
        }
        return out;
    }
}
