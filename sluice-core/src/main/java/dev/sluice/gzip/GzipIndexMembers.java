package dev.sluice.gzip;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.zip.ZipException;

/**
 * The index of a file made of independent members (every member has Sluice's 'SL' or BGZF's 'BC' subfield): the
 * member table alone, read from headers and trailers without decoding anything. Stateless.
 */
final class GzipIndexMembers {
    private GzipIndexMembers() {}

    /** Returns the member-table index, or null if some member does not say its length (then scan the file). */
    static GzipIndex read(FileChannel ch, long size) throws IOException {
        if (size == 0) {
            throw new EOFException("empty file: expected a gzip header at offset 0");
        }
        Bytes in = new Bytes(ch, size);
        long[] header = new long[16];
        long[] deflate = new long[16];
        long[] us = new long[16];
        int n = 0;
        long off = 0;
        long u = 0;
        while (off < size) {
            in.seek(off);
            if (off > 0 && (in.peek(0) != 0x1f || in.peek(1) != 0x8b)) {
                break; // trailing zeros or garbage end the data, as in gzip
            }
            GzipMembers.Member m = GzipMembers.readHeader(in::read, off);
            if (m == null) {
                return null;
            }
            if (m.totalLength() > size - off) {
                throw new ZipException("member length field of the member at offset " + off + ": "
                        + m.totalLength() + " does not fit (header " + m.headerLength() + ", file size " + size + ")");
            }
            in.seek(off + m.totalLength() - 4);
            long isize = in.read() | in.read() << 8 | in.read() << 16 | (long) in.read() << 24;
            long usize = m.uncompressedSize() >= 0 ? m.uncompressedSize() : isize;
            if ((usize & 0xffffffffL) != isize) {
                throw new ZipException("ISIZE of the member at offset " + off + ": " + isize
                        + " != uncompressed size " + usize + " in its 'SL' subfield");
            }
            if (n == us.length) {
                header = Arrays.copyOf(header, n * 2);
                deflate = Arrays.copyOf(deflate, n * 2);
                us = Arrays.copyOf(us, n * 2);
            }
            header[n] = off;
            deflate[n] = off + m.headerLength();
            us[n] = u;
            n++;
            u += usize;
            off += m.totalLength();
        }
        return new GzipIndex(size, u, GzipIndex.DEFAULT_SPACING, Arrays.copyOf(header, n), Arrays.copyOf(deflate, n),
                Arrays.copyOf(us, n), new long[0], new long[0], new int[0], new byte[0][], GzipIndex.fileCheck(ch, size));
    }

    /** Positional byte reads through a small buffer; reading past the end is an {@link EOFException}. */
    private static final class Bytes {
        private final FileChannel ch;
        private final long size;
        private final ByteBuffer buf = ByteBuffer.allocate(512);
        private long bufAt = -1;
        private long at;

        Bytes(FileChannel ch, long size) {
            this.ch = ch;
            this.size = size;
        }

        void seek(long off) {
            at = off;
        }

        int peek(int ahead) throws IOException {
            long save = at;
            at += ahead;
            int b = at < size ? read() : -1;
            at = save;
            return b;
        }

        int read() throws IOException {
            if (at >= size) {
                throw new EOFException("gzip data ends early at offset " + size);
            }
            if (bufAt < 0 || at < bufAt || at >= bufAt + buf.limit()) {
                buf.clear();
                GzipIndexBuild.readAt(ch, buf, at);
                buf.flip();
                bufAt = at;
                if (buf.limit() == 0) {
                    throw new EOFException("gzip data ends early at offset " + at);
                }
            }
            return buf.get((int) (at++ - bufAt)) & 0xff;
        }
    }
}
