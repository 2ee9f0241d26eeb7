package dev.sluice.cli.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The JDKs a report can measure on: {@code --jdk PATH} (a JDK home, or its bin/java) and {@code --all-jdks} (every
 * JDK 17 or newer under /usr/lib/jvm and $JAVA_HOME, oldest first, each once however many links point at it).
 * A JDK's version and vendor come from its {@code release} file.
 */
public final class Jdks {
    private Jdks() {}

    /** The JDK home of {@code path}, which may be the home or its bin/java; IllegalArgumentException if neither. */
    public static Path home(Path path) {
        Path p = path.toAbsolutePath().normalize();
        if (Files.isRegularFile(p) && p.getParent() != null && p.getParent().getParent() != null) {
            p = p.getParent().getParent();
        }
        if (!Files.isExecutable(p.resolve("bin").resolve("java"))) {
            throw new IllegalArgumentException("--jdk " + path + ": no bin/java there (give a JDK's home directory)");
        }
        return p;
    }

    /** Every JDK 17+ under /usr/lib/jvm and $JAVA_HOME, by version; IllegalArgumentException when there is none. */
    public static List<Path> all() {
        Set<Path> found = new LinkedHashSet<>();
        List<Path> candidates = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/usr/lib/jvm"))) {
            ds.forEach(candidates::add);
        } catch (IOException | RuntimeException e) {
            // no /usr/lib/jvm: only JAVA_HOME
        }
        String env = System.getenv("JAVA_HOME");
        if (env != null && !env.isBlank()) {
            candidates.add(Path.of(env));
        }
        for (Path c : candidates) {
            try {
                Path real = c.toRealPath();
                if (Files.isExecutable(real.resolve("bin/java")) && major(real) >= 17) {
                    found.add(real);
                }
            } catch (IOException e) {
                // a dangling link: not a JDK
            }
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException("--all-jdks: no JDK 17 or newer under /usr/lib/jvm or $JAVA_HOME");
        }
        List<Path> out = new ArrayList<>(found);
        out.sort(Comparator.comparingInt(Jdks::major).thenComparing(Path::toString));
        return out;
    }

    /** The feature version from the home's release file (JAVA_VERSION="17.0.15" gives 17; "1.8.0" gives 8), or -1. */
    public static int major(Path home) {
        String v = release(home, "JAVA_VERSION");
        if (v == null) {
            return -1;
        }
        String[] parts = v.split("[.+-]");
        try {
            int first = Integer.parseInt(parts[0]);
            return first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** "Eclipse Adoptium 25.0.1", from the release file, or the home's name. */
    public static String label(Path home) {
        String v = release(home, "JAVA_VERSION");
        String who = release(home, "IMPLEMENTOR");
        if (v == null) {
            return home.getFileName().toString();
        }
        return (who == null ? "JDK" : who) + " " + v;
    }

    static String release(Path home, String key) {
        try {
            for (String line : Files.readAllLines(home.resolve("release"), StandardCharsets.UTF_8)) {
                if (line.startsWith(key + "=")) {
                    return line.substring(key.length() + 1).replace("\"", "").trim();
                }
            }
        } catch (IOException e) {
            // no release file
        }
        return null;
    }
}
