package dev.sluice.hadoop;

import dev.sluice.gzip.GzipInputStream;
import dev.sluice.gzip.GzipMembers;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.ZipException;
import org.apache.hadoop.fs.Seekable;

/**
 * The decompressed lines of one split of an independent-member gzip file, positioned the way Hadoop's
 * {@code LineRecordReader} and {@code CompressedSplitLineReader} need (the contract of BZip2Codec's BYBLOCK mode):
 *
 * <ul>
 *   <li>A split owns the members whose first byte lies in {@code [start, end)}. The adjusted start is the first
 *       confirmed member header at or after {@code start} (0 for the first split); a split that owns no member reads
 *       nothing.</li>
 *   <li>{@link #getPos()} is {@code m + 1} once a byte of the member starting at {@code m} has been returned, so it
 *       passes {@code end} exactly when the first byte of the next split's first member is returned. The line reader
 *       then finishes that line and stops; the next split throws its first line away. Every line is read once.</li>
 *   <li>One read never returns bytes of two members, so a CR at the end of a member ends a read and the line reader
 *       learns about a CR LF pair split across members (CompressedSplitLineReader's needAdditionalRecord).</li>
 * </ul>
 *
 * A member header is confirmed before a split starts there: its 'SL' or 'BC' length must land on end of file or on
 * another gzip header, and the member must decode with the right CRC32, ISIZE (and the 'SL' uncompressed size), so
 * bytes inside compressed data that look like a header are skipped. Not thread-safe; closing closes the file.
 */
final class MemberSplitInputStream extends SplitStream {

    /** A confirmed member at most this large (uncompressed) is kept from the confirming decode and not decoded again. */
    static final int KEEP_CONFIRMED = 4 << 20;

    private static final int SCAN_CHUNK = 64 * 1024;

    private final InputStream file;
    private final Seekable seekable;
    /** The next member to open; -1 once the split has nothing more (empty split). */
    private long next;
    private InputStream member;
    private long memberStart;
    /** What {@link #getPos()} reports. */
    private long reported;
    private long decoded;
    /** True while {@link #member} is the kept output of {@link #confirm}, already counted in {@link #decoded}. */
    private boolean memberCounted;

    private MemberSplitInputStream(InputStream file, long start, long end) throws IOException {
        super(file, start, end);
        this.file = file;
        this.seekable = (Seekable) file;
    }

    /**
     * A stream over the members of {@code file} (which must be {@link Seekable}) that start in {@code [start, end)}
     * and beyond, for as long as the reader asks; the caller has checked that the member at offset 0 is independent.
     */
    static MemberSplitInputStream open(InputStream file, long start, long end) throws IOException {
        MemberSplitInputStream s = new MemberSplitInputStream(file, start, end);
        long first = start == 0 ? 0 : s.findMember(start, end);
        if (first < 0) {
            s.next = -1;
            s.reported = end;
        } else {
            s.setStart(first);
            s.next = s.member == null ? first : s.next;
            s.reported = first;
        }
        return s;
    }

    /** A one-byte array for {@link #openNext}'s probe. */
    private final byte[] one = new byte[1];

    @Override
    int readSome(byte[] b, int off, int len) throws IOException {
        while (true) {
            if (member == null && !openNext()) {
                return -1;
            }
            int n = member.read(b, off, len);
            if (n > 0) {
                if (!memberCounted) {
                    decoded += n;
                }
                reported = memberStart + 1;
                return n;
            }
            member.close();
            member = null;
            memberCounted = false;
        }
    }

    /** Opens the member at {@link #next}; false at the end of the file or of an empty split. */
    private boolean openNext() throws IOException {
        if (next < 0) {
            return false;
        }
        if (readAt(next, one, 1) == 0) {
            next = -1;
            return false;
        }
        GzipMembers.Member m = memberAt(next); // a malformed or truncated header throws, naming its offset
        if (m == null) {
            throw new ZipException("gzip member at offset " + next + " has no 'SL' or 'BC' subfield, but the"
                    + " file's first member has one: a file is split only if every member says its length");
        }
        long length = m.totalLength();
        memberStart = next;
        next += length;
        seekable.seek(memberStart);
        member = GzipInputStream.builder().build(new Bounded(file, length));
        return true;
    }

    /**
     * The first member at or after {@code from} and before {@code to} whose header is confirmed, or -1. A confirmed
     * member small enough is kept decoded and becomes the current member.
     */
    private long findMember(long from, long to) throws IOException {
        byte[] chunk = new byte[SCAN_CHUNK];
        long pos = from;
        while (pos < to) {
            // No further than the split's end (plus the rest of a magic number): small splits read little.
            int want = (int) Math.min(chunk.length, to - pos + 3);
            int n = readAt(pos, chunk, want);
            int last = (int) Math.min(n - 3L, to - pos);
            for (int i = 0; i < last; i++) {
                if (chunk[i] == (byte) 0x1f && startsMember(chunk, i) && confirm(pos + i)) {
                    return pos + i;
                }
            }
            if (n < want || want < chunk.length) {
                return -1;
            }
            pos += n - 3; // the last three bytes again: a magic number may straddle the chunks
        }
        return -1;
    }

