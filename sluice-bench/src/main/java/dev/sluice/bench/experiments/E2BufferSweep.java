package dev.sluice.bench.experiments;

import dev.sluice.io.FastBufferedInputStream;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * E2: read a page-cached file through a buffered stream of each buffer size into a destination array of each size,
 * adding up every byte. The JDK's BufferedInputStream is the classic subject; Sluice's stream gets the same sweep
 * over a few array sizes, and its best buffer becomes the {@code sluice.io.bufferSize} recommendation.
 */
final class E2BufferSweep extends Experiment {
    static final String JDK_PREFIX = "JDK buffer ";
    static final String SLUICE_PREFIX = "Sluice buffer ";

    E2BufferSweep() {
        super("E2", "Buffer size x read size",
                "Buffers larger than 2 KiB are pointless, and destination arrays of 512-1024 bytes are safe.");
    }

    static int[] buffers(Scale s) {
        if (s.tiny()) {
            return new int[] {512, 2048, 8192, 65536};
        }
        if (s.full()) {
            return new int[] {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 262144, 1 << 20, 4 << 20};
        }
        return new int[] {512, 2048, 8192, 65536, 1 << 20, 4 << 20};
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

    static String arrayParam(int size) {
        return "array " + Loops.size(size);
    }

    @Override
    public List<Case> cases(Corpus corpus) throws IOException {
        Path src = corpus.bytes();
        long n = Files.size(src);
        List<Case> c = new ArrayList<>();
        for (int array : arrays(corpus.scale())) {
            for (int buffer : buffers(corpus.scale())) {
                c.add(new Case(JDK_PREFIX + Loops.size(buffer), arrayParam(array), n,
                        () -> Loops.sumBytes(new BufferedInputStream(new FileInputStream(src.toFile()), buffer), array)));
            }
        }
        for (int array : sluiceArrays(corpus.scale())) {
            for (int buffer : buffers(corpus.scale())) {
                c.add(new Case(SLUICE_PREFIX + Loops.size(buffer), arrayParam(array), n,
                        () -> Loops.sumBytes(new FastBufferedInputStream(new FileInputStream(src.toFile()), buffer), array)));
            }
        }
        return c;
    }
}
