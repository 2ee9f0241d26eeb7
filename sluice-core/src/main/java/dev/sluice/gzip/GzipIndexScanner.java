package dev.sluice.gzip;

import java.io.EOFException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.zip.ZipException;

/**
 * Walks a gzip file's members and DEFLATE blocks (RFC 1951/1952) in pure Java without producing output: it decodes
 * every Huffman symbol only to find where each block ends, and reports each block's bit offset and uncompressed
 * offset to a {@link Sink}. This is what java.util.zip.Inflater cannot tell (zlib's Z_BLOCK is not exposed), and it
 * costs much less than inflating because nothing is written or copied. Data integrity (CRC32, distances too far
 * back) is left to the Inflater pass that {@link GzipIndexBuild} runs beside it.
 *
 * <p>Not thread-safe. Corrupt input is a {@link ZipException} naming the field and the compressed offset; input that
 * ends early is an {@link EOFException}. Every loop consumes input, so no input makes it hang.
 */
final class GzipIndexScanner {

    /** What the scan reports, in file order. */
    interface Sink {
        /** A member starts: its header at {@code headerOffset}, its deflate data at {@code deflateOffset}. */
        void member(long headerOffset, long deflateOffset, long u) throws IOException;

        /** A block that is not the member's first starts at bit {@code bit} of the file, at uncompressed {@code u}. */
        void boundary(long bit, long u);

        /** Everything before uncompressed {@code u} has been scanned. Returns false to stop the scan. */
        boolean progress(long u);

        /** The current member's trailer starts at {@code trailerOffset}; the member ended at uncompressed {@code u}. */
        void memberEnd(long trailerOffset, long u);
    }

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final int LIT_BITS = DeflateTables.LIT_BITS;
    private static final int DIST_BITS = DeflateTables.DIST_BITS;
    private static final int[] LENGTH_BASE = DeflateTables.LENGTH_BASE;
    private static final int[] LENGTH_EXTRA = DeflateTables.LENGTH_EXTRA;
    private static final int[] DIST_EXTRA = DeflateTables.DIST_EXTRA;
    private static final int[] CL_ORDER = DeflateTables.CL_ORDER;
    private static final int[] FIXED_LIT = DeflateTables.FIXED_LIT;
    private static final int[] FIXED_DIST = DeflateTables.FIXED_DIST;

    private final FileChannel file;
    private final long fileSize;
    /** Compressed input; {@code buf[pos..lim)} is not yet in the bit buffer; 8 spare bytes past the end. */
    private final byte[] buf;
    private int pos;
    private int lim;
    /** File offset of {@code buf[0]}. */
    private long base;
    /** Bits not yet consumed, the next one in bit 0; {@code count} of them are valid. */
    private long bits;
    private int count;
    /** Zero bytes appended after the end of the file (lookahead only; consuming them is an error). */
    private int padded;

    private final int[] lit = new int[DeflateTables.LIT_SIZE];
    private final int[] dist = new int[DeflateTables.DIST_SIZE];
    private final int[] clTable = new int[1 << 7];
    private final byte[] lens = new byte[288 + 32];

    GzipIndexScanner(FileChannel file, long fileSize, int bufferSize) {
        this.file = file;
        this.fileSize = fileSize;
        this.buf = new byte[bufferSize + 8];
    }

    /** The file offset in bits of the next unconsumed bit. */
    long bitPosition() {
        return (base + pos + padded) * 8 - count;
    }

    /** Scans every member from offset 0 to the end of the gzip data (trailing zeros or garbage end it, as in gzip). */
    void scan(Sink sink) throws IOException {
        long u = 0;
        boolean first = true;
        while (true) {
            long header = bitPosition() >>> 3;
            if (!first) {
                if (header >= fileSize || !peekMagic()) {
                    return;
                }
            } else if (fileSize == 0) {
                throw new EOFException("empty file: expected a gzip header at offset 0");
            }
            first = false;
            GzipMembers.readHeader(this::readByte, header);
            long deflate = bitPosition() >>> 3;
            sink.member(header, deflate, u);
            long memberStart = u;
            boolean last;
            boolean firstBlock = true;
            do {
                long blockBit = bitPosition();
                if (!firstBlock) {
                    sink.boundary(blockBit, u);
                }
                firstBlock = false;
                fill();
                last = (bits & 1) != 0;
                int type = (int) (bits >>> 1) & 3;
                drop(3);
                try {
                    if (type == 0) {
                        u += stored(blockBit);
                    } else if (type == 1) {
                        u = symbols(FIXED_LIT, FIXED_DIST, u, blockBit);
                    } else if (type == 2) {
                        dynamicHeader(blockBit);
                        u = symbols(lit, dist, u, blockBit);
                    } else {
                        throw new ZipException("invalid deflate block type 3 at bit " + blockBit);
                    }
                } catch (ZipException e) {
                    throw endedInside(e, blockBit);
                }
                if (bitPosition() > fileSize * 8) {
                    throw new EOFException("gzip data ends inside the deflate block at bit " + blockBit);
                }
                if (!sink.progress(u)) {
                    return;
                }
            } while (!last);
            drop(count & 7);
            long trailer = bitPosition() >>> 3;
            long crc = readByte() | readByte() << 8 | readByte() << 16 | (long) readByte() << 24;
            long isize = readByte() | readByte() << 8 | readByte() << 16 | (long) readByte() << 24;
            if (bitPosition() > fileSize * 8) { // before ISIZE: a cut trailer is read as zeros, not a wrong size
                throw new EOFException("gzip data ends inside the trailer at offset " + trailer);
            }
            if (isize != ((u - memberStart) & 0xffffffffL)) {
                throw new ZipException("ISIZE of the member at offset " + header + ": expected "
                        + ((u - memberStart) & 0xffffffffL) + " != stored " + isize);
            }
            assert crc >= 0;
            sink.memberEnd(trailer, u);
        }
    }

