package dev.sluice.gzip;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.zip.CRC32;
import java.util.zip.ZipException;
import dev.sluice.internal.Defaults;

/**
 * The caller's side of {@link GzipInputStream}'s decoding through an index: reads the compressed bytes once, in
 * order, cuts them into {@link Piece}s at the index's entry points (consecutive entries grouped until a piece holds
 * {@link #PIECE_SIZE} bytes of output), hands them to the workers and takes the results in order, checking what
 * spans pieces: each member's CRC32 (combined from the pieces' with {@link Crc32s#combine}, never recomputed), ISIZE
 * and size subfield, the index's record of the file (its size, the CRC32s of its first and last bytes), and what
 * follows the last member. No result is returned before the checks that cover its bytes passed: a piece's own (its
 * length, where it ends, the next checkpoint's window), the member's CRC32 when the member ends in it, and the
 * index's record of the file's first bytes. One thread; not thread-safe.
 */
final class PieceReader implements ChunkSource {
    /**
     * Output bytes a piece is grouped to (and compressed bytes at most, for data that does not compress): 4 MiB,
     * overridable with {@code -Dsluice.gzip.pieceSize=}: big enough that a piece's fixed costs (a window, an engine
     * reset, a CRC combination, a task) are small beside its decoding, small enough that two threads share a
     * 100 MB file evenly.
     */
    static final int PIECE_SIZE = Defaults.intProperty("sluice.gzip.pieceSize", 4 << 20);
    /**
     * The most bytes (in or out) between two entry points that a piece may hold: an index sparser than that is not
     * used, so that a piece's arrays stay bounded whatever the index says.
     */
    static final long MAX_PIECE = 64L << 20;

    private final EntryPoints ep;
    private final ParallelInflate workers;
    private final InputStream in;
    private final boolean ignoreTrailingGarbage;
    private final long pieceSize;

    // The source: bytes the stream had read ahead, then the stream itself.
    private byte[] left;
    private int leftPos;
    private int leftLim;
    /** Compressed offset of the next byte to read. */
    private long offset;
    private boolean eof;
    /** The last byte read, for the next piece when the previous one ended inside it. */
    private byte lastByte;

    // The index's record of the file.
    private final long headLimit;
    private final CRC32 headCrc = new CRC32();
    private boolean headChecked;
    /** Pieces read while the file's first bytes are not all read, held back until they are checked. */
    private final ArrayDeque<Piece> held = new ArrayDeque<>();
    /** Recent pieces, whose input covers at least the file's last {@code checkBytes} bytes once the last is read. */
    private final ArrayDeque<Piece> recent = new ArrayDeque<>();

    /** The entry the next piece starts at, or -1 once the last piece is read. */
    private int next;

    // The member being checked, across pieces.
    private long memberStart;
    private GzipMembers.Member claim;
    private long memberCrc;
    private long memberLength;
    private boolean trailingGarbageIgnored;

    /**
     * Starts after the first member's header: {@code buf[pos..lim)} are the bytes the stream read past it, at
     * compressed offset {@code bufStart + pos}; {@code buf[0..lim)} are all it read if {@code bufStart} is 0.
     *
     * @throws ZipException if the first member's data does not start where the index says
     */
    PieceReader(EntryPoints ep, ParallelInflate workers, InputStream in, byte[] buf, int pos, int lim, long bufStart,
            GzipMembers.Member claim, boolean ignoreTrailingGarbage, long pieceSize) throws IOException {
        this.ep = ep;
        this.pieceSize = pieceSize;
        this.workers = workers;
        this.in = in;
        this.ignoreTrailingGarbage = ignoreTrailingGarbage;
        this.claim = claim;
        this.offset = bufStart + pos;
        if (offset != ep.startByte(0)) {
            throw new ZipException("index does not fit the gzip data: the first member's deflate data starts at"
                    + " offset " + offset + ", the index says " + ep.startByte(0));
        }
        this.left = buf;
        this.leftPos = pos;
        this.leftLim = lim;
        long limit = -1;
        if (ep.fileCheck != null && ep.compressedSize >= 0 && bufStart == 0) {
            limit = Math.min(ep.checkBytes, ep.compressedSize);
            headCrc.update(buf, 0, (int) Math.min(pos, limit));
        }
        this.headLimit = limit;
        if (limit >= 0) {
            // The header's bytes, for the check of the file's last bytes when the file is that small.
            byte[] header = new byte[Piece.ROOM + pos];
            System.arraycopy(buf, 0, header, Piece.ROOM, pos);
            recent.add(new Piece(0, header, pos, 0, null, 0, 0, false, 0, null, false, false));
        }
        this.headChecked = limit < 0 || offset >= limit;
        if (limit >= 0 && headChecked) {
            checkHead();
        }
    }

