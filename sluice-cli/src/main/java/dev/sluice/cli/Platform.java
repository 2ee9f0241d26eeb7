package dev.sluice.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a measurement ran on: JDK, OS, CPU model, core count and the file system holding a directory. Read from
 * system properties and, on Linux, /proc/cpuinfo; anything unreadable is reported as "unknown", never an error.
 */
record Platform(String jdk, String os, String cpu, int cores, String fileSystem) {

    static Platform probe(Path dir) throws IOException {
        String jdk = System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version");
        String os = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch");
        FileStore store = Files.getFileStore(dir.toAbsolutePath());
        String fs = store.type() + " (" + store.name() + ")";
        return new Platform(jdk, os, cpuModel(), Runtime.getRuntime().availableProcessors(), fs);
    }

    static String cpuModel() {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        try {
            if (Files.isReadable(cpuinfo)) {
                List<String> lines = Files.readAllLines(cpuinfo, StandardCharsets.ISO_8859_1);
                for (String line : lines) {
                    if (line.startsWith("model name")) {
                        int colon = line.indexOf(':');
                        return line.substring(colon + 1).trim();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through: the CPU model is informative, never essential
        }
        return "unknown (" + System.getProperty("os.arch") + ")";
    }
}
