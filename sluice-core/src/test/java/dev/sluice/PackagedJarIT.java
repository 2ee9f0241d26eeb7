package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar as users get it (issue 19): a multi-release jar whose base is Java 17 bytecode and whose
 * {@code META-INF/versions/22} holds every class of {@code src/main/java22} whenever a JDK 22 or later is installed,
 * whichever JDK ran Maven. Runs in the integration-test phase, on the jar the package phase made
 * ({@code sluice.test.jar}).
 */
class PackagedJarIT {
    private static final Path MODULE = Path.of(System.getProperty("sluice.test.module", "."));
    private static final int JAVA_17 = 61;
    private static final int JAVA_22 = 66;

    @Test
    void theJarIsMultiReleaseWithJava17Base() throws IOException {
        try (JarFile jar = new JarFile(jarPath().toFile())) {
            Manifest m = jar.getManifest();
            assertEquals("true", m.getMainAttributes().getValue("Multi-Release"), "Multi-Release manifest entry");
            List<String> base = classesUnder(jar, "dev/sluice/");
            assertTrue(base.size() > 20, "base classes: " + base.size());
            for (String name : base) {
                assertEquals(JAVA_17, majorVersion(jar, name), name + " must be Java 17 bytecode");
            }
        }
    }

    @Test
    void theJava22ClassesAreThereWheneverAJdk22IsInstalled() throws IOException {
        boolean jdk22 = Runtime.version().feature() >= 22 || newestInstalledJdk() >= 22;
        List<String> expected = new ArrayList<>();
        Path java22 = MODULE.resolve("src/main/java22");
        try (Stream<Path> s = Files.walk(java22)) {
            s.filter(p -> p.toString().endsWith(".java"))
                    .forEach(p -> expected.add("META-INF/versions/22/"
                            + java22.relativize(p).toString().replace('\\', '/').replace(".java", ".class")));
        }
        assertFalse(expected.isEmpty(), "no sources under " + java22);
        try (JarFile jar = new JarFile(jarPath().toFile())) {
            List<String> versioned = classesUnder(jar, "META-INF/versions/22/");
            if (!jdk22) {
                assertEquals(List.of(), versioned, "no JDK 22+ installed, yet the jar has versioned classes");
                return;
            }
            for (String name : expected) {
                assertTrue(versioned.contains(name), name + " missing from the jar; it has " + versioned);
            }
            for (String name : versioned) {
                assertEquals(JAVA_22, majorVersion(jar, name), name + " must be Java 22 bytecode");
            }
        }
    }

    private static Path jarPath() {
        String jar = System.getProperty("sluice.test.jar");
        assertTrue(jar != null && Files.isRegularFile(Path.of(jar)), "sluice.test.jar names no file: " + jar);
        return Path.of(jar);
    }

    private static List<String> classesUnder(JarFile jar, String prefix) {
        List<String> names = new ArrayList<>();
        jar.stream().map(ZipEntry::getName)
                .filter(n -> n.startsWith(prefix) && n.endsWith(".class") && !n.endsWith("module-info.class"))
                .forEach(names::add);
        return names;
    }

    private static int majorVersion(JarFile jar, String name) throws IOException {
        try (InputStream in = jar.getInputStream(jar.getEntry(name));
             DataInputStream d = new DataInputStream(in)) {
            assertEquals(0xCAFEBABE, d.readInt(), name + " is not a class file");
            d.readUnsignedShort(); // minor
            return d.readUnsignedShort();
        }
    }

    /** The newest feature version among the JDKs under /usr/lib/jvm (or SLUICE_JDK22), as build/jdks.sh sees them. */
    private static int newestInstalledJdk() throws IOException {
        List<Path> homes = new ArrayList<>();
        String chosen = System.getenv("SLUICE_JDK22");
        if (chosen != null && !chosen.isEmpty()) {
            homes.add(Path.of(chosen));
        } else if (Files.isDirectory(Path.of("/usr/lib/jvm"))) {
            try (Stream<Path> s = Files.list(Path.of("/usr/lib/jvm"))) {
                s.forEach(homes::add);
            }
        }
        int newest = 0;
        for (Path home : homes) {
            Path release = home.resolve("release");
            if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin/javac"))) {
                continue;
            }
            for (String line : Files.readAllLines(release)) {
                if (line.startsWith("JAVA_VERSION=\"")) {
                    String v = line.substring("JAVA_VERSION=\"".length()).replaceFirst("^1\\.", "");
                    v = v.replaceFirst("[.\"].*$", "");
                    if (v.matches("[0-9]+")) {
                        newest = Math.max(newest, Integer.parseInt(v));
                    }
                }
            }
        }
        return newest;
    }
}
