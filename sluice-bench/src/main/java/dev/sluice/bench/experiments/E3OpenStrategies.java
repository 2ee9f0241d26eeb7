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

/** E3: open a file, read it whole through an 8 KiB array, close it; at sizes from 16 bytes to 5 MB. */
final class E3OpenStrategies extends Experiment {
    static final String FIS = "FileInputStream";
    static final String FILES = "Files.newInputStream";
    static final String RAF = "RandomAccessFile channel";
    static final String CHANNEL = "FileChannel.open + Channels.newInputStream";

    E3OpenStrategies() {
        super("E3", "Opening and reading files of many sizes",
                "For small files, FileChannel.open + Channels.newInputStream is 30-40% faster than FileInputStream.");
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
            c.add(new Case(FIS, p, n, () -> Loops.sumBytes(new FileInputStream(f.toFile()), 8192)));
            c.add(new Case(FILES, p, n, () -> Loops.sumBytes(Files.newInputStream(f), 8192)));
            c.add(new Case(RAF, p, n, () -> {
                try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "r")) {
                    return Loops.sumBytes(Channels.newInputStream(raf.getChannel()), 8192);
                }
            }));
            c.add(new Case(CHANNEL, p, n, () -> Loops.sumBytes(Channels.newInputStream(FileChannel.open(f)), 8192)));
            c.add(new Case("Sluice FastFiles.newUnbufferedInputStream", p, n,
                    () -> Loops.sumBytes(FastFiles.newUnbufferedInputStream(f), 8192)));
            c.add(new Case("Sluice FastFiles.newInputStream", p, n, () -> Loops.sumBytes(FastFiles.newInputStream(f), 8192)));
        }
        return c;
    }
}
