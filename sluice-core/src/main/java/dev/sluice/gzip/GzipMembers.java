package dev.sluice.gzip;

import dev.sluice.internal.Checks;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.zip.ZipException;

/**
 * Walks the member table of a gzip file made of independent members without decoding it: the header at an offset
 * says how long its member is, through Sluice's {@code SL} subfield (member length and uncompressed size) or BGZF's
 * {@code BC} subfield (member length; the uncompressed size is in the member's ISIZE trailer). Splitters (Hadoop
 * input splits) and parallel readers hop from member to member with {@link #read}.
 *
 * <p>The sizes are what the file claims, not checked facts: a decoder must still verify that the deflate data ends
 * exactly at the claimed end, and the CRC32 and ISIZE of the member ({@link GzipInputStream} does). Thread-safe
 * (stateless). Bad input: a header that is not gzip, or whose size subfield claims impossible sizes (a member
 * shorter than its own header and trailer, or more output than deflate's 1032:1 can make of it), is a {@link
 * ZipException} naming the offset; a header cut short is an {@link EOFException}.
 */
public final class GzipMembers {
    private GzipMembers() {}

    /** BGZF's end-of-file marker: an empty member with the BC subfield, as htslib writes it (28 bytes). */
    static final byte[] BGZF_EOF = {
        0x1f, (byte) 0x8b, 8, 4, 0, 0, 0, 0, 0, (byte) 0xff, 6, 0, 'B', 'C', 2, 0, 0x1b, 0,
        3, 0, 0, 0, 0, 0, 0, 0, 0, 0};

    /** The largest BGZF member: BSIZE is 16 bits and holds the total size minus one. */
    static final int BGZF_MAX_MEMBER = 65536;

    /** What a member's header says about the member. Immutable. */
    public static final class Member {
        private final long offset;
        private final int headerLength;
        private final long totalLength;
        private final long uncompressedSize;
        private final boolean bgzf;

        Member(long offset, int headerLength, long totalLength, long uncompressedSize, boolean bgzf) {
            this.offset = offset;
            this.headerLength = headerLength;
            this.totalLength = totalLength;
            this.uncompressedSize = uncompressedSize;
            this.bgzf = bgzf;
        }

        /** Offset of the member's first byte (0x1f) in the file. */
        public long offset() {
            return offset;
        }

        /** Length of the header (fixed part, extra field, name, comment, header CRC). */
        public int headerLength() {
            return headerLength;
        }

        /** The member's length in bytes, header to trailer, as the subfield claims; the next member starts here. */
        public long totalLength() {
            return totalLength;
        }

        /** Uncompressed size from the {@code SL} subfield; -1 for BGZF (read the ISIZE trailer instead). */
        public long uncompressedSize() {
            return uncompressedSize;
        }

        /** True if the size came from BGZF's {@code BC} subfield, false if from Sluice's {@code SL}. */
        public boolean bgzf() {
            return bgzf;
        }

        @Override
        public String toString() {
            return "Member{offset=" + offset + ", header=" + headerLength + ", total=" + totalLength
                    + ", uncompressed=" + uncompressedSize + (bgzf ? ", BGZF}" : ", SL}");
        }
    }

    /**
     * Reads the member header at {@code offset} of {@code ch} (the channel's position is changed).
     *
     * @return the member's sizes, or null if the header has neither an {@code SL} nor a {@code BC} subfield
     * @throws ZipException if there is no gzip header at {@code offset} or its size subfield is malformed
     * @throws EOFException if the channel ends inside the header
     */
    public static Member read(SeekableByteChannel ch, long offset) throws IOException {
        Checks.notNull(ch, "ch");
        Checks.nonNegative(offset, "offset");
        ByteBuffer b = ByteBuffer.allocate(12);
        readFully(ch, b, offset);
        byte[] fixed = b.array();
        int flg = checkFixed(fixed, offset);
        if ((flg & GzipHeader.FEXTRA) == 0) {
            return null;
        }
        int xlen = (fixed[10] & 0xff) | (fixed[11] & 0xff) << 8;
        ByteBuffer extra = ByteBuffer.allocate(xlen);
        readFully(ch, extra, offset + 12);
        long[] sizes = sizes(extra.array(), offset);
        if (sizes == null) {
            return null;
        }
        int headerLength = 12 + xlen;
        if ((flg & (GzipHeader.FNAME | GzipHeader.FCOMMENT)) != 0) {
            headerLength += stringsLength(ch, offset + headerLength, flg);
        }
        if ((flg & GzipHeader.FHCRC) != 0) {
            headerLength += 2;
        }
        return member(offset, headerLength, sizes);
    }

    /** Checks the 10 fixed bytes (magic, method, reserved flags) and returns FLG. */
    private static int checkFixed(byte[] h, long offset) throws ZipException {
        if (h[0] != 0x1f || h[1] != (byte) 0x8b || h[2] != 8) {
            throw new ZipException(String.format("no gzip member header at offset %d: bytes 0x%02x%02x%02x", offset,
                    h[0] & 0xff, h[1] & 0xff, h[2] & 0xff));
        }
        int flg = h[3] & 0xff;
        if ((flg & GzipHeader.RESERVED_FLAGS) != 0) {
            throw new ZipException(String.format("reserved FLG bits set: 0x%02x in member at offset %d", flg, offset));
        }
        return flg;
    }