    /**
     * A block's verdict where the scanner may have read past the end of the file: the zero bytes it pads with (so
     * that its lookups need no bounds checks) are not data, so a code that needed them (at most 15 bits past the
     * position) means the file ends inside the block, which the one-thread stream reports as an EOFException, not
     * as corrupt data.
     */
    private IOException endedInside(ZipException e, long blockBit) {
        if (bitPosition() + 15 <= fileSize * 8) {
            return e;
        }
        EOFException eof = new EOFException("gzip data ends inside the deflate block at bit " + blockBit);
        eof.initCause(e);
        return eof;
    }

    private boolean peekMagic() throws IOException {
        fill();
        return count >= 16 && (bits & 0xffff) == 0x8b1f;
    }

    /** Reads one byte at a byte-aligned position. */
    int readByte() throws IOException {
        if (count < 8) {
            fill();
        }
        int b = (int) bits & 0xff;
        drop(8);
        checkConsumed();
        return b;
    }

    private void checkConsumed() throws EOFException {
        if (padded > 0 && bitPosition() > fileSize * 8) {
            throw new EOFException("gzip data ends early: expected more bytes after offset " + fileSize);
        }
    }

    private void drop(int n) {
        bits >>>= n;
        count -= n;
    }

    /** Fills the bit buffer to at least 56 bits (zero bytes past the end of the file). */
    private void fill() throws IOException {
        if (lim - pos >= 8) {
            bits |= (long) LONG_LE.get(buf, pos) << count;
            pos += (63 - count) >>> 3;
            count |= 56;
            return;
        }
        while (count <= 56) {
            if (pos == lim && !load()) {
                if (++padded > 16) {
                    throw new EOFException("gzip data ends early at offset " + fileSize);
                }
                count += 8;
                continue;
            }
            bits |= (buf[pos++] & 0xffL) << count;
            count += 8;
        }
    }

