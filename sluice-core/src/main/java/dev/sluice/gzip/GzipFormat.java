package dev.sluice.gzip;

import dev.sluice.internal.Checks;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;

/** What both gzip writers share: argument checks for level and strategy, the XFL byte and the trailer. */
final class GzipFormat {
    private GzipFormat() {}

    static int checkLevel(int level) {
        Checks.argument(level >= 0 && level <= 9, "level outside 0..9: %s", level);
        return level;
    }

    static int checkStrategy(int strategy) {
        Checks.argument(strategy == Deflater.DEFAULT_STRATEGY || strategy == Deflater.FILTERED
                || strategy == Deflater.HUFFMAN_ONLY, "strategy is not a java.util.zip.Deflater strategy: %s",
                strategy);
        return strategy;
    }

    /** XFL as gzip writes it: 2 for the slowest level, 4 for the fastest, else 0. */
    static int xfl(int level) {
        return level == 9 ? 2 : level == 1 ? 4 : 0;
    }

    /** Writes CRC32 and ISIZE (the size mod 2^32), little-endian. */
    static void writeTrailer(OutputStream out, long crc, long size) throws IOException {
        out.write(trailer(crc, size));
    }

    /** CRC32 and ISIZE (the size mod 2^32), little-endian: a member's 8-byte trailer. */
    static byte[] trailer(long crc, long size) {
        byte[] t = new byte[8];
        for (int i = 0; i < 4; i++) {
            t[i] = (byte) (crc >>> (8 * i));
            t[4 + i] = (byte) (size >>> (8 * i));
        }
        return t;
    }
}
