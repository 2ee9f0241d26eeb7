package dev.sluice.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The CLI's view of {@code size-policy.properties}, the one place where the size thresholds that choose JVM options
 * (read by the {@code ./sluice} launcher) and engines are written, each with the measurement that chose it. Loaded
 * when first used, so only a gzip or gunzip run that chooses its engine reads the file.
 */
final class SizePolicy {
    private SizePolicy() {}

    /** gzip and gunzip use the JDK's zlib when their files come to less than this ({@code gzip.zlibBelowBytes}). */
    static final long GZIP_ZLIB_BELOW;

    static {
        Properties p = new Properties();
        try (InputStream in = open()) {
            if (in == null) {
                throw new IllegalStateException("size-policy.properties is missing from the CLI's jar");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        GZIP_ZLIB_BELOW = Long.parseLong(p.getProperty("gzip.zlibBelowBytes").trim());
    }

    private static final String NAME = "size-policy.properties";

    /**
     * The file, read straight from the jar (or classes directory) that holds this class: the class loader's lookup
     * asks the JDK's own modules first, which for a resource starts the JDK's image reader through reflection, 10-14
     * ms of every gzip and gunzip on JDK 25 on the path to their first byte (docs/benchmarks/gzip.md, 2026-11-28).
     * The jar is open already (the class loader's), so opening it again reuses its directory. The class loader's
     * lookup where this fails; null where neither finds it.
     */
    private static InputStream open() {
        try {
            Path where = Path.of(SizePolicy.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            String entry = SizePolicy.class.getPackageName().replace('.', '/') + "/" + NAME;
            if (Files.isDirectory(where)) {
                return Files.newInputStream(where.resolve(entry));
            }
            try (ZipFile jar = new ZipFile(where.toFile())) {
                ZipEntry e = jar.getEntry(entry);
                if (e != null) {
                    try (InputStream in = jar.getInputStream(e)) {
                        return new ByteArrayInputStream(in.readAllBytes());
                    }
                }
            }
        } catch (IOException | URISyntaxException | RuntimeException elsewhere) {
            // not a file or jar (another class loader's code source): the class loader's lookup below
        }
        return SizePolicy.class.getResourceAsStream(NAME);
    }
}
