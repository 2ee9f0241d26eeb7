package dev.sluice.bench.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Cold reads for {@code sluice report --cold}: before every repetition, every data file's pages are dropped from the
 * page cache with GNU {@code dd if=FILE iflag=nocache count=0}, which calls posix_fadvise(POSIX_FADV_DONTNEED) on the
 * whole file (the JDK has no fadvise). Works for any user who can read the file, on every Linux file system; pages a
 * writer has not yet written back are written back first. The repetition is then one operation, so that all of it
 * reads from the device.
 */
final class Cold {
    private Cold() {}

    /** How the report says its reads were made cold. */
    static final String HOW = "cold: before every repetition each data file's pages were dropped from the page cache "
            + "with dd iflag=nocache count=0 (posix_fadvise DONTNEED); one operation per repetition";

    /** Drops every input file under {@code dir} (not the outputs the experiments write) from the page cache. */
    static void drop(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith("out-"))
                    .filter(p -> !p.getFileName().toString().endsWith(".json"))
                    .toList();
        }
        for (Path f : files) {
            Process p = new ProcessBuilder("dd", "if=" + f, "iflag=nocache", "count=0", "status=none")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IOException("dd iflag=nocache on " + f + " did not finish in 30 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while dropping " + f + " from the page cache", e);
            }
            if (p.exitValue() != 0) {
                throw new IOException("dd iflag=nocache on " + f + " failed (exit " + p.exitValue() + ")");
            }
        }
    }
}
