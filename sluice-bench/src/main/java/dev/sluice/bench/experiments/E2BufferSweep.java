package dev.sluice.bench.experiments;

import dev.sluice.io.FastBufferedInputStream;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * E2: read a page-cached file through a BufferedInputStream of each buffer size into a destination array of each
 * size, adding up every byte: source D's loop (its "simple algorithm" sums the file's bytes). Beside the sweep, the
 * cells of source A's buffer claims (128 KiB against 125000 B; 128 KiB blocks with and without a buffer, with no
 * per-byte work) and of source D's many-threads claim: the heap that 256 open streams retain, and the total speed of
 * 1, cores and 8 × cores threads reading at once. Sluice's stream gets the same sweep over a few array sizes; its
 * best buffer becomes the {@code sluice.io.bufferSize} recommendation.
 */
final class E2BufferSweep extends Experiment {
    static final String JDK_PREFIX = "JDK buffer ";
    static final String SLUICE_PREFIX = "Sluice buffer ";
    static final String BLOCKS = "blocks of 128 KiB, no per-byte work";
    static final String NO_BUFFER = "FileInputStream, no buffer";
    static final String DEFAULT_BUFFER = "BufferedInputStream, 8 KiB default";
    static final String K128 = JDK_PREFIX + "128 KiB";
    static final String K125 = JDK_PREFIX + "125000 B";
    /** Streams held open at once for the retained-heap cell. */
    static final int OPEN_STREAMS = 256;
    static final String HEAP = OPEN_STREAMS + " streams open, one byte read from each";

    E2BufferSweep() {
        super("E2", "Buffer size x read size",
                "Buffer and destination array sizes for BufferedInputStream: what is safe, what is pointless, what "
                        + "costs memory (sources A and D).");
    }

    static int[] buffers(Scale s) {
        if (s.tiny()) {
            return new int[] {512, 2048, 8192, 65536, 1 << 20};
        }
        if (s.full()) {
            return new int[] {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 262144, 1 << 20, 4 << 20};
        }
        return new int[] {512, 2048, 8192, 65536, 1 << 20};
    }

    static int[] arrays(Scale s) {
        if (s.tiny()) {
            return new int[] {8, 512, 8192};
        }
        if (s.full()) {
            return new int[] {8, 32, 128, 512, 1024, 4096, 8192, 65536, 1 << 20};
        }
        return new int[] {8, 64, 512, 1024, 8192, 65536, 1 << 20};
    }

    /** The array sizes Sluice's buffer sweep reads with: small pieces, where the buffer size matters. */
    static int[] sluiceArrays(Scale s) {
        return s.tiny() ? new int[] {8, 512} : new int[] {8, 64, 512, 1024};
    }

    /** Thread counts of the many-readers cells: 1, the cores, 8 × the cores. */
    static int[] threads() {
        int cores = Runtime.getRuntime().availableProcessors();
        return cores == 1 ? new int[] {1, 8} : new int[] {1, cores, 8 * cores};
    }

    static String arrayParam(int size) {
        return "array " + Loops.size(size);
    }

    static String threadsParam(int n) {
        return n + (n == 1 ? " thread" : " threads") + " at once, 1 KiB arrays";
    }

    static String jdk(int buffer) {
        return JDK_PREFIX + Loops.size(buffer);
    }

