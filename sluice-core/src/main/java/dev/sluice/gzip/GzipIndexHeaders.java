package dev.sluice.gzip;

import java.io.IOException;
import java.util.zip.ZipException;

/**
 * Parses one gzip member header for {@link GzipIndex}: checks magic, method and reserved flags, skips MTIME, XFL, OS,
 * FNAME, FCOMMENT and FHCRC, and picks out the two subfields that say how long a member is (Sluice's 'S','L' and
 * BGZF's 'B','C', see COORDINATION.md). Stateless; corrupt headers are {@link ZipException}s naming the field and the
 * member's offset.
 */
final class GzipIndexHeaders {
    private GzipIndexHeaders() {}

    /** A byte source positioned at the header; reading past the data is an {@link java.io.EOFException}. */
    interface Bytes {
        int read() throws IOException;
    }

    /** What a header says about its member's size; -1 for what it does not say. */
    static final class Sizes {
        long memberLength = -1;
        long uncompressedSize = -1;
        boolean bgzf;
        int headerLength;
    }

    /** Longest FNAME/FCOMMENT accepted, as in {@link GzipInputStream#MAX_HEADER_STRING}. */
    private static final int MAX_STRING = GzipInputStream.MAX_HEADER_STRING;

    /** Reads the header at {@code offset}; fills {@code sizes} if not null. */
    static void parse(Bytes in, long offset, Sizes sizes) throws IOException {
        int id1 = in.read();
        int id2 = in.read();
        if (id1 != 0x1f || id2 != 0x8b) {
            throw new ZipException(String.format("not gzip: magic at offset %d is 0x%02x%02x, expected 0x1f8b",
                    offset, id1, id2));
        }
        int cm = in.read();
        if (cm != 8) {
            throw new ZipException("CM (method) of the member at offset " + offset + ": " + cm + " != 8 (deflate)");
        }
        int flg = in.read();
        if ((flg & GzipHeader.RESERVED_FLAGS) != 0) {
            throw new ZipException(String.format("FLG of the member at offset %d has reserved bits set: 0x%02x",
                    offset, flg));
        }
        int n = 10;
        for (int i = 0; i < 6; i++) {
            in.read();
        }
        if ((flg & GzipHeader.FEXTRA) != 0) {
            int xlen = in.read() | in.read() << 8;
            n += 2 + xlen;
            int i = 0;
            while (i + 4 <= xlen) {
                int si1 = in.read();
                int si2 = in.read();
                int len = in.read() | in.read() << 8;
                i += 4;
                if (i + len > xlen) {
                    throw new ZipException("FEXTRA subfield of the member at offset " + offset + " runs past XLEN "
                            + xlen);
                }
                long[] v = new long[2];
                for (int j = 0; j < len; j++) {
                    long b = in.read();
                    if (j < 16) {
                        v[j >> 3] |= b << (8 * (j & 7));
                    }
                }
                i += len;
                if (sizes != null && si1 == 'S' && si2 == 'L' && len == 16) {
                    sizes.memberLength = v[0];
                    sizes.uncompressedSize = v[1];
                } else if (sizes != null && si1 == 'B' && si2 == 'C' && len == 2) {
                    sizes.memberLength = v[0] + 1;
                    sizes.bgzf = true;
                }
            }
            for (; i < xlen; i++) {
                in.read();
            }
        }
        if ((flg & GzipHeader.FNAME) != 0) {
            n += skipString(in, offset, "FNAME");
        }
        if ((flg & GzipHeader.FCOMMENT) != 0) {
            n += skipString(in, offset, "FCOMMENT");
        }
        if ((flg & GzipHeader.FHCRC) != 0) {
            in.read();
            in.read();
            n += 2;
        }
        if (sizes != null) {
            sizes.headerLength = n;
        }
    }

    private static int skipString(Bytes in, long offset, String field) throws IOException {
        for (int n = 1; n <= MAX_STRING; n++) {
            if (in.read() == 0) {
                return n;
            }
        }
        throw new ZipException(field + " of the member at offset " + offset + " is longer than " + MAX_STRING);
    }
}
