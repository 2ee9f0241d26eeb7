package dev.sluice.bench.experiments;

import dev.sluice.file.FastFiles;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * E3: open a file, read it whole through an 8 KiB array adding up its bytes, close it; at source C's sizes, 16 bytes
 * to 5 MB (its JMH benchmark consumed the stream into a Blackhole; here the sum is what keeps the work). The sum is
 * made out of line, by one piece of compiled code for every variant ({@link Sink}): inlined, its speed was a lottery
 * per variant and fork.
 */
final class E3OpenStrategies extends Experiment {
    static final String FIS = "FileInputStream";
    static final String FILES = "Files.newInputStream";
    static final String RAF = "RandomAccessFile channel";
    static final String CHANNEL = "FileChannel.open + Channels.newInputStream";
    static final String SLUICE_UNBUFFERED = "Sluice FastFiles.newUnbufferedInputStream";
    static final String SLUICE = "Sluice FastFiles.newInputStream";

    E3OpenStrategies() {
        super("E3", "Opening and reading files of many sizes",
                "FileInputStream against the channel streams, by file size, in time and in allocation (source C).");
    }

    static long[] sizes(Scale s) {
        return s.tiny() ? new long[] {16, 4096, 32768} : new long[] {16, 4096, 32768, 500_000, 5_000_000};
    }

    @Override
    public List<Case> cases(Corpus corpus) throws IOException {
        List<Case> c = new ArrayList<>();
        for (long size : sizes(corpus.scale())) {
            Path f = corpus.bytes(size);
            long n = Files.size(f);
            String p = "file " + Loops.size(size);
            c.add(new Case(FIS, p, n, () -> Loops.sumBytesOutOfLine(new FileInputStream(f.toFile()), 8192)));
            c.add(new Case(FILES, p, n, () -> Loops.sumBytesOutOfLine(Files.newInputStream(f), 8192)));
            c.add(new Case(RAF, p, n, () -> {
                try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "r")) {
                    return Loops.sumBytesOutOfLine(Channels.newInputStream(raf.getChannel()), 8192);
                }
            }));
            c.add(new Case(CHANNEL, p, n, () -> Loops.sumBytesOutOfLine(Channels.newInputStream(FileChannel.open(f)), 8192)));
            c.add(new Case(SLUICE_UNBUFFERED, p, n,
                    () -> Loops.sumBytesOutOfLine(FastFiles.newUnbufferedInputStream(f), 8192)));
            c.add(new Case(SLUICE, p, n, () -> Loops.sumBytesOutOfLine(FastFiles.newInputStream(f), 8192)));
        }
        return c;
    }

    private static List<String> params(Scale s, boolean small) {
        List<String> out = new ArrayList<>();
        long[] sizes = sizes(s);
        for (long size : sizes) {
            // Small: 16 B-32 KiB as in the article; big: 500 KB and 5 MB (at --tiny, the largest size there is).
            if (small ? size <= 32768 : size > 32768 || (s.tiny() && size == sizes[sizes.length - 1])) {
                out.add("file " + Loops.size(size));
            }
        }
        return out;
    }

    @Override
    public List<Claim> claims(Scale s) {
        List<String> small = params(s, true);
        List<String> big = params(s, false);
        String setup = "Article C: JMH, files of 16 B, 4 KiB, 32 KiB, 500 KB and 5 MB, consumed into a Blackhole. "
                + "Here: the same sizes page-cached, opened, read whole into an 8 KiB array (bytes added up) and closed";
        return List.of(
                new Claim("C13", Claim.Source.C, "FileInputStream puts more pressure on the garbage collector than "
                        + "Files.newInputStream: opening, reading and closing small files through it allocates more.",
                        "more GC", Claim.Rule.BETTER, Claim.FASTER, Claim.Metric.ALLOCATION,
                        setup + "; allocated bytes of the calling thread per file, 16 B-32 KiB, geometric mean; "
                                + "collections per 10^4 opens shown beside.",
                        Claim.perParam(small, List.of(FILES), List.of(FIS)), false, null),
                new Claim("C14", Claim.Source.C, "For files of 16 B-32 KiB, FileChannel.open + Channels.newInputStream "
                        + "is clearly faster than FileInputStream.", "faster", Claim.Rule.BETTER, Claim.FASTER,
                        Claim.Metric.TIME, setup + "; 16 B-32 KiB, geometric mean.",
                        Claim.perParam(small, List.of(CHANNEL), List.of(FIS)), false, null),
                new Claim("C15", Claim.Source.C, "For files of 500 KB and 5 MB, FileInputStream is as fast as the "
                        + "channel stream or slightly faster (4-8%).", "as fast", Claim.Rule.NOT_WORSE, 1,
                        Claim.Metric.TIME, setup + "; 500 KB and 5 MB, geometric mean.",
                        Claim.perParam(big, List.of(FIS), List.of(CHANNEL)), false, null),
                new Claim("C16", Claim.Source.C, "Files.newInputStream is far faster than FileInputStream on small "
                        + "files.", "far faster", Claim.Rule.BETTER, Claim.FAR_FASTER, Claim.Metric.TIME,
                        setup + "; 16 B-32 KiB, geometric mean (the \"close on big files\" half is C15's kind).",
                        Claim.perParam(small, List.of(FILES), List.of(FIS)), false,
                        new Claim.Also("Files.newInputStream over FileInputStream on 500 KB and 5 MB files (\"close "
                                + "on big ones\")", Claim.Rule.EQUIVALENT, 1, Claim.Metric.TIME,
                                Claim.perParam(big, List.of(FILES), List.of(FIS)))));
    }

    @Override
    public List<Advice> advice(Scale s) {
        List<Advice> out = new ArrayList<>();
        for (long size : sizes(s)) {
            String p = "file " + Loops.size(size);
            out.add(Advice.code("E3: open and read a " + p, "To open and read a " + Loops.size(size) + " file use %s",
                    List.of(p), List.of(FIS, FILES, RAF, CHANNEL, SLUICE_UNBUFFERED, SLUICE), FILES));
        }
        return out;
    }
}
