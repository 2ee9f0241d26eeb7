package dev.sluice.hadoop;

/**
 * Reads the header of an independent gzip member: one whose FEXTRA field says how long the member is, either
 * Sluice's 'SL' subfield (LEN 16: u64 total member length, u64 uncompressed size, both little-endian) or BGZF's
 * 'BC' subfield (LEN 2: u16 total block size minus 1). Both formats are described in docs/design.md.
 *
 * <p>Only the fixed header and the extra field are looked at; whether the member really is one (its deflate data,
 * CRC32 and ISIZE) is for the caller to confirm by decoding it. Kept package-private and stateless so that it can be
 * swapped for sluice-core's member scanner once that exists.
 */
final class MemberHeaders {

    /** The fixed part of a gzip header: ID1 ID2 CM FLG MTIME(4) XFL OS, then XLEN (2) when FEXTRA is set. */
    static final int FIXED = 12;

    private static final int FEXTRA = 0x04;
    private static final int RESERVED = 0xe0;

    private MemberHeaders() {}

    /** True if {@code b[off..off+3)} can start a gzip member: ID1, ID2, CM = 8 (deflate). */
    static boolean isMagic(byte[] b, int off) {
        return b[off] == (byte) 0x1f && b[off + 1] == (byte) 0x8b && b[off + 2] == 8;
    }

    /**
     * True if {@code b[off..off+FIXED)} starts a member with an extra field and no reserved flag bits: the only
     * headers worth looking at further. Needs {@link #FIXED} bytes.
     */
    static boolean hasExtraField(byte[] b, int off) {
        int flg = b[off + 3] & 0xff;
        return isMagic(b, off) && (flg & FEXTRA) != 0 && (flg & RESERVED) == 0;
    }

    /** XLEN of a header for which {@link #hasExtraField} is true. */
    static int extraLength(byte[] b, int off) {
        return (b[off + 10] & 0xff) | (b[off + 11] & 0xff) << 8;
    }

    /**
     * The member's total length in bytes (first header byte to last trailer byte) as its 'SL' or 'BC' subfield says,
     * or -1 if the extra field {@code extra[off..off+xlen)} has neither or is malformed (subfields that do not tile
     * it exactly, an 'SL' or 'BC' of the wrong length, a length too small to hold the header and trailer).
     */
    static long memberLength(byte[] extra, int off, int xlen) {
        long length = -1;
        int p = off;
        int limit = off + xlen;
        while (p < limit) {
            if (limit - p < 4) {
                return -1;
            }
            int si1 = extra[p];
            int si2 = extra[p + 1];
            int len = (extra[p + 2] & 0xff) | (extra[p + 3] & 0xff) << 8;
            p += 4;
            if (len > limit - p) {
                return -1;
            }
            if (si1 == 'S' && si2 == 'L') {
                if (len != 16) {
                    return -1;
                }
                length = u64(extra, p);
            } else if (si1 == 'B' && si2 == 'C') {
                if (len != 2) {
                    return -1;
                }
                length = ((extra[p] & 0xff) | (extra[p + 1] & 0xff) << 8) + 1L;
            }
            p += len;
        }
        // The smallest member: the header with this extra field, an empty deflate block (2 bytes), CRC32, ISIZE.
        return length >= FIXED + xlen + 2 + 8 ? length : -1;
    }

    /**
     * The uncompressed size an 'SL' subfield in {@code extra[off..off+xlen)} states, or -1 if there is none (BGZF says
     * nothing about it). Call after {@link #memberLength} accepted the field.
     */
    static long uncompressedSize(byte[] extra, int off, int xlen) {
        int p = off;
        int limit = off + xlen;
        while (limit - p >= 4) {
            int len = (extra[p + 2] & 0xff) | (extra[p + 3] & 0xff) << 8;
            if (extra[p] == 'S' && extra[p + 1] == 'L' && len == 16) {
                return u64(extra, p + 4 + 8);
            }
            p += 4 + len;
        }
        return -1;
    }

    private static long u64(byte[] b, int off) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (b[off + i] & 0xff);
        }
        return v;
    }
}