    @Override
    public List<Case> cases(Corpus corpus) throws IOException {
        Scale s = corpus.scale();
        Path src = corpus.bytes();
        long n = Files.size(src);
        List<Case> c = new ArrayList<>();
        for (int array : arrays(s)) {
            for (int buffer : buffers(s)) {
                c.add(new Case(jdk(buffer), arrayParam(array), n,
                        () -> Loops.sumBytes(new BufferedInputStream(new FileInputStream(src.toFile()), buffer), array)));
            }
            if (array == 512 || array == 1024) {   // source A: 131072 over 125000
                c.add(new Case(K128, arrayParam(array), n,
                        () -> Loops.sumBytes(new BufferedInputStream(new FileInputStream(src.toFile()), 131072), array)));
                c.add(new Case(K125, arrayParam(array), n,
                        () -> Loops.sumBytes(new BufferedInputStream(new FileInputStream(src.toFile()), 125000), array)));
            }
        }
        c.add(new Case(NO_BUFFER, BLOCKS, n, () -> Loops.drain(new FileInputStream(src.toFile()), 131072)));
        c.add(new Case(DEFAULT_BUFFER, BLOCKS, n,
                () -> Loops.drain(new BufferedInputStream(new FileInputStream(src.toFile())), 131072)));
        for (int array : sluiceArrays(s)) {
            for (int buffer : buffers(s)) {
                c.add(new Case(SLUICE_PREFIX + Loops.size(buffer), arrayParam(array), n,
                        () -> Loops.sumBytes(new FastBufferedInputStream(new FileInputStream(src.toFile()), buffer), array)));
            }
        }
        Path small = corpus.bytes(s.byteLoopBytes());
        long smallSize = Files.size(small);
        for (int buffer : new int[] {2048, 65536}) {
            c.add(new Case(jdk(buffer), HEAP, OPEN_STREAMS, () -> retainedHeap(small, buffer)));
            for (int t : threads()) {
                c.add(new Case(jdk(buffer), threadsParam(t), t * smallSize, () -> readers(small, buffer, t), true, false));
            }
        }
        return c;
    }

    /**
     * Opens {@link #OPEN_STREAMS} buffered streams on {@code f}, reads one byte from each (so every buffer is
     * allocated), and reports the heap they hold between two full collections to {@link Measure#retained}.
     */
    private static long retainedHeap(Path f, int buffer) throws IOException {
        InputStream[] open = new InputStream[OPEN_STREAMS];
        long sum = 0;
        long before = Measure.heapAfterGc();
        try {
            for (int i = 0; i < open.length; i++) {
                open[i] = new BufferedInputStream(new FileInputStream(f.toFile()), buffer);
                sum += open[i].read();
            }
            Measure.retained(Measure.heapAfterGc() - before);
        } finally {
            for (InputStream in : open) {
                if (in != null) {
                    in.close();
                }
            }
        }
        return sum;
    }