    /**
     * True if {@code ep} is dense enough to decode through: no two entries (and no entry and the end, where the size
     * is known) more than {@link #MAX_PIECE} bytes apart, in or out.
     */
    static boolean usable(EntryPoints ep) {
        int n = ep.size();
        if (n == 0 || !ep.memberStart(0) || ep.u[0] != 0) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            if (ep.u[i] - ep.u[i - 1] > MAX_PIECE || ep.startByte(i) - ep.startByte(i - 1) > MAX_PIECE) {
                return false;
            }
        }
        return ep.uncompressedSize < 0 || ep.uncompressedSize - ep.u[n - 1] <= MAX_PIECE;
    }

    /**
     * Results held at once: twice the workers and at least 8, each up to about {@link #PIECE_SIZE} out and its
     * input; as for members ({@link ParallelInflate#maxInFlight}), enough work queued to cover the scheduler keeping
     * the caller's thread off a core for a few milliseconds.
     */
    static int maxInFlight(int threads) {
        return Math.max(2 * threads, ParallelInflate.MIN_IN_FLIGHT);
    }

    @Override
    public boolean trailingGarbageIgnored() {
        return trailingGarbageIgnored;
    }

    @Override
    public void recycle(ParallelInflate.Decoded chunk) {
        workers.recycle(chunk);
    }

    @Override
    public void directOutput() {
        workers.directOutput();
    }

    @Override
    public void close() {
        workers.close();
    }

    /**
     * The next piece's decoded bytes, checked; null after the last, when the end of the data has been checked too.
     * A worker's exception, or one of the checks here, is thrown in order: after the bytes before it.
     */
    @Override
    public ParallelInflate.Decoded next() throws IOException {
        readAhead();
        ParallelInflate.Decoded d = workers.take();
        if (d == null) {
            return null;
        }
        check(d.piece);
        if (!recent.contains(d.piece) && workers.freeInputs.size() < workers.maxInFlight()) {
            workers.freeInputs.offer(d.piece.in); // the worker is done with it, and no check needs it any more
        }
        return d;
    }

    /** Reads and submits pieces until the workers hold as many as allowed or the last is read. */
    private void readAhead() throws IOException {
        while (next >= 0 && (workers.inFlight() + held.size() < workers.maxInFlight() || !headChecked)) {
            Piece p;
            try {
                p = readPiece();
            } catch (IOException e) {
                next = -1;
                held.clear();
                workers.fail(e);
                return;
            }
            held.add(p);
            if (headChecked) {
                while (!held.isEmpty()) {
                    Piece h = held.poll();
                    workers.submit(h, outSize(h));
                }
            }
        }
    }

    /** The output array a piece needs: its target and one byte (to catch data that runs on past it). */
    private int outSize(Piece p) {
        return p.target < 0 ? (int) pieceSize : (int) p.target + 1;
    }

    /** Reads the next piece's input and describes it. */
    private Piece readPiece() throws IOException {
        int s = next;
        int e = s + 1;
        while (e < ep.size() && ep.u[e] - ep.u[s] < pieceSize && ep.startByte(e) - ep.startByte(s) < pieceSize) {
            e++;
        }
        boolean last = e == ep.size();
        long start = ep.startByte(s);
        long want;
        if (!last) {
            want = ep.endByte(e) - start;
        } else if (ep.compressedSize >= 0) {
            if (ep.compressedSize < start) {
                throw sizeMismatch(start);
            }
            want = Math.min(ep.compressedSize - start, MAX_PIECE + 1);
        } else {
            want = MAX_PIECE + 1;
        }
        byte[] buf = inputArray(Piece.ROOM + (int) want + BitStarts.MAX_SUFFIX);
        int got = 0;
        if (start == offset - 1 && want > 0) {
            buf[Piece.ROOM] = lastByte; // the previous piece ended inside this byte
            got = 1;
        } else if (start != offset) {
            throw new ZipException("index does not fit the gzip data: piece at offset " + start + ", read up to "
                    + offset);
        }
        got += read(buf, Piece.ROOM + got, (int) want - got);
        boolean cut = false;
        if (got < want) {
            if (!last || ep.compressedSize >= 0) {
                throw sizeMismatch(offset);
            }
        } else if (last) {
            if (ep.compressedSize >= 0 && offset == ep.compressedSize) {
                int extra = read(new byte[1], 0, 1);
                if (extra > 0) {
                    throw new ZipException("index does not fit the gzip data: the input goes on past offset "
                            + ep.compressedSize + ", the size the index gives");
                }
            } else {
                // More than a piece may hold: the piece stops here, and what follows (which can only be trailing
                // bytes, or the data runs past the index) is read when its worker is done. Put the byte read
                // beyond it back.
                got = (int) MAX_PIECE;
                cut = true;
                left = new byte[] {buf[Piece.ROOM + got]};
                leftPos = 0;
                leftLim = 1;
                offset = start + got;
            }
        }
        next = last ? -1 : e;
        long u = ep.u[s];
        long target = last ? (ep.uncompressedSize >= 0 ? ep.uncompressedSize - u : -1) : ep.u[e] - u;
        if (target > MAX_PIECE + pieceSize) {
            throw new ZipException("index does not fit the gzip data: " + target + " bytes between entry points");
        }
        Piece p = new Piece(start, buf, got, (int) (ep.bit[s] & 7), ep.window[s], u, target,
                !last && ep.memberStart(e), last ? 0 : (int) (ep.bit[e] & 7), last ? null : ep.window[e], last, cut);
        if (got > 0) {
            lastByte = buf[Piece.ROOM + got - 1];
        }
        remember(p);
        if (last && !cut) {
            checkTail();
        }
        return p;
    }

    /**
     * An input array of at least {@code size} bytes: one the workers are done with, or a new one a quarter larger
     * than the largest asked for so far, so that the next pieces fit it (a new array is zeroed by the caller's
     * thread: per-byte work that recycling avoids).
     */
    private byte[] inputArray(int size) {
        for (byte[] b; (b = workers.freeInputs.poll()) != null; ) {
            if (b.length >= size) {
                return b;
            }
        }
        largestInput = Math.max(largestInput, size);
        return new byte[(int) Math.min(Integer.MAX_VALUE - 8, largestInput + (largestInput >> 2))];
    }

    private int largestInput;

    private ZipException sizeMismatch(long at) {
        return new ZipException("index does not fit the gzip data: the input ends at offset " + at + (ep.compressedSize
                >= 0 ? ", the index says the file is " + ep.compressedSize + " bytes" : " before its last entry"));
    }

    /** Reads up to {@code len} bytes at the current offset, fewer only at the end of the input. */
    private int read(byte[] b, int off, int len) throws IOException {
        int done = 0;
        while (done < len) {
            int n;
            if (leftPos < leftLim) {
                n = Math.min(len - done, leftLim - leftPos);
                System.arraycopy(left, leftPos, b, off + done, n);
                leftPos += n;
            } else if (eof) {
                break;
            } else {
                n = in.read(b, off + done, len - done);
                if (n < 0) {
                    eof = true;
                    break;
                }
            }
            if (!headChecked && n > 0) {
                int h = (int) Math.min(n, headLimit - offset);
                headCrc.update(b, off + done, h);
                if (offset + h >= headLimit) {
                    headChecked = true;
                    checkHead();
                }
            }
            done += n;
            offset += n;
        }
        return done;
    }

    private void checkHead() throws ZipException {
        if ((int) headCrc.getValue() != ep.fileCheck[0]) {
            throw new ZipException(String.format("index does not fit the gzip data: CRC32 of its first %d bytes"
                    + " 0x%08x != 0x%08x in the index", headLimit, (int) headCrc.getValue(), ep.fileCheck[0]));
        }
    }

    /** Keeps the pieces that hold the last {@code checkBytes} bytes read, for {@link #checkTail}. */
    private void remember(Piece p) {
        recent.add(p);
        long from = p.offset + p.len - ep.checkBytes;
        while (recent.size() > 1) {
            java.util.Iterator<Piece> it = recent.iterator();
            it.next();
            if (it.next().offset > from) {
                break;
            }
            recent.poll();
        }
    }

    /** The file's last bytes against the index's record, before the last piece is handed out. */
    private void checkTail() throws ZipException {
        if (ep.fileCheck == null || ep.compressedSize < 0) {
            return;
        }
        long n = Math.min(ep.checkBytes, ep.compressedSize);
        long from = ep.compressedSize - n;
        CRC32 crc = new CRC32();
        long at = -1;
        for (Piece r : recent) {
            long lo = Math.max(from, Math.max(r.offset, at));
            long hi = r.offset + r.len;
            if (lo < hi) {
                if (at < 0 && lo > from) {
                    break; // not all kept: cannot happen (remember keeps them), but never a false verdict
                }
                r.crcOf(lo, hi, crc);
                at = hi;
            }
        }
        if (at != ep.compressedSize || (int) crc.getValue() != ep.fileCheck[1]) {
            throw new ZipException(String.format("index does not fit the gzip data: CRC32 of its last %d bytes"
                    + " 0x%08x != 0x%08x in the index", n, (int) crc.getValue(), ep.fileCheck[1]));
        }
    }

    /** What spans pieces: each member's CRC32, ISIZE and size subfield; after the last piece, the trailing bytes. */
    private void check(Piece p) throws IOException {
        for (Piece.Segment s : p.segments) {
            memberCrc = Crc32s.combine(memberCrc, s.crc, s.length);
            memberLength += s.length;
            if (!s.ended) {
                continue;
            }
            MemberCheck.trailer(s.trailerCrc, s.trailerSize, memberCrc, memberLength, memberStart);
            MemberCheck.claimed(claim, memberLength, s.endOffset - memberStart, memberStart);
            memberStart = s.nextHeader;
            claim = s.nextClaim;
            memberCrc = 0;
            memberLength = 0;
        }
        if (p.last) {
            checkTrailing(p);
        }
    }

    /** After the last member: zeros pass, anything else is garbage ({@link MemberCheck#trailingGarbage}). */
    private void checkTrailing(Piece p) throws IOException {
        long garbage = -1;
        if (p.trailingAt >= 0) {
            int i = MemberCheck.firstNonZero(p.in, p.trailingAt, Piece.ROOM + p.len);
            garbage = i < 0 ? -1 : p.offset + i - Piece.ROOM;
        }
        if (p.cut) {
            // Only trailing bytes can follow the data of a cut piece (its worker found the end inside it).
            byte[] b = new byte[8192];
            for (int n; garbage < 0 && (n = read(b, 0, b.length)) > 0; ) {
                int i = MemberCheck.firstNonZero(b, 0, n);
                garbage = i < 0 ? -1 : offset - n + i;
            }
        }
        if (p.cut && garbage < 0 && ep.compressedSize >= 0 && offset != ep.compressedSize) {
            throw sizeMismatch(offset);
        }
        if (garbage >= 0) {
            trailingGarbageIgnored = MemberCheck.trailingGarbage(garbage, ignoreTrailingGarbage);
            byte[] b = new byte[8192];
            while (read(b, 0, b.length) > 0) {
                // read the source to its end, as the stream does without an index
            }
        }
    }
}
