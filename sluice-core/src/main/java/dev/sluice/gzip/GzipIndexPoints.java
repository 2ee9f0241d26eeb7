package dev.sluice.gzip;

import java.util.zip.ZipException;

/**
 * The one check of a loaded index's points, whatever format they came from (Sluice's, indexed_gzip's, gztool's):
 * after it the reader ({@link GzipIndexChannel}) trusts them. Stateless.
 *
 * <p>What a point must satisfy, against the gzip file the index describes (whose size {@link GzipIndex#openChannel}
 * checks before any read):
 * <ul>
 *   <li>member starts: deflate offsets strictly increasing within the file, the header (when known) before its data,
 *       the first member at uncompressed offset 0, uncompressed offsets never decreasing;</li>
 *   <li>checkpoints: bit and uncompressed offsets strictly increasing, inside their member (between its start and
 *       the next member's), each with the window it needs: the 32 KiB before it, or all of its member before it when
 *       that is shorter;</li>
 *   <li>every uncompressed offset at most the uncompressed size when the index knows it, and at most
 *       {@link #MAX_BYTES_PER_BIT} times the compressed bits before it: no deflate stream makes more (a length-258
 *       match with the distance 1 costs at least a 1-bit literal/length code and a 1-bit distance code), so an offset
 *       past the file's end is refused even by an index that does not know the uncompressed size.</li>
 * </ul>
 * A point that fails is a {@link ZipException} naming it, its offsets and the rule.
 */
final class GzipIndexPoints {
    private GzipIndexPoints() {}

    /** The most uncompressed bytes one bit of deflate data can stand for: 258 bytes per match of two 1-bit codes. */
    static final long MAX_BYTES_PER_BIT = 129;

    /** The largest compressed size an index may state: 8 bits a byte, times the ratio above, still fits a long. */
    static final long MAX_COMPRESSED_SIZE = Long.MAX_VALUE / (8 * MAX_BYTES_PER_BIT);

    /**
     * Checks the points of an index of a {@code csize}-byte gzip file of {@code usize} uncompressed bytes (-1 if
     * unknown): member starts ({@code mh} header offsets, -1 if unknown; {@code md} deflate offsets; {@code mu}
     * uncompressed offsets) and checkpoints ({@code cb} bit offsets, {@code cu} uncompressed offsets, {@code cm}
     * members, {@code wl} window lengths). A {@code csize} of -1 is an index that does not know it (gztool's): the
     * offsets are then bounded by {@link #MAX_COMPRESSED_SIZE} here, and by the file's size when it is opened. With
     * {@code allMembers} false the member table lists only some members, so a checkpoint's member may have started
     * after the one it names: its window may then be shorter than that member's data before it, never longer.
     *
     * @throws ZipException naming the first point that breaks a rule
     */
    static void check(long csize, long usize, long[] mh, long[] md, long[] mu, long[] cb, long[] cu, int[] cm,
            int[] wl, boolean allMembers) throws ZipException {
        if (csize < -1 || csize > MAX_COMPRESSED_SIZE) {
            throw new ZipException("index compressed size " + csize + " not in [-1, " + MAX_COMPRESSED_SIZE + "]");
        }
        if (csize < 0) {
            csize = MAX_COMPRESSED_SIZE;
        }
        long maxU = csize * 8 * MAX_BYTES_PER_BIT;
        if (usize < -1 || usize > maxU) {
            throw new ZipException("index uncompressed size " + usize + " not in [-1, " + maxU + "] for a "
                    + csize + "-byte file");
        }
        long uLimit = usize >= 0 ? usize : maxU;
        for (int i = 0; i < md.length; i++) {
            String what = "index member start " + i + " (compressed offset " + md[i] + ", uncompressed offset "
                    + mu[i] + ")";
            if (md[i] < (i > 0 ? md[i - 1] + 1 : 0) || md[i] > csize) {
                throw new ZipException(what + ": compressed offset not after the previous member's and within the "
                        + csize + "-byte file");
            }
            if (mh[i] < -1 || mh[i] >= md[i] || i > 0 && mh[i] >= 0 && mh[i] <= md[i - 1]) {
                throw new ZipException(what + ": header offset " + mh[i] + " not between the previous member's data"
                        + " and its own");
            }
            if (mu[i] < (i > 0 ? mu[i - 1] : 0) || i == 0 && mu[i] != 0) {
                throw new ZipException(what + ": uncompressed offset " + (i == 0 ? "of the first member not 0"
                        : "before the previous member's " + mu[i - 1]));
            }
            checkU(what, mu[i], md[i] * 8, usize, uLimit);
        }
        for (int i = 0; i < cb.length; i++) {
            String what = "index checkpoint " + i + " (bit offset " + cb[i] + ", uncompressed offset " + cu[i] + ")";
            if (cb[i] < (i > 0 ? cb[i - 1] + 1 : 0) || cb[i] > csize * 8) {
                throw new ZipException(what + ": bit offset not after the previous checkpoint's and within the "
                        + csize + "-byte file");
            }
            if (cu[i] < (i > 0 ? cu[i - 1] + 1 : 0)) {
                throw new ZipException(what + ": uncompressed offset not after the previous checkpoint's");
            }
            checkU(what, cu[i], cb[i], usize, uLimit);
            int m = cm[i];
            if (m < 0 || m >= md.length || md[m] * 8 > cb[i] || mu[m] > cu[i]
                    || m + 1 < md.length && (md[m + 1] * 8 <= cb[i] || mu[m + 1] < cu[i])) {
                throw new ZipException(what + ": not inside its member " + m + " of " + md.length);
            }
            long needed = Math.min(GzipIndexBuild.WINDOW, cu[i] - mu[m]);
            if (allMembers ? wl[i] != needed : wl[i] > needed) {
                throw new ZipException(what + ": window of " + wl[i] + " bytes, " + needed + " needed");
            }
        }
    }

    private static void checkU(String what, long u, long bitsBefore, long usize, long uLimit) throws ZipException {
        if (u > uLimit) {
            throw new ZipException(what + ": uncompressed offset past the end of the data ("
                    + (usize >= 0 ? usize + " bytes in the index" : "at most " + uLimit + " bytes in this file") + ")");
        }
        if (u > bitsBefore * MAX_BYTES_PER_BIT) {
            throw new ZipException(what + ": more uncompressed bytes than " + bitsBefore
                    + " bits of deflate data can hold");
        }
    }
}