    /** {@code threads} threads each read {@code f} whole through its own buffered stream at the same time. */
    private static long readers(Path f, int buffer, int threads) throws IOException {
        long[] sums = new long[threads];
        IOException[] failure = new IOException[1];
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            int me = i;
            ts[i] = new Thread(() -> {
                long allocated = dev.sluice.bench.CpuClock.threadAllocatedBytes();
                try {
                    sums[me] = Loops.sumBytes(new BufferedInputStream(new FileInputStream(f.toFile()), buffer), 1024);
                    Measure.allocatedElsewhere(dev.sluice.bench.CpuClock.threadAllocatedBytes() - allocated);
                } catch (IOException e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                }
            });
            ts[i].start();
        }
        try {
            for (Thread t : ts) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the readers ran", e);
        }
        synchronized (failure) {
            if (failure[0] != null) {
                throw failure[0];
            }
        }
        long total = 0;
        for (long v : sums) {
            total += v;
        }
        return total;
    }

    /** Paired rounds per fork of the comparisons holding C05's cells (arrays of 512 B and 1 KiB) in a quick run. */
    static final int C05_ROUNDS = 12;

    /**
     * C05 (131072 over 125000) compares two buffers 2% apart, one point below its margin's lower edge (1.05 / 1.02).
     * Over six quick runs (2026-11-27/28) its per-round ratio had a spread of 1.74% within a fork and its forks no
     * effect of their own (per-fork spread 0.61%, what six rounds of that noise give): its interval is as wide as its
     * rounds make it, and at 6 rounds one run in five or so reached the edge. Twice the rounds (12) cut the standard
     * error by 1.41, enough by the same figures for fewer than one run in a hundred; they cost ~6 s per fork. Other
     * comparisons keep the scale's rounds.
     */
    @Override
    public int rounds(String param, Scale s) {
        boolean c05 = param.equals(arrayParam(512)) || param.equals(arrayParam(1024));
        return c05 && s.name().equals(Scale.QUICK.name()) ? Math.max(C05_ROUNDS, s.reps()) : s.reps();
    }

    @Override
    public List<Claim> claims(Scale s) {
        int[] buffers = buffers(s);
        int[] arrays = arrays(s);
        String loop = "here: a page-cached " + Loops.size(s.corpusBytes()) + " file, source D's loop (read into the "
                + "array, add up every byte), ";
        String d = "Article D: a 31 MB video, a file per case so the cache could not help, an SSD, sums every byte; ";
        String a = "Article A: no loop given (advice on reading large files); ";
        List<Claim> out = new ArrayList<>();

        List<Claim.Pair> c03 = new ArrayList<>();
        List<Claim.Pair> c04 = new ArrayList<>();
        for (int array : arrays) {
            if (array < 65536) {
                c03.add(new Claim.Pair(Claim.at(jdk(65536), arrayParam(array)), Claim.at(jdk(8192), arrayParam(array))));
                List<String> large = new ArrayList<>();
                for (int b : buffers) {
                    if (b >= 512 << 10 && b <= 2 << 20) {
                        large.add(jdk(b));
                    }
                }
                c04.add(new Claim.Pair(Claim.each(arrayParam(array), large), Claim.at(jdk(65536), arrayParam(array))));
            }
        }
        List<String> k5 = new ArrayList<>();
        for (int array : arrays) {
            if (array == 512 || array == 1024) {
                k5.add(arrayParam(array));
            }
        }
        out.add(new Claim("C01", Claim.Source.A, "Reading 128 KiB blocks straight from FileInputStream is as fast as "
                + "through a BufferedInputStream (\"100K+ blocks need no buffer\").", "as fast", Claim.Rule.NOT_WORSE, 1,
                Claim.Metric.TIME, a + "here: the " + Loops.size(s.corpusBytes()) + " page-cached file read in 128 KiB "
                + "blocks with nothing done to them, FileInputStream alone against a BufferedInputStream (8 KiB default).",
                List.of(new Claim.Pair(Claim.at(NO_BUFFER, BLOCKS), Claim.at(DEFAULT_BUFFER, BLOCKS))), false, null));
        out.add(new Claim("C03", Claim.Source.A, "A 64 KiB BufferedInputStream buffer reads faster than the 8 KiB "
                + "default.", "faster", Claim.Rule.BETTER, Claim.FASTER, Claim.Metric.TIME,
                a + loop + "arrays below 64 KiB, geometric mean.", c03, false, null));
        out.add(new Claim("C04", Claim.Source.A, "For very large files, 512 KiB-2 MiB buffers read faster than 64 KiB.",
                "faster", Claim.Rule.BETTER, Claim.FASTER, Claim.Metric.TIME,
                a + loop + "1 MiB against 64 KiB buffers, arrays below 64 KiB; cold with --cold.", c04, true, null));
        out.add(new Claim("C05", Claim.Source.A, "Buffer sizes that are multiples of 4096 read faster: 131072 over "
                + "125000.", "faster", Claim.Rule.BETTER, Claim.FASTER, Claim.Metric.TIME,
                a + loop + "arrays of 512 B and 1 KiB.", Claim.perParam(k5, List.of(K128), List.of(K125)), false, null));

        List<Claim.Pair> c20 = new ArrayList<>();
        for (int buffer : buffers) {
            List<Claim.Cell> mid = new ArrayList<>();
            List<Claim.Cell> larger = new ArrayList<>();
            for (int array : arrays) {
                (array == 512 || array == 1024 ? mid : array > 1024 ? larger : new ArrayList<Claim.Cell>())
                        .add(new Claim.Cell(jdk(buffer), arrayParam(array)));
            }
            c20.add(new Claim.Pair(mid, larger));
        }
        List<Claim.Pair> c21 = new ArrayList<>();
        List<Claim.Pair> c22 = new ArrayList<>();
        for (int array : arrays) {
            List<String> others = new ArrayList<>();
            List<String> upTo2k = new ArrayList<>();
            List<String> above2k = new ArrayList<>();
            for (int b : buffers) {
                (b == 8192 ? new ArrayList<String>() : others).add(jdk(b));
                (b <= 2048 ? upTo2k : above2k).add(jdk(b));
            }
            if (array >= 16) {
                c21.add(new Claim.Pair(Claim.at(jdk(8192), arrayParam(array)), Claim.each(arrayParam(array), others)));
            }
            if (array <= 1024) {
                c22.add(new Claim.Pair(Claim.each(arrayParam(array), upTo2k), Claim.each(arrayParam(array), above2k)));
            }
        }
        out.add(new Claim("C20", Claim.Source.D, "Destination arrays of 512 B or 1 KiB are safe whatever the buffer "
                + "size (as fast as larger arrays).", "as fast", Claim.Rule.NOT_WORSE, 1, Claim.Metric.TIME,
                d + loop + "per buffer size the better of 512 B and 1 KiB arrays against "
                + "the best larger one, geometric mean over buffer sizes.", c20, false, null));
        out.add(new Claim("C21", Claim.Source.D, "The default 8 KiB buffer is well tuned as long as arrays are at least "
                + "16 B (as fast as any other buffer).", "as fast", Claim.Rule.NOT_WORSE, 1, Claim.Metric.TIME,
                d + loop + "per array of 16 B or more, 8 KiB against the best other "
                + "buffer, geometric mean.", c21, false, null));
        out.add(new Claim("C22", Claim.Source.D, "Buffers larger than 2 KiB give nothing (the best of 2 KiB or less "
                + "is as fast).", "as fast", Claim.Rule.NOT_WORSE, 1, Claim.Metric.TIME,
                d + loop + "per array of 1 KiB or less, the best buffer of 2 KiB or less "
                + "against the best larger one, geometric mean.", c22, false, null));
        List<Claim.Pair> speed = new ArrayList<>();
        for (int t : threads()) {
            speed.add(new Claim.Pair(Claim.at(jdk(2048), threadsParam(t)), Claim.at(jdk(65536), threadsParam(t))));
        }
        out.add(new Claim("C23", Claim.Source.D, "With many threads reading at once, 2 KiB buffers give the same total "
                + "throughput as 64 KiB at a fraction of the heap.", "as fast, less memory", Claim.Rule.BETTER, 2,
                Claim.Metric.MEMORY, "Article D: reasoned, not measured. Here: the heap " + OPEN_STREAMS + " open "
                + "streams retain (between full collections), 2 KiB against 64 KiB buffers; \"a fraction\" counts as "
                + "k = 2. The throughput half: 1, cores and 8 x cores threads each reading a page-cached "
                + Loops.size(s.byteLoopBytes()) + " file in 1 KiB arrays.",
                List.of(new Claim.Pair(Claim.at(jdk(2048), HEAP), Claim.at(jdk(65536), HEAP))), false,
                new Claim.Also("total throughput of 2 KiB over 64 KiB buffers at 1, cores and 8 x cores threads "
                        + "(the \"same throughput\" half)", Claim.Rule.NOT_WORSE, 1, Claim.Metric.TIME, speed)));
        out.add(new Claim("C24", Claim.Source.D, "On a disk, with a file per case so the cache cannot help, buffers "
                + "larger than 2 KiB still give nothing (C20-C22 hold the same).", "as in C22", Claim.Rule.NOT_WORSE, 1,
                Claim.Metric.TIME, d + "here: C22's cells, read cold (every file dropped from the page cache before "
                + "every repetition) under --cold.", c22, true, null));
        return out;
    }

    @Override
    public List<Advice> advice(Scale s) {
        List<String> params = new ArrayList<>();
        for (int array : sluiceArrays(s)) {
            params.add(arrayParam(array));
        }
        List<String> candidates = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        String builtIn = null;
        for (int b : buffers(s)) {
            candidates.add(SLUICE_PREFIX + Loops.size(b));
            sizes.add((long) b);
            if (b == FastBufferedInputStream.DEFAULT_BUFFER_SIZE) {
                builtIn = SLUICE_PREFIX + Loops.size(b);
            }
        }
        return List.of(new Advice("E2: Sluice FastBufferedInputStream reading a page-cached file in pieces of "
                + Loops.size(sluiceArrays(s)[0]) + "-" + Loops.size(sluiceArrays(s)[sluiceArrays(s).length - 1])
                + ", geometric mean over the piece sizes", "FastBuffered*Stream's buffer", params, candidates, builtIn,
                "sluice.io.bufferSize", sizes));
    }
}
