package dev.sluice.testing;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;

/** Test data on disk: seeded random bytes, files holding them, and FIFOs fed by a thread. */
public final class TestFiles {
    private TestFiles() {}

    /** {@code size} bytes from a {@link Random} seeded with {@code seed}: the same bytes on every run. */
    public static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** A new file in {@code dir} holding {@code data}. */
    public static Path fileOf(Path dir, byte[] data) throws IOException {
        Path p = Files.createTempFile(dir, "data", ".bin");
        Files.write(p, data);
        return p;
    }

    /**
     * Makes a FIFO at {@code fifo} with mkfifo(1) (the test is skipped where there is none) and starts a daemon
     * thread that writes {@code data} into it and closes it.
     */
    public static Thread fifoWriter(Path fifo, byte[] data) throws Exception {
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo is needed");
        Thread t = new Thread(() -> {
            try (OutputStream out = new FileOutputStream(fifo.toFile())) {
                out.write(data);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }
}
