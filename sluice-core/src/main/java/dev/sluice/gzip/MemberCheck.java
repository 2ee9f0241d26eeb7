package dev.sluice.gzip;

import java.io.EOFException;
import java.util.zip.ZipException;

/**
 * The one owner of the end-of-member verdicts and their messages, used by every decoding path (the one-thread framing
 * in {@link GzipInputStream}, whole members on workers in {@link ParallelInflate}, index pieces in
 * {@link PieceReader}, and any later {@link ChunkSource}): a member's CRC32 and ISIZE against its trailer, its sizes
 * against what its size subfield ({@code SL} or BGZF's {@code BC}) claims, input that ends inside a member, and what
 * follows the last member. So one thread and many refuse the same input with the same exception type and the same
 * words. Stateless; every method is a pure function of its arguments (thread-safe).
 */
final class MemberCheck {
    private MemberCheck() {}

    /** The suffix every member verdict ends with. */
    static String where(long memberStart) {
        return " in member at offset " + memberStart;
    }

    /** The name of a claim's size subfield: {@code BC} (BGZF) or {@code SL} (Sluice). */
    static String field(GzipMembers.Member claim) {
        return claim.bgzf() ? "BC" : "SL";
    }

    /**
     * A member's decoded bytes against its trailer: CRC32 first, then ISIZE (the decoded length mod 2^32).
     *
     * @throws ZipException naming the expected and actual values and the member's offset
     */
    static void trailer(long trailerCrc, long trailerSize, long crc, long length, long memberStart)
            throws ZipException {
        if (crc != trailerCrc) {
            throw new ZipException(String.format("CRC32 mismatch: expected 0x%08x (trailer), actual 0x%08x"
                    + " (decoded data)%s", trailerCrc, crc, where(memberStart)));
        }
        if ((length & 0xffffffffL) != trailerSize) {
            throw new ZipException(String.format("ISIZE mismatch: expected %d (trailer), actual %d (decoded size mod"
                    + " 2^32)%s", trailerSize, length & 0xffffffffL, where(memberStart)));
        }
    }

    /**
     * A member decoded to {@code decoded} bytes and {@code length} bytes long (header to trailer) against its size
     * subfield's claim; null {@code claim} passes.
     *
     * @throws ZipException for a wrong uncompressed size (SL) or a wrong length (SL, BC)
     */
    static void claimed(GzipMembers.Member claim, long decoded, long length, long memberStart) throws ZipException {
        if (claim == null) {
            return;
        }
        if (!claim.bgzf() && decoded != claim.uncompressedSize()) {
            throw new ZipException("member decodes to " + decoded + " bytes, but the SL subfield says "
                    + claim.uncompressedSize() + where(memberStart));
        }
        if (length != claim.totalLength()) {
            throw new ZipException("member is " + length + " bytes long, but the " + field(claim) + " subfield says "
                    + claim.totalLength() + where(memberStart));
        }
    }

    /**
     * Before a member is decoded on a worker: the size the worker must make room for (its SL claim, or BGZF's ISIZE)
     * against the trailer's ISIZE and against deflate's largest expansion of {@code deflateLength} bytes, so that
     * a lying header never makes a worker allocate more than its data can yield.
     *
     * @return the claimed uncompressed size
     * @throws ZipException if the claim and the trailer disagree or the claim is impossible
     */
    static long claimedOutput(GzipMembers.Member claim, long isize, int deflateLength) throws ZipException {
        long expected = claim.bgzf() ? isize : claim.uncompressedSize();
        if ((expected & 0xffffffffL) != isize) {
            throw new ZipException("ISIZE mismatch: expected " + isize + " (trailer), but the SL subfield says "
                    + expected + " uncompressed bytes" + where(claim.offset()));
        }
        if (expected > (long) ParallelInflate.MAX_RATIO * deflateLength + 1024) {
            throw new ZipException("ISIZE " + isize + " (trailer) is impossible for " + deflateLength
                    + " bytes of deflate data" + where(claim.offset()));
        }
        return expected;
    }

    /** A member decoded on a worker yields more than its claim (checked as it decodes, so it is cut early). */
    static ZipException overrun(GzipMembers.Member claim, long expected) {
        return new ZipException("member decodes to more than the " + expected + " bytes its "
                + (claim.bgzf() ? "ISIZE trailer" : "SL subfield") + " says" + where(claim.offset()));
    }

    /**
     * A member's deflate data runs past the end its size subfield gives ({@code length} &lt; 0), or ends so that the
     * member (its trailer included) is {@code length} bytes long rather than the claimed length.
     */
    static ZipException deflateEnd(GzipMembers.Member claim, long length) {
        if (length < 0) {
            return new ZipException("deflate data does not end within the " + claim.totalLength() + " bytes the "
                    + field(claim) + " subfield gives the member" + where(claim.offset()));
        }
        return new ZipException("member is " + length + " bytes long, but the " + field(claim) + " subfield says "
                + claim.totalLength() + where(claim.offset()));
    }

    /** The input ends at {@code at} inside the member at {@code memberStart} whose size subfield claims more. */
    static EOFException truncated(long at, GzipMembers.Member claim, long memberStart) {
        return new EOFException("truncated gzip input: end of stream at offset " + at + " inside member at offset "
                + memberStart + ", whose " + field(claim) + " subfield says it is " + claim.totalLength()
                + " bytes long");
    }

    /** The input ends at {@code at} while reading {@code what} of the member at {@code memberStart}. */
    static EOFException truncated(long at, String what, long memberStart) {
        return new EOFException("truncated gzip input: end of stream at offset " + at + " while reading " + what
                + " of member at offset " + memberStart);
    }

    /** The input ends at {@code at} inside the deflate data of the member at {@code memberStart}. */
    static EOFException truncatedData(long at, long memberStart) {
        return new EOFException("truncated gzip input: end of stream at offset " + at
                + " inside the deflate data of member at offset " + memberStart);
    }

    /**
     * The rule for what follows the last member, for non-zero data at offset {@code at}: an exception unless the
     * stream's policy ignores it.
     *
     * @return true (the garbage is ignored: read the input to its end and report it)
     * @throws ZipException when {@code ignore} is false
     */
    static boolean trailingGarbage(long at, boolean ignore) throws ZipException {
        if (!ignore) {
            throw new ZipException("trailing garbage after the last gzip member at offset " + at
                    + " (expected end of input or another member)");
        }
        return true;
    }

    /** The index of the first non-zero byte of {@code b[from..to)}, or -1: zeros after the last member pass. */
    static int firstNonZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return i;
            }
        }
        return -1;
    }
}