    /** What the member header at {@code at} says (sluice-core reads it), or null if it has no size subfield. */
    private GzipMembers.Member memberAt(long at) throws IOException {
        seekable.seek(at);
        return GzipMembers.read(file, at);
    }

    /** True if {@code b[off..off+3)} can start a gzip member: ID1, ID2, CM = 8 (deflate). A cheap first filter. */
    private static boolean startsMember(byte[] b, int off) {
        return b[off] == (byte) 0x1f && b[off + 1] == (byte) 0x8b && b[off + 2] == 8;
    }

    /**
     * True if a member really starts at {@code at}: the length in its header ends at end of file or at another gzip
     * header, and the member decodes with the right CRC32, ISIZE and (for 'SL') uncompressed size.
     */
    private boolean confirm(long at) throws IOException {
        GzipMembers.Member m;
        try {
            m = memberAt(at);
        } catch (ZipException | EOFException e) {
            return false; // bytes inside compressed data that only look like a header
        }
        if (m == null) {
            return false;
        }
        long length = m.totalLength();
        long size = m.uncompressedSize();
        byte[] after = new byte[3];
        int got = readAt(at + length, after, 3);
        if (got != 0 && (got < 3 || !startsMember(after, 0))) {
            return false;
        }
        if (got == 0 && !endsAt(at + length)) {
            return false;
        }
        seekable.seek(at);
        boolean keep = size >= 0 && size <= KEEP_CONFIRMED;
        byte[] kept = keep ? new byte[(int) size] : null;
        long count = 0;
        try (GzipInputStream in = GzipInputStream.builder().build(new Bounded(file, length))) {
            if (keep) {
                int n = 0;
                while (count < size && (n = in.read(kept, (int) count, (int) (size - count))) >= 0) {
                    count += n;
                }
                // One more read must find the end, which is where the trailer's CRC32 and ISIZE are checked.
                if (n >= 0 && in.read() >= 0) {
                    count++;
                }
            } else {
                byte[] sink = new byte[64 * 1024];
                for (int n; (n = in.read(sink, 0, sink.length)) >= 0; ) {
                    count += n;
                }
            }
        } catch (ZipException | EOFException e) {
            // Not a member after all: its deflate data, CRC32 or ISIZE disagree. Counted as decoded all the same.
            decoded += count;
            return false;
        }
        decoded += count;
        if (size >= 0 && count != size) {
            return false;
        }
        if (keep) {
            member = new ByteArrayInputStream(kept);
            memberCounted = true;
            memberStart = at;
            next = at + length;
        }
        return true;
    }

    /** True if the file ends exactly at {@code pos} (reading there gives nothing), as opposed to a short read. */
    private boolean endsAt(long pos) throws IOException {
        if (pos == 0) {
            return true;
        }
        byte[] last = new byte[1];
        return readAt(pos - 1, last, 1) == 1;
    }

    /** Reads up to {@code len} bytes at {@code pos} into {@code b[0..)}; fewer only at end of file. */
    private int readAt(long pos, byte[] b, int len) throws IOException {
        try {
            seekable.seek(pos);
        } catch (EOFException e) {
            return 0; // Hadoop's streams refuse to seek past the end
        }
        int got = 0;
        while (got < len) {
            int n = file.read(b, got, len - got);
            if (n < 0) {
                break;
            }
            got += n;
        }
        return got;
    }

    /** Compressed offset of the member whose bytes were returned last, plus one; see the class comment. */
    @Override
    public long getPos() {
        return reported;
    }

    /** Bytes decompressed so far, including the decoding that confirmed the first member. For measurements. */
    long bytesDecoded() {
        return decoded;
    }

    /** Not supported: a split stream is positioned by its start and end only. */
    @Override
    public void resetState() {
        throw new UnsupportedOperationException("a split of an independent-member gzip file cannot be reset");
    }

    @Override
    void release() throws IOException {
        if (member != null) {
            member.close();
        }
    }

    /** At most {@code left} bytes of the file from where it is positioned; does not close the file. */
    private static final class Bounded extends InputStream {
        private final InputStream in;
        private long left;

        Bounded(InputStream in, long left) {
            this.in = in;
            this.left = left;
        }

        @Override
        public int read() throws IOException {
            if (left == 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                left--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) {
                return len == 0 ? 0 : -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }
    }
}
