package dev.sluice.gzip;

import dev.sluice.internal.Checks;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;
import java.util.zip.ZipException;

/**
 * Walks the member table of a gzip file made of independent members without decoding it: the header at an offset
 * says how long its member is, through Sluice's {@code SL} subfield (member length and uncompressed size) or BGZF's
 * {@code BC} subfield (member length; the uncompressed size is in the member's ISIZE trailer). Splitters (Hadoop
 * input splits) and parallel readers hop from member to member with {@link #read}.
 *
 * <p>The sizes are what the file claims, not checked facts: a decoder must still verify that the deflate data ends
 * exactly at the claimed end, and the CRC32 and ISIZE of the member ({@link GzipInputStream} does). Thread-safe
 * (stateless). Bad input: a header that is not gzip, whose FEXTRA subfields do not tile XLEN, or whose size
 * subfield claims impossible sizes (a member shorter than its own header and trailer, or more output than deflate's
 * 1032:1 can make of it), is a {@link ZipException} naming the offset; a header cut short is an {@link
 * EOFException}.
 *
 * <p>This class is the one owner of the member formats' facts: it alone parses and writes the {@code SL} and
 * {@code BC} subfields and member lengths, for the writers ({@link ParallelGzipOutputStream}), the parallel reader
 * ({@link GzipInputStream}), the index, which is built on this layer, and other modules (sluice-hadoop's splits).
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
     * @throws ZipException if there is no gzip header at {@code offset}, its subfield list is malformed or its size
     *     subfield claims impossible sizes
     * @throws EOFException if the channel ends inside the header
     */
    public static Member read(SeekableByteChannel ch, long offset) throws IOException {
        Checks.notNull(ch, "ch");
        Checks.nonNegative(offset, "offset");
        return readHeader(new ChannelBytes(ch, offset), offset);
    }

    /**
     * Reads the member header that starts at {@code in}'s current position, which is {@code offset} in the file (for
     * {@link Member#offset()} and messages), and consumes exactly the header's bytes: {@code in} is left at the first
     * byte of the member's deflate data. For sources that seek but are not channels (Hadoop's file streams). Reads
     * byte by byte, so give it a buffered stream; does not close it.
     *
     * @return the member's sizes, or null if the header has neither an {@code SL} nor a {@code BC} subfield
     * @throws ZipException if there is no gzip header there, its subfield list is malformed or its size subfield
     *     claims impossible sizes
     * @throws EOFException if {@code in} ends inside the header
     */
    public static Member read(InputStream in, long offset) throws IOException {
        Checks.notNull(in, "in");
        Checks.nonNegative(offset, "offset");
        return readHeader(new StreamBytes(in, offset), offset);
    }

    /** A byte source positioned at a header: {@link #read()} gives 0..255, or throws {@link EOFException}. */
    interface Bytes {
        int read() throws IOException;
    }

    /**
     * Reads the whole header at {@code offset} from {@code in} (magic, method, flags, MTIME, XFL, OS, FEXTRA, FNAME,
     * FCOMMENT, FHCRC, which is skipped, not checked) and leaves {@code in} at the deflate data. Returns the sizes its
     * {@code SL} or {@code BC} subfield claims, or null if it has none. The one parser of member headers for everything
     * that walks members without decoding them (this class's readers, and the index's member table and scanner).
     */
    static Member readHeader(Bytes in, long offset) throws IOException {
        return parse(in, offset, null, false);
    }

    /**
     * Reads the whole header at {@code offset} from {@code in} as a decoder does ({@link GzipInputStream}, and every
     * strategy that decodes in its place): as {@link #readHeader}, except that an extra field that is not a list of
     * subfields is passed over, as {@link #member(long, int, byte[])} says, so that every decoding path gives one
     * verdict on such a header.
     */
    static Member readDecoderHeader(Bytes in, long offset) throws IOException {
        return parse(in, offset, null, true);
    }

    /**
     * Reads the whole header at {@code offset} from {@code in} as {@link #readHeader} does and returns its length,
     * whether or not it has a size subfield (for readers that meet members their index does not list).
     */
    static int headerLength(Bytes in, long offset) throws IOException {
        int[] length = new int[1];
        parse(in, offset, length, false);
        return length[0];
    }

    /** {@link #headerLength(Bytes, long)} of the header at {@code offset} of {@code ch}. */
    static int headerLength(SeekableByteChannel ch, long offset) throws IOException {
        return headerLength(new ChannelBytes(ch, offset), offset);
    }

    /**
     * {@link #readHeader} ({@link #readDecoderHeader} if {@code decoder}), also storing the header's length in
     * {@code length[0]} when {@code length} is not null.
     */
    private static Member parse(Bytes in, long offset, int[] length, boolean decoder) throws IOException {
        int id1 = in.read();
        int id2 = in.read();
        int cm = in.read();
        if (id1 != 0x1f || id2 != 0x8b || cm != 8) {
            throw new ZipException(String.format("not gzip: no member header at offset %d: bytes 0x%02x%02x%02x,"
                    + " expected 0x1f8b08", offset, id1, id2, cm));
        }
        int flg = in.read();
        if ((flg & GzipHeader.RESERVED_FLAGS) != 0) {
            throw new ZipException(String.format("reserved FLG bits set: 0x%02x in member at offset %d", flg, offset));
        }
        for (int i = 0; i < 6; i++) {
            in.read(); // MTIME, XFL, OS
        }
        int headerLength = 10;
        long[] sizes = null;
        if ((flg & GzipHeader.FEXTRA) != 0) {
            byte[] extra = new byte[in.read() | in.read() << 8];
            for (int i = 0; i < extra.length; i++) {
                extra[i] = (byte) in.read();
            }
            headerLength += 2 + extra.length;
            sizes = decoder ? decoderSizes(extra, offset) : sizes(extra, offset);
        }
        if ((flg & GzipHeader.FNAME) != 0) {
            headerLength += skipString(in, offset, "FNAME");
        }
        if ((flg & GzipHeader.FCOMMENT) != 0) {
            headerLength += skipString(in, offset, "FCOMMENT");
        }
        if ((flg & GzipHeader.FHCRC) != 0) {
            in.read();
            in.read();
            headerLength += 2;
        }
        if (length != null) {
            length[0] = headerLength;
        }
        return sizes == null ? null : member(offset, headerLength, sizes);
    }

    /** Skips a zero-terminated string, returning its length with the zero. */
    private static int skipString(Bytes in, long offset, String field) throws IOException {
        for (int n = 1; n <= GzipInputStream.MAX_HEADER_STRING; n++) {
            if (in.read() == 0) {
                return n;
            }
        }
        throw new ZipException(field + " longer than " + GzipInputStream.MAX_HEADER_STRING
                + " bytes in member at offset " + offset);
    }

    /** Reads a channel through a small buffer from a header's offset. */
    /**
     * Reads a channel through a small buffer from a header's offset; a FileChannel by positional reads, so that a
     * reader sharing it (GzipIndexChannel) keeps its position.
     */
    private static final class ChannelBytes implements Bytes {
        private final SeekableByteChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocate(512);
        private long at;

        ChannelBytes(SeekableByteChannel ch, long at) {
            this.ch = ch;
            this.at = at;
            buf.limit(0);
        }

        @Override
        public int read() throws IOException {
            if (!buf.hasRemaining()) {
                buf.clear();
                FileChannel file = ch instanceof FileChannel ? (FileChannel) ch : null;
                if (file == null) {
                    ch.position(at);
                }
                int n;
                while ((n = file != null ? file.read(buf, at) : ch.read(buf)) == 0) {
                    // a channel may return 0 before it returns data; the loop ends at -1 or data
                }
                buf.flip();
                if (n < 0) {
                    throw truncated(at);
                }
                at += n;
            }
            return buf.get() & 0xff;
        }
    }

    /** Reads a stream one byte at a time, so that it stops exactly at the header's end. */
    private static final class StreamBytes implements Bytes {
        private final InputStream in;
        private long at;

        StreamBytes(InputStream in, long at) {
            this.in = in;
            this.at = at;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b < 0) {
                throw truncated(at);
            }
            at++;
            return b;
        }
    }

    private static EOFException truncated(long at) {
        return new EOFException("truncated gzip header: end of input at offset " + at);
    }

    /**
     * For a decoder ({@link GzipInputStream}), from a header it has parsed: the sizes, or null when it has no size
     * subfield or its extra field is not a list of subfields at all. A decoder needs no subfield and reads past such
     * an extra field (RFC 1952 lets readers ignore it, and {@link GzipHeader.Builder#extra} writes any payload); only
     * what walks members by their subfields refuses it. Impossible sizes in a well-formed size subfield still throw.
     */
    static Member member(long offset, int headerLength, byte[] extra) throws ZipException {
        long[] sizes = extra == null ? null : decoderSizes(extra, offset);
        return sizes == null ? null : member(offset, headerLength, sizes);
    }

    /** A decoder's view of an extra field: its size subfield's {@link #sizes}, or null if it is not a list of subfields. */
    private static long[] decoderSizes(byte[] extra, long offset) throws ZipException {
        return tiles(extra) ? sizes(extra, offset) : null;
    }

    /** True if the subfields of an FEXTRA payload fill it exactly. */
    private static boolean tiles(byte[] extra) {
        int i = 0;
        while (i + 4 <= extra.length) {
            i += 4 + ((extra[i + 2] & 0xff) | (extra[i + 3] & 0xff) << 8);
        }
        return i == extra.length;
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
     * there is none. The subfields must tile the payload exactly (RFC 1952 2.3.1.1): one whose 4-byte head or data
     * runs past XLEN is a {@link ZipException} naming where, for everything that walks members by their subfields
     * (this class's readers, splits, the index); only a decoder passes over it ({@link #member(long, int,
     * byte[])}). An {@code SL} or {@code BC} subfield of another length is someone else's and is skipped.
     */
    static long[] sizes(byte[] extra, long offset) throws ZipException {
        long[] found = null;
        for (int i = 0; i < extra.length; ) {
            int data = i + 4;
            int len = data > extra.length ? -1 : (extra[i + 2] & 0xff) | (extra[i + 3] & 0xff) << 8;
            if (len < 0 || data + len > extra.length) {
                throw new ZipException("FEXTRA subfield at byte " + i + " of the extra field runs past XLEN "
                        + extra.length + (len < 0 ? "" : " (LEN " + len + ")") + " in member at offset " + offset);
            }
            int si1 = extra[i] & 0xff;
            int si2 = extra[i + 1] & 0xff;
            // The first size subfield counts; the rest of the list is only checked.
            if (found == null && si1 == 'S' && si2 == 'L' && len == 16) {
                long total = le(extra, data, 8);
                long size = le(extra, data + 8, 8);
                if (total < 0 || size < 0) {
                    throw new ZipException("SL subfield sizes out of range: length " + Long.toUnsignedString(total)
                            + ", uncompressed " + Long.toUnsignedString(size) + " in member at offset " + offset);
                }
                found = new long[] {total, size, 0};
            } else if (found == null && si1 == 'B' && si2 == 'C' && len == 2) {
                found = new long[] {le(extra, data, 2) + 1, -1, 1};
            }
            i = data + len;
        }
        return found;
    }

    /** The 18-byte header of a BGZF member {@code total} bytes long: BGZF's fixed header with BSIZE = total - 1. */
    static byte[] bgzfHeader(long total) {
        byte[] h = Arrays.copyOf(BGZF_EOF, 18);
        putLe(h, 16, total - 1, 2);
        return h;
    }

    /**
     * An FEXTRA payload of {@code extra}'s subfields followed by the {@code SL} subfield (20 bytes: ids, LEN 16, the
     * member's total length and uncompressed size, u64 little-endian each).
     */
    static byte[] withSl(byte[] extra, long total, long size) {
        byte[] b = Arrays.copyOf(extra, extra.length + 20);
        int off = extra.length;
        b[off] = 'S';
        b[off + 1] = 'L';
        b[off + 2] = 16;
        b[off + 3] = 0;
        putLe(b, off + 4, total, 8);
        putLe(b, off + 12, size, 8);
        return b;
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
