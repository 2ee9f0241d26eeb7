package dev.sluice.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

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
        try (InputStream in = SizePolicy.class.getResourceAsStream("size-policy.properties")) {
            if (in == null) {
                throw new IllegalStateException("size-policy.properties is missing from the CLI's jar");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        GZIP_ZLIB_BELOW = Long.parseLong(p.getProperty("gzip.zlibBelowBytes").trim());
    }
}
