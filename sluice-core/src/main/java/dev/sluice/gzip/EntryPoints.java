package dev.sluice.gzip;

/**
 * The seam between the index and the framing: the places where decoding of a gzip file can start, as
 * {@link GzipInputStream}'s parallel pieces need them, and what the index knows to tell its file from another. Made
 * only by {@code GzipIndex.entryPoints()}, so that the framing never reads the index's own tables. Immutable.
 *
 * <p>Entry {@code i} is at compressed bit offset {@code bit[i]} and uncompressed offset {@code u[i]}, both
 * non-decreasing in {@code i}: either a member's deflate data (byte-aligned, {@code window[i] == null}: no
 * dictionary) or a checkpoint inside a member ({@code window[i]}: the bytes before it, at most 32 KiB). Every entry
 * adds output or a member start over the previous one (a checkpoint where no output has been made since the last
 * entry is left out), so the first byte before a checkpoint entry's offset is always in the checkpoint's own member.
 */
final class EntryPoints {
    /** The gzip file's size, or -1 if the index does not say. */
    final long compressedSize;
    /** The uncompressed size, or -1 if the index does not say. */
    final long uncompressedSize;
    /** CRC32 of the file's first and last {@link #checkBytes} bytes (fewer for a smaller file), or null. */
    final int[] fileCheck;
    final int checkBytes;
    final long[] bit;
    final long[] u;
    final Window[] window;

    EntryPoints(long compressedSize, long uncompressedSize, int[] fileCheck, int checkBytes, long[] bit, long[] u,
            Window[] window) {
        this.compressedSize = compressedSize;
        this.uncompressedSize = uncompressedSize;
        this.fileCheck = fileCheck;
        this.checkBytes = checkBytes;
        this.bit = bit;
        this.u = u;
        this.window = window;
    }

    int size() {
        return bit.length;
    }

    /** True if entry {@code i} is a member's deflate start rather than a checkpoint. */
    boolean memberStart(int i) {
        return window[i] == null;
    }

    /** The first byte offset of the input a piece starting at entry {@code i} needs. */
    long startByte(int i) {
        return bit[i] >>> 3;
    }

    /** The end (exclusive) of the input a piece ending at entry {@code i} needs: its byte, if a bit of it is ours. */
    long endByte(int i) {
        return (bit[i] + 7) >>> 3;
    }
}