    private static int stringsLength(SeekableByteChannel ch, long at, int flg) throws IOException {
        int strings = ((flg & GzipHeader.FNAME) != 0 ? 1 : 0) + ((flg & GzipHeader.FCOMMENT) != 0 ? 1 : 0);
        ByteBuffer b = ByteBuffer.allocate(4096);
        long pos = at;
        int length = 0;
        while (strings > 0) {
            b.clear();
            ch.position(pos);
            int n = ch.read(b);
            if (n <= 0) {
                throw new EOFException("truncated gzip header: end of input at offset " + pos
                        + " inside FNAME/FCOMMENT");
            }
            for (int i = 0; i < n && strings > 0; i++) {
                length++;
                if (b.get(i) == 0) {
                    strings--;
                }
                if (length > 2 * GzipInputStream.MAX_HEADER_STRING) {
                    throw new ZipException("FNAME/FCOMMENT longer than " + GzipInputStream.MAX_HEADER_STRING
                            + " bytes in member at offset " + (at - 12));
                }
            }
            pos += n;
        }
        return length;
    }

    private static void readFully(SeekableByteChannel ch, ByteBuffer b, long at) throws IOException {
        ch.position(at);
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new EOFException("truncated gzip header: end of input at offset " + (at + b.position())
                        + ", " + b.remaining() + " more header bytes expected");
            }
        }
    }

    /** Sizes from a header already parsed: null when it has no size subfield. */
    static Member member(long offset, int headerLength, byte[] extra) throws ZipException {
        long[] sizes = extra == null ? null : sizes(extra, offset);
        return sizes == null ? null : member(offset, headerLength, sizes);
    }

    private static Member member(long offset, int headerLength, long[] sizes) throws ZipException {
        long total = sizes[0];
        // The smallest member: the header, one empty stored or fixed block (2 bytes), the 8-byte trailer.
        if (total < headerLength + 10L) {
            throw new ZipException(String.format("%s subfield says the member is %d bytes long, less than its"
                    + " %d-byte header and trailer, in member at offset %d", sizes[2] != 0 ? "BC" : "SL", total,
                    headerLength + 10, offset));
        }
        // Deflate expands at most 1032:1 (zlib's documented limit): a claim beyond that is impossible.
        if ((sizes[1] - 1024) / 1032 > total - headerLength) { // divided: the claimed length may be near 2^63
            throw new ZipException(String.format("SL subfield says %d uncompressed bytes from a %d-byte member,"
                    + " more than deflate can encode, in member at offset %d", sizes[1], total, offset));
        }
        return new Member(offset, headerLength, total, sizes[1], sizes[2] != 0);
    }

    /**
     * Finds the size subfield in an FEXTRA payload: {total, uncompressed (-1 if BC), 1 if BC else 0}, or null if
     * there is none. A subfield list that overruns the payload ends the search (RFC 1952 readers may ignore extra
     * fields, so a malformed one is no reason to refuse a member); so is an SL or BC subfield of another length,
     * which is someone else's.
     */
    static long[] sizes(byte[] extra, long offset) throws ZipException {
        for (int i = 0; i + 4 <= extra.length; ) {
            int si1 = extra[i] & 0xff;
            int si2 = extra[i + 1] & 0xff;
            int len = (extra[i + 2] & 0xff) | (extra[i + 3] & 0xff) << 8;
            int data = i + 4;
            if (data + len > extra.length) {
                return null;
            }
            if (si1 == 'S' && si2 == 'L' && len == 16) {
                long total = le(extra, data, 8);
                long size = le(extra, data + 8, 8);
                if (total < 0 || size < 0) {
                    throw new ZipException("SL subfield sizes out of range: length " + Long.toUnsignedString(total)
                            + ", uncompressed " + Long.toUnsignedString(size) + " in member at offset " + offset);
                }
                return new long[] {total, size, 0};
            }
            if (si1 == 'B' && si2 == 'C' && len == 2) {
                return new long[] {le(extra, data, 2) + 1, -1, 1};
            }
            i = data + len;
        }
        return null;
    }

    /** The SL subfield (20 bytes: ids, LEN=16, member length, uncompressed size) at {@code b[off..)}. */
    static void putSl(byte[] b, int off, long total, long size) {
        b[off] = 'S';
        b[off + 1] = 'L';
        b[off + 2] = 16;
        b[off + 3] = 0;
        putLe(b, off + 4, total, 8);
        putLe(b, off + 12, size, 8);
    }

    static long le(byte[] b, int off, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = v << 8 | (b[off + i] & 0xff);
        }
        return v;
    }

    static void putLe(byte[] b, int off, long v, int n) {
        for (int i = 0; i < n; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }
}