    private boolean load() throws IOException {
        int keep = lim - pos;
        System.arraycopy(buf, pos, buf, 0, keep);
        base += pos;
        pos = 0;
        lim = keep;
        long at = base + lim;
        if (at >= fileSize) {
            return lim > 0;
        }
        ByteBuffer bb = ByteBuffer.wrap(buf, lim, buf.length - 8 - lim);
        int n = 0;
        while (bb.hasRemaining() && at + n < fileSize) {
            int r = file.read(bb, at + n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        lim += n;
        return lim > pos;
    }

    private long stored(long blockBit) throws IOException {
        drop(count & 7);
        fill();
        int len = (int) bits & 0xffff;
        int nlen = (int) (bits >>> 16) & 0xffff;
        drop(32);
        if (len != (~nlen & 0xffff)) {
            throw new ZipException("stored block length at bit " + blockBit + ": LEN " + len + " != ~NLEN "
                    + (~nlen & 0xffff));
        }
        // Bytes still in the bit buffer first, then skip the rest of the buffer and the file.
        int fromBits = Math.min(len, count >>> 3);
        drop(fromBits * 8);
        long rest = len - fromBits;
        if (rest > 0) {
            // The bit buffer is empty of whole bytes now; put the remainder back by rewinding pos.
            int back = count >>> 3;
            pos -= back;
            bits = 0;
            count = 0;
            if (rest <= lim - pos) {
                pos += (int) rest;
            } else {
                rest -= lim - pos;
                base += lim + rest;
                pos = 0;
                lim = 0;
            }
        }
        checkConsumed();
        return len;
    }

    private void dynamicHeader(long blockBit) throws IOException {
        fill();
        int hlit = (int) (bits & 31) + 257;
        int hdist = (int) (bits >>> 5 & 31) + 1;
        int hclen = (int) (bits >>> 10 & 15) + 4;
        drop(14);
        if (hlit > 286 || hdist > 30) {
            throw new ZipException("dynamic block at bit " + blockBit + ": HLIT " + hlit + " or HDIST " + hdist
                    + " too large");
        }
        byte[] cl = new byte[19];
        for (int i = 0; i < hclen; i++) {
            fill();
            cl[CL_ORDER[i]] = (byte) (bits & 7);
            drop(3);
        }
        buildTable(clTable, 7, cl, 0, 19, true, blockBit);
        int n = 0;
        int total = hlit + hdist;
        while (n < total) {
            fill();
            int e = clTable[(int) bits & 127];
            int l = e & 15;
            if (l == 0) {
                throw new ZipException("dynamic block at bit " + blockBit + ": invalid code length code");
            }
            drop(l);
            int sym = e >>> 8;
            if (sym < 16) {
                lens[n++] = (byte) sym;
                continue;
            }
            int rep;
            byte val = 0;
            if (sym == 16) {
                if (n == 0) {
                    throw new ZipException("dynamic block at bit " + blockBit + ": repeat with no previous length");
                }
                val = lens[n - 1];
                rep = 3 + (int) (bits & 3);
                drop(2);
            } else if (sym == 17) {
                rep = 3 + (int) (bits & 7);
                drop(3);
            } else {
                rep = 11 + (int) (bits & 127);
                drop(7);
            }
            if (n + rep > total) {
                throw new ZipException("dynamic block at bit " + blockBit + ": code lengths overflow " + total);
            }
            for (int i = 0; i < rep; i++) {
                lens[n++] = val;
            }
        }
        if (lens[256] == 0) {
            throw new ZipException("dynamic block at bit " + blockBit + ": no end-of-block code");
        }
        buildTable(lit, LIT_BITS, lens, 0, hlit, false, blockBit);
        buildTable(dist, DIST_BITS, lens, hlit, hdist, false, blockBit);
        checkConsumed();
    }

    /** {@link DeflateTables#build}, its verdict as the scanner's exception. */
    private static void buildTable(int[] table, int primary, byte[] lens, int off, int n, boolean codeLengthCode,
            long at) throws ZipException {
        int v = DeflateTables.build(table, primary, lens, off, n, codeLengthCode);
        if (v == DeflateTables.OVER_SUBSCRIBED) {
            throw new ZipException("over-subscribed Huffman code in the block at bit " + at);
        }
        if (v == DeflateTables.INCOMPLETE) {
            throw new ZipException("incomplete Huffman code in the block at bit " + at);
        }
    }

    /** Decodes the symbols of one Huffman block, returns the uncompressed offset after it. */
    private long symbols(int[] litTable, int[] distTable, long u, long blockBit) throws IOException {
        // Locals for the hot loop: the JIT keeps them in registers.
        long b = bits;
        int c = count;
        int p = pos;
        byte[] in = buf;
        try {
            while (true) {
                if (lim - p >= 8) {
                    b |= (long) LONG_LE.get(in, p) << c;
                    p += (63 - c) >>> 3;
                    c |= 56;
                } else {
                    bits = b;
                    count = c;
                    pos = p;
                    fill();
                    checkConsumed();
                    b = bits;
                    c = count;
                    p = pos;
                }
                int e = litTable[(int) b & ((1 << LIT_BITS) - 1)];
                if ((e & 0x40) != 0) {
                    b >>>= LIT_BITS;
                    c -= LIT_BITS;
                    e = litTable[(e >>> 8) + ((int) b & ((1 << (e & 15)) - 1))];
                }
                int l = e & 15;
                if (l == 0) {
                    throw new ZipException("invalid literal/length code in the block at bit " + blockBit);
                }
                b >>>= l;
                c -= l;
                int sym = e >>> 8;
                if (sym < 256) {
                    u++;
                    continue;
                }
                if (sym == 256) {
                    return u;
                }
                int li = sym - 257;
                if (li >= 29) {
                    throw new ZipException("invalid length symbol " + sym + " in the block at bit " + blockBit);
                }
                int x = LENGTH_EXTRA[li];
                u += LENGTH_BASE[li] + ((int) b & ((1 << x) - 1));
                b >>>= x;
                c -= x;
                e = distTable[(int) b & ((1 << DIST_BITS) - 1)];
                if ((e & 0x40) != 0) {
                    b >>>= DIST_BITS;
                    c -= DIST_BITS;
                    e = distTable[(e >>> 8) + ((int) b & ((1 << (e & 15)) - 1))];
                }
                l = e & 15;
                int ds = e >>> 8;
                if (l == 0 || ds >= 30) {
                    throw new ZipException("invalid distance code in the block at bit " + blockBit);
                }
                x = DIST_EXTRA[ds];
                b >>>= l + x;
                c -= l + x;
            }
        } finally {
            bits = b;
            count = c;
            pos = p;
        }
    }
}
