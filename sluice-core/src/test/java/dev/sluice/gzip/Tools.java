package dev.sluice.gzip;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The C tools interop tests run (CI installs them; a test is skipped only where a tool is truly absent). */
final class Tools {
    private Tools() {}

    static boolean installed(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code command} with {@code input} as stdin; returns stdout, or throws with stderr on a non-zero exit. */
    static byte[] run(byte[] input, String... command) throws IOException, InterruptedException {
        Path in = Files.createTempFile("sluice-gzip-tool", ".in");
        Path err = Files.createTempFile("sluice-gzip-tool", ".err");
        Path out = Files.createTempFile("sluice-gzip-tool", ".out");
        try {
            Files.write(in, input);
            Process p = new ProcessBuilder(command).redirectInput(in.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            int code = p.waitFor();
            if (code != 0) {
                throw new IOException(String.join(" ", command) + " exited " + code + ": "
                        + Files.readString(err).trim());
            }
            return Files.readAllBytes(out);
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(err);
            Files.deleteIfExists(out);
        }
    }
}
