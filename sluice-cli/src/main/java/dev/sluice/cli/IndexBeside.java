package dev.sluice.cli;

import dev.sluice.gzip.GzipIndex;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The index beside a gzip FILE, and whether it fits. Which {@link GzipIndex} {@code sluice gunzip} decodes a FILE through: the one named by {@code --index}, else the
 * first of {@code FILE.sgzi}, {@code FILE.gzidx} and gztool's {@code FILE}-without-{@code .gz}{@code .gzi} beside it
 * ({@link GzipIndex.Format#fileName}, the order {@code sluice extract} looks in), if it fits FILE: not older than
 * FILE, loadable, and accepted by {@link GzipIndex#openChannel} (FILE's size; in Sluice's format also the CRC32s of
 * its first and last 64 KiB). One that does not fit is a warning (exit status 2, as gzip's warnings) and FILE is
 * decoded without it; the output is the same either way.
 */
final class IndexBeside {
    private IndexBeside() {}

    /** The first conventional index file beside {@code gz} that exists, or null. */
    static Path beside(Path gz) {
        for (GzipIndex.Format f : GzipIndex.Format.values()) {
            Path candidate = gz.resolveSibling(f.fileName(gz.getFileName().toString()));
            if (Files.exists(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * The index to decode {@code gz} through: {@code named} (from {@code --index}) or the one {@link #beside} it;
     * null if there is none or it does not fit, which {@code io} then hears as a warning naming the reason.
     */
    static GzipIndex choose(Path gz, Path named, GzipFiles io) {
        Path file = named != null ? named : beside(gz);
        if (file == null) {
            return null;
        }
        String why;
        try {
            if (Files.getLastModifiedTime(file).compareTo(Files.getLastModifiedTime(gz)) < 0) {
                why = "it is older than " + gz;
            } else {
                GzipIndex index = GzipIndex.load(file);
                try (SeekableByteChannel checked = index.openChannel(gz)) {
                    return index;
                }
            }
        } catch (IOException | RuntimeException e) {
            why = Main.describe(e);
        }
        io.warning(gz + ": index " + file + " not used (" + why + "); decompressing without it");
        return null;
    }
}
