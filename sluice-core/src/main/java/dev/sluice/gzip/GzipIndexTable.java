package dev.sluice.gzip;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * The member starts and checkpoints an index build has found so far, in file order, and the spacing rule that picks
 * the checkpoints: a block end becomes one when it lies at least {@code spacing} uncompressed bytes after the previous
 * checkpoint or its member's start. One table per build ({@link GzipIndexBuild}, {@link GzipIndexWalk},
 * {@link GzipIndexEngineBuild}), turned into the {@link GzipIndex} at the end; the arrays double as they fill, so a
 * build holds at most twice the finished index's tables (windows aside: one 32 KiB array per checkpoint, kept as
 * given). Not thread-safe: a build that fills it on one thread and reads it on another guards it with its own lock.
 */
final class GzipIndexTable {
    private final long spacing;
    /** The uncompressed offset of the last checkpoint or member start: the spacing counts from there. */
    private long lastEntryU;

    private long[] memHeader = new long[8];
    private long[] memDeflate = new long[8];
    private long[] memU = new long[8];
    private int members;
    private long[] cpBit = new long[8];
    private long[] cpU = new long[8];
    private int[] cpMember = new int[8];
    private byte[][] windows = new byte[8][];
    private int cps;

    GzipIndexTable(long spacing) {
        this.spacing = spacing;
    }

    /**
     * Records a member whose header is at {@code header}, its deflate data at {@code deflate} and its output at
     * uncompressed offset {@code u}.
     */
    void member(long header, long deflate, long u) {
        if (members == memU.length) {
            memHeader = Arrays.copyOf(memHeader, 2 * members);
            memDeflate = Arrays.copyOf(memDeflate, 2 * members);
            memU = Arrays.copyOf(memU, 2 * members);
        }
        memHeader[members] = header;
        memDeflate[members] = deflate;
        memU[members] = u;
        members++;
        lastEntryU = u;
    }

    /** Whether a block end at uncompressed offset {@code u} is a checkpoint by the spacing rule. */
    boolean due(long u) {
        return u - lastEntryU >= spacing;
    }

    /**
     * Records a checkpoint of the last member at bit {@code bit} of the file and uncompressed offset {@code u}, with
     * its {@code window} (null: given later through {@link #window}); returns its number.
     */
    int checkpoint(long bit, long u, byte[] window) {
        if (cps == cpU.length) {
            cpBit = Arrays.copyOf(cpBit, 2 * cps);
            cpU = Arrays.copyOf(cpU, 2 * cps);
            cpMember = Arrays.copyOf(cpMember, 2 * cps);
            windows = Arrays.copyOf(windows, 2 * cps);
        }
        cpBit[cps] = bit;
        cpU[cps] = u;
        cpMember[cps] = members - 1;
        windows[cps] = window;
        lastEntryU = u;
        return cps++;
    }

    /** Sets the window of checkpoint {@code i} (one recorded already). */
    void window(int i, byte[] window) {
        windows[i] = window;
    }

    int members() {
        return members;
    }

    int checkpoints() {
        return cps;
    }

    long memHeader(int m) {
        return memHeader[m];
    }

    long memDeflate(int m) {
        return memDeflate[m];
    }

    long memU(int m) {
        return memU[m];
    }

    long cpU(int i) {
        return cpU[i];
    }

    int cpMember(int i) {
        return cpMember[i];
    }

    /**
     * The index of the {@code size}-byte file {@code ch} (its end checks read from it) of {@code uncompressed} bytes,
     * every checkpoint's window given.
     */
    GzipIndex index(FileChannel ch, long size, long uncompressed) throws IOException {
        return new GzipIndex(size, uncompressed, spacing, Arrays.copyOf(memHeader, members),
                Arrays.copyOf(memDeflate, members), Arrays.copyOf(memU, members), Arrays.copyOf(cpBit, cps),
                Arrays.copyOf(cpU, cps), Arrays.copyOf(cpMember, cps), Arrays.copyOf(windows, cps),
                GzipIndex.fileCheck(ch, size));
    }
}
