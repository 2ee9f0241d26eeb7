package dev.sluice.gzip;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * index's record of the file's first bytes.
 *
 * <p>The compressed bytes are never copied on the caller's thread: they stay in the blocks they were read into
 * (a {@link Prefetch}'s, shared, or this reader's own when the source is not one), and each piece names its
 * {@link Piece.Slice}s of them, which its worker gathers ({@link Piece#gather}) and gives back. The caller's thread
 * reads only what the index's record of the file covers (its first and last {@link EntryPoints#checkBytes} bytes,
 * for their CRC32s) and the byte a piece starts in when the previous ended inside it. One thread; not thread-safe.
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

    /**
     * The source in blocks: {@code cur.bytes[pos..lim)} not yet read, at compressed offset {@link #offset}; first the
     * bytes the stream had read ahead, then the {@link Prefetch}'s blocks ({@link #pf}) or, from any other source,
     * blocks this reader reads itself. {@code cur} holds a use of its block until the reader moves past it.
     */
    private ParallelInflate.Block cur;
    private int pos;
    private int lim;
    private final Prefetch pf;
    private final int[] slice = new int[2];
    /** Size of the next block read from a source that is not a {@link Prefetch}: from 64 KiB, growing fourfold. */
    private int ownBlock = Prefetch.FIRST_BLOCK;
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
    /**
     * The file's last bytes, {@code [tailFrom, compressedSize)}, as they are read: their CRC32 so far and the offset
     * up to which it runs ({@code tailNext}); null when the index has no record of them.
     */
    private final CRC32 tailCrc;
    private final long tailFrom;
    private long tailNext;

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
        this.pf = in instanceof Prefetch ? (Prefetch) in : null;
        // The stream's buffer is the stream's: the bytes it read ahead get a block of their own (at most a buffer).
        this.cur = new ParallelInflate.Block(Arrays.copyOfRange(buf, pos, lim));
        this.pos = 0;
        this.lim = lim - pos;
        boolean record = ep.fileCheck != null && ep.compressedSize >= 0 && bufStart == 0;
        this.headLimit = record ? Math.min(ep.checkBytes, ep.compressedSize) : -1;
        this.headChecked = !record;
        this.tailCrc = ep.fileCheck != null && ep.compressedSize >= 0 ? new CRC32() : null;
        this.tailFrom = tailCrc == null ? -1 : ep.compressedSize - Math.min(ep.checkBytes, ep.compressedSize);
        this.tailNext = tailFrom;
        if (record) {
            account(buf, 0, pos, 0); // the header's bytes, for the file's first (and, when that small, last) bytes
        }
        hintSizes();
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
     * Results held at once: twice the workers and at least {@link #MIN_IN_FLIGHT}, each up to about
     * {@link #PIECE_SIZE} out and its input.
     */
    static int maxInFlight(int threads) {
        return Math.max(2 * threads, MIN_IN_FLIGHT);
    }

    /**
     * The fewest pieces in flight: 6, about three pieces per worker on 2 cores (a 4 MiB piece is ~3 ms of ISA-L's
     * time), enough to cover the scheduler keeping the caller's thread off a core for a few milliseconds. Members'
     * {@link ParallelInflate#MIN_IN_FLIGHT} (8) is counted in 1 MiB members; 8 pieces made the process 30 MB larger
     * and gained nothing (1.1 GB through its index, Temurin 25, 2 cores, 10 interleaved rounds: 0.658 s with 8,
     * 0.650 s with 6, 0.678 s with 4; docs/benchmarks/gzip.md, 2026-11-29).
     */
    static final int MIN_IN_FLIGHT = 6;

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
        if (workers.freeInputs.size() < workers.maxInFlight()) {
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
                for (Piece h : held) {
                    h.release(workers);
                }
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

    /**
     * The entry after the last one of the piece that starts at entry {@code s} (the index's size for the last piece):
     * entries are grouped until the piece holds {@link #pieceSize} bytes, out or in.
     */
    private int pieceEnd(int s) {
        int e = s + 1;
        while (e < ep.size() && ep.u[e] - ep.u[s] < pieceSize && ep.startByte(e) - ep.startByte(s) < pieceSize) {
            e++;
        }
        return e;
    }

    /**
     * Tells the workers how large the pieces' output and input arrays need to be: the largest of the index's pieces
     * (the last one's output at {@link #pieceSize} when the size is not known), up to four times {@link #pieceSize}
     * (a piece larger than that, which only an index far sparser than the pieces makes, gets arrays of its own size,
     * as without a hint). Every array then fits every piece, so the workers make as many as are in use at once and
     * no more. A piece holds {@code pieceSize} and up to one stretch between checkpoints: 4-5.7 MB for the 1.1 GB
     * tar's index at the default spacing.
     */
    private void hintSizes() {
        long out = 0;
        long in = 0;
        for (int s = 0, e; s < ep.size(); s = e) {
            e = pieceEnd(s);
            boolean last = e == ep.size();
            long target = !last ? ep.u[e] - ep.u[s]
                    : ep.uncompressedSize >= 0 ? ep.uncompressedSize - ep.u[s] : pieceSize;
            long want = last ? (ep.compressedSize >= 0 ? ep.compressedSize - ep.startByte(s) : pieceSize)
                    : ep.endByte(e) - ep.startByte(s);
            out = Math.max(out, target + 1);
            in = Math.max(in, want);
        }
        long cap = Math.min(4 * Math.min(pieceSize, Integer.MAX_VALUE),
                Integer.MAX_VALUE - 8 - Piece.ROOM - BitStarts.MAX_SUFFIX);
        workers.sizeHints((int) Math.min(out, cap), (int) (Piece.ROOM + Math.min(in, cap) + BitStarts.MAX_SUFFIX));
    }

    /** Reads the next piece's input and describes it. */
    private Piece readPiece() throws IOException {
        int s = next;
        int e = pieceEnd(s);
        boolean last = e == ep.size();
        long start = ep.startByte(s);
        long want;
        if (!last) {
            want = ep.endByte(e) - start;
        } else if (ep.compressedSize >= 0) {
            if (ep.compressedSize < start) {
                throw sizeMismatch(start);
            }
            want = Math.min(ep.compressedSize - start, MAX_PIECE);
        } else {
            want = MAX_PIECE;
        }
        int lead = -1;
        if (start == offset - 1 && want > 0) {
            lead = lastByte & 0xff; // the previous piece ended inside this byte
        } else if (start != offset) {
            throw new ZipException("index does not fit the gzip data: piece at offset " + start + ", read up to "
                    + offset);
        }
        List<Piece.Slice> slices = new ArrayList<>(2);
        int got = lead < 0 ? 0 : 1;
        try {
            got += take(slices, (int) want - got);
            if (got < want) {
                if (!last || ep.compressedSize >= 0) {
                    throw sizeMismatch(offset);
                }
            }
        } catch (IOException x) {
            for (Piece.Slice sl : slices) {
                workers.release(sl.block);
            }
            throw x;
        }
        boolean cut = false;
        if (last && got == want) {
            if (more()) {
                if (ep.compressedSize >= 0 && offset == ep.compressedSize) {
                    throw new ZipException("index does not fit the gzip data: the input goes on past offset "
                            + ep.compressedSize + ", the size the index gives");
                }
                // More than a piece may hold: the piece stops here, and what follows (which can only be trailing
                // bytes, or the data runs past the index) is read when its worker is done.
                cut = true;
            } else if (ep.compressedSize >= 0 && offset != ep.compressedSize) {
                throw sizeMismatch(offset);
            }
        }
        next = last ? -1 : e;
        long u = ep.u[s];
        long target = last ? (ep.uncompressedSize >= 0 ? ep.uncompressedSize - u : -1) : ep.u[e] - u;
        if (target > MAX_PIECE + pieceSize) {
            throw new ZipException("index does not fit the gzip data: " + target + " bytes between entry points");
        }
        Piece p = new Piece(start, null, got, (int) (ep.bit[s] & 7), ep.window[s], u, target,
                !last && ep.memberStart(e), last ? 0 : (int) (ep.bit[e] & 7), last ? null : ep.window[e], last, cut);
        p.lieIn(lead, slices);
        if (last && !cut) {
            checkTail();
        }
        return p;
    }

    /**
     * Names up to {@code want} bytes at the current offset in {@code slices} (fewer only at the end of the input),
     * taking a use of each block for the piece; returns how many. Reads only what {@link #account} needs.
     */
    private int take(List<Piece.Slice> slices, int want) throws IOException {
        int done = 0;
        while (done < want && more()) {
            int n = Math.min(want - done, lim - pos);
            cur.use();
            slices.add(new Piece.Slice(cur, pos, n));
            account(cur.bytes, pos, n, offset);
            pos += n;
            offset += n;
            done += n;
            lastByte = cur.bytes[pos - 1];
        }
        return done;
    }

    /**
     * Makes {@code pos < lim}, moving to the source's next block if this one is read: true if a byte is there,
     * false at the end of the input.
     */
    private boolean more() throws IOException {
        if (pos < lim) {
            return true;
        }
        if (eof) {
            return false;
        }
        workers.release(cur);
        cur = null;
        byte[] b;
        if (pf != null) {
            b = pf.takeBlock(slice);
            if (b != null) {
                cur = new ParallelInflate.Block(b, pf);
                pos = slice[0];
                lim = slice[1];
            }
        } else {
            // Another source (-Dsluice.gzip.prefetch=false): blocks of our own, one read each, recycled by the
            // workers' input arrays.
            b = workers.input(ownBlock);
            int n = 0;
            for (int zeros = 0; n == 0; ) {
                n = in.read(b, 0, b.length);
                if (n == 0 && ++zeros > 1000) {
                    throw new IOException("source returned 0 bytes 1000 times in a row at offset " + offset);
                }
            }
            if (n > 0) {
                cur = new ParallelInflate.Block(b);
                pos = 0;
                lim = n;
                ownBlock = Math.min(Prefetch.BLOCK, 4 * ownBlock);
            }
        }
        if (cur == null) {
            eof = true;
            pos = 0;
            lim = 0;
            return false;
        }
        return true;
    }

    /**
     * The bytes {@code b[off..off+n)} at compressed offset {@code at}, as they are read, for the index's record of
     * the file: the CRC32 of its first bytes (checked once they are all read) and of its last ones.
     */
    private void account(byte[] b, int off, int n, long at) throws ZipException {
        if (!headChecked && n > 0) {
            int h = (int) Math.min(n, headLimit - at);
            headCrc.update(b, off, h);
            if (at + h >= headLimit) {
                headChecked = true;
                checkHead();
            }
        }
        if (tailCrc != null && at + n > tailNext && at <= tailNext && tailNext < ep.compressedSize) {
            int from = (int) (tailNext - at);
            int to = (int) Math.min(n, ep.compressedSize - at);
            tailCrc.update(b, off + from, to - from);
            tailNext = at + to;
        }
    }

    private ZipException sizeMismatch(long at) {
        return new ZipException("index does not fit the gzip data: the input ends at offset " + at + (ep.compressedSize
                >= 0 ? ", the index says the file is " + ep.compressedSize + " bytes" : " before its last entry"));
    }

    private void checkHead() throws ZipException {
        if ((int) headCrc.getValue() != ep.fileCheck[0]) {
            throw new ZipException(String.format("index does not fit the gzip data: CRC32 of its first %d bytes"
                    + " 0x%08x != 0x%08x in the index", headLimit, (int) headCrc.getValue(), ep.fileCheck[0]));
        }
    }

    /** The file's last bytes against the index's record, before the last piece is handed out. */
    private void checkTail() throws ZipException {
        if (tailCrc == null) {
            return;
        }
        long n = ep.compressedSize - tailFrom;
        if (tailNext != ep.compressedSize || (int) tailCrc.getValue() != ep.fileCheck[1]) {
            throw new ZipException(String.format("index does not fit the gzip data: CRC32 of its last %d bytes"
                    + " 0x%08x != 0x%08x in the index", n, (int) tailCrc.getValue(), ep.fileCheck[1]));
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
            while (garbage < 0 && more()) {
                int i = MemberCheck.firstNonZero(cur.bytes, pos, lim);
                garbage = i < 0 ? -1 : offset + i - pos;
                offset += lim - pos;
                pos = lim;
            }
        }
        if (p.cut && garbage < 0 && ep.compressedSize >= 0 && offset != ep.compressedSize) {
            throw sizeMismatch(offset);
        }
        if (garbage >= 0) {
            trailingGarbageIgnored = MemberCheck.trailingGarbage(garbage, ignoreTrailingGarbage);
            while (more()) {
                offset += lim - pos; // read the source to its end, as the stream does without an index
                pos = lim;
            }
        }
    }
}
