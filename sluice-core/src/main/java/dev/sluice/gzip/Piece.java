package dev.sluice.gzip;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.ZipException;

/**
 * One stretch of a gzip file between two {@link EntryPoints} entries, decoded on a worker ({@link ParallelInflate}):
 * its compressed bytes, where decoding starts (bit offset, window) and where it must stop (the next entry's
 * uncompressed offset, or the next member's data). What it cannot check alone (a CRC32 and ISIZE of a member that
 * began in an earlier piece) it reports as {@link Segment}s, for {@link PieceReader} to combine in order.
 *
 * <p>Written by the caller's thread before it is submitted and by one worker after; the pool's hand-over orders them.
 */
final class Piece {
    /** Room in front of the input for {@link BitStarts}' empty blocks. */
    static final int ROOM = BitStarts.MAX_PREFIX;

    /** Compressed offset of {@code in[ROOM]}. */
    final long offset;
    /**
     * The compressed bytes at {@code in[ROOM..ROOM+len)}, and {@link BitStarts#MAX_SUFFIX} bytes of room after them;
     * null until a worker gathers them ({@link #gather}) from where the reader left them ({@link #lieIn}). The
     * worker writes bits of the first and last byte (see {@link BitStarts}), so the array is the piece's alone.
     */
    byte[] in;
    final int len;
    /** Bits of {@code in[ROOM]} before the start (0..7). */
    final int skipBits;
    /** The start's window (null: a member's first deflate byte, no dictionary). */
    final Window window;
    /** Uncompressed offset of the start. */
    final long u;
    /** Output bytes up to where the piece ends, or -1 when unknown (the last piece of an index without the size). */
    final long target;
    /** True if the piece ends at a member's deflate data (its input ends there); false: at a checkpoint. */
    final boolean endsAtMember;
    /** For a piece that ends at a checkpoint: the checkpoint's bits in the last byte of the input (0..7). */
    final int endBits;
    /** The window of the checkpoint it ends at, to compare with the output's last bytes; or null. */
    final Window endWindow;
    /** True for the last piece: its input runs to the end of the file (or {@link #cut}). */
    final boolean last;
    /** For the last piece: its input stops short of the end of the file (it was longer than a piece may be). */
    final boolean cut;

    /**
     * Where the compressed bytes lie until a worker gathers them: the byte the previous piece ended in ({@code lead},
     * or -1 when the piece starts at a byte boundary of its own) and then slices of the reader's shared blocks.
     */
    private int lead = -1;
    private List<Slice> slices;

    // Results, written by the worker.
    final List<Segment> segments = new ArrayList<>(2);
    /** For the last piece: offset in {@link #in} of the first byte after the last member (trailing data), or -1. */
    int trailingAt = -1;

    /**
     * A piece whose compressed bytes are {@code in[ROOM..ROOM+len)} (laid out as {@link #in} says), or, with a null
     * {@code in}, wherever {@link #lieIn} says.
     */
    Piece(long offset, byte[] in, int len, int skipBits, Window window, long u, long target, boolean endsAtMember,
            int endBits, Window endWindow, boolean last, boolean cut) {
        this.offset = offset;
        this.in = in;
        this.len = len;
        this.skipBits = skipBits;
        this.window = window;
        this.u = u;
        this.target = target;
        this.endsAtMember = endsAtMember;
        this.endBits = endBits;
        this.endWindow = endWindow;
        this.last = last;
        this.cut = cut;
    }

    /** {@code len} bytes of a shared block's array from {@code off}: part of a piece's compressed bytes. */
    static final class Slice {
        final ParallelInflate.Block block;
        final int off;
        final int len;

        Slice(ParallelInflate.Block block, int off, int len) {
            this.block = block;
            this.off = off;
            this.len = len;
        }
    }

    /**
     * Caller's thread, before submission: the compressed bytes are {@code lead} (a byte value, or -1 for none) and
     * then {@code slices}, whose blocks this piece holds a use of each until {@link #gather} releases them.
     */
    void lieIn(int lead, List<Slice> slices) {
        this.lead = lead;
        this.slices = slices;
    }

    /**
     * On the worker, before {@link #decode}: copies the bytes {@link #lieIn} named into an input array of the
     * workers' ({@link ParallelInflate#input}), laid out as {@link #in} says, and releases the blocks, so that the
     * caller's thread never copies compressed bytes (issue 31: its share of the CPU). Nothing to do for a piece made
     * with its array.
     */
    void gather(ParallelInflate workers) {
        if (slices == null) {
            return;
        }
        try {
            byte[] b = workers.input(ROOM + len + BitStarts.MAX_SUFFIX, len >> 2); // a quarter more: the next fit
            int at = ROOM;
            if (lead >= 0) {
                b[at++] = (byte) lead;
            }
            for (Slice s : slices) {
                System.arraycopy(s.block.bytes, s.off, b, at, s.len);
                at += s.len;
            }
            if (at != ROOM + len) {
                throw new IllegalStateException("piece of " + len + " bytes gathered " + (at - ROOM));
            }
            in = b;
        } finally {
            release(workers);
        }
    }

    /** Gives back the blocks this piece still holds (on a failure before {@link #gather}, too); any thread, once. */
    void release(ParallelInflate workers) {
        List<Slice> s = slices;
        slices = null;
        if (s != null) {
            for (Slice x : s) {
                workers.release(x.block);
            }
        }
    }

    /**
     * What a piece saw of one member: {@code crc} and {@code length} of the member's bytes in the piece; if the member
     * ended in it, its trailer and the offset after it; if a member started in it, where and what its header claims.
     */
    static final class Segment {
        long crc;
        long length;
        boolean ended;
        long trailerCrc;
        long trailerSize;
        long endOffset;
        /** Offset of the header of the member that starts after this segment, or -1 if none does in this piece. */
        long nextHeader = -1;
        int nextHeaderLength;
        GzipMembers.Member nextClaim;
    }

    private String where() {
        return "in the piece from compressed offset " + offset + (skipBits > 0 ? " bit " + skipBits : "")
                + ", uncompressed " + u;
    }

    /**
     * Runs on a worker: decodes the piece into {@code out} from index 0 (an array's buffer or a direct one, which has
     * room for the target and one byte more, or grows into a new buffer of its kind) with {@code e}, fills
     * {@link #segments} and returns the decoded bytes' buffer and count as a {@link ParallelInflate.Decoded}.
     * {@code scratch} (at least {@link InflateEngine#MAX_DICTIONARY} bytes, the worker's own) takes the windows where the
     * piece starts and ends, so that a window stored compressed is decoded without a new array.
     */
    ParallelInflate.Decoded decode(InflateEngine e, ByteBuffer out, byte[] scratch) throws IOException {
        out.clear();
        int end = ROOM + len;
        boolean atCheckpoint = !endsAtMember && !last;
        if (atCheckpoint) {
            // The data ends at the checkpoint with an empty final block: the engine must finish exactly there.
            end = BitStarts.end(in, endBits == 0 ? end : end - 1, endBits);
        }
        if (window != null && window.length() > 0) {
            int wl = window.copyTo(scratch, e);
            e.reset();
            e.setDictionary(scratch, 0, wl); // the engine keeps its own copy
        } else {
            e.reset();
        }
        int start = BitStarts.prime(in, ROOM, skipBits);
        e.setInput(in, start, end - start);
        // Java's CRC32 only where the engine computes none as it decodes (ISA-L does: no second pass over the output).
        CRC32 crc = e.computesCrc() ? null : new CRC32();
        Segment seg = new Segment();
        int produced = 0;
        int segStart = 0;
        for (int stalls = 0; ; ) {
            // Never more room than the target, plus one byte to catch data that runs on past it.
            int room = target < 0 ? out.capacity() - produced
                    : (int) Math.min(out.capacity() - produced, target - produced + 1);
            if (room == 0) {
                out = ParallelInflate.grow(out, produced);
                continue;
            }
            int n;
            try {
                out.limit(produced + room).position(produced);
                n = e.inflate(out);
            } catch (DataFormatException x) {
                throw new ZipException("invalid deflate data (or an index that does not fit the gzip data) "
                        + where() + ": " + x.getMessage());
            }
            if (n > 0) {
                if (crc != null) {
                    crc.update(out.position(produced).limit(produced + n));
                }
                produced += n;
                if (target >= 0 && produced > target) {
                    throw new ZipException("index does not fit the gzip data: more than the " + target
                            + " bytes the index gives " + where());
                }
                stalls = 0;
                continue;
            }
            if (e.finished()) {
                int pos = end - e.remaining();
                if (atCheckpoint && end - pos < 8) {
                    if (pos != end) {
                        throw new ZipException("index does not fit the gzip data: the deflate data does not end at"
                                + " the next checkpoint (bit " + endBits + " of compressed offset "
                                + (offset + (endBits == 0 ? len : len - 1)) + ") " + where());
                    }
                    break; // at the checkpoint: the next piece goes on from there
                }
                if (end - pos < 8) {
                    throw ranOut(pos + (end - pos), "the trailer");
                }
                seg.crc = crc != null ? crc.getValue() : e.crc();
                seg.length = produced - segStart;
                seg.ended = true;
                seg.trailerCrc = GzipMembers.le(in, pos, 4);
                seg.trailerSize = GzipMembers.le(in, pos + 4, 4);
                seg.endOffset = offset + pos + 8 - ROOM;
                segments.add(seg);
                seg = new Segment();
                if (crc != null) {
                    crc.reset();
                } // the engine's starts again at its reset, below
                segStart = produced;
                int next = pos + 8;
                if (next == end) {
                    if (last && !cut) {
                        return done(out, produced);
                    }
                    throw ranOut(next, "the next member's header");
                }
                if (last && (in[next] != 0x1f || next + 1 < end && in[next + 1] != (byte) 0x8b)) {
                    trailingAt = next; // not a member: trailing zeros or garbage, for the reader to judge
                    return done(out, produced);
                }
                if (next + 1 == end) {
                    throw ranOut(end, "the next member's header");
                }
                Segment prev = segments.get(segments.size() - 1);
                int hl = header(next, end, prev);
                int data = next + hl;
                if (endsAtMember && !last && data == end) {
                    return done(out, produced);
                }
                e.reset();
                e.setInput(in, data, end - data);
                stalls = 0;
                continue;
            }
            if (e.needsInput()) {
                throw ranOut(end, "the deflate data");
            }
            if (++stalls > 2) {
                throw new ZipException("deflate decoder made no progress " + where());
            }
        }
        // At a checkpoint inside a member: the segment goes on in the next piece.
        seg.crc = crc != null ? crc.getValue() : e.crc();
        seg.length = produced - segStart;
        segments.add(seg);
        if (endWindow != null) {
            checkWindow(out, produced, scratch, e); // the piece is decoded: e is free for the window
        }
        return done(out, produced);
    }

    private ParallelInflate.Decoded done(ByteBuffer out, int produced) throws ZipException {
        if (target >= 0 && produced != target) {
            throw new ZipException("index does not fit the gzip data: " + produced + " bytes decoded " + where()
                    + ", the index says " + target);
        }
        return new ParallelInflate.Decoded(null, out, produced, this);
    }

    /** The input ended at {@code at} while reading {@code what}: truncated file, or an index that does not fit. */
    private IOException ranOut(int at, String what) {
        long where = offset + at - ROOM;
        if (last && !cut) {
            return new EOFException("truncated gzip input: end of stream at offset " + where + " inside " + what);
        }
        return new ZipException("index does not fit the gzip data: " + what + " runs past compressed offset " + where
                + (last ? " (more than a piece's input after the last checkpoint)" : ", where the next checkpoint is ")
                + where());
    }

    /**
     * Reads and checks the header at {@code in[at..)} (FHCRC too), notes it in {@code seg} and returns its length.
     */
    private int header(int at, int end, Segment seg) throws IOException {
        HeaderBytes bytes = new HeaderBytes(at, end);
        seg.nextHeader = offset + at - ROOM;
        seg.nextClaim = GzipMembers.readDecoderHeader(bytes, seg.nextHeader);
        int length = bytes.next - at;
        seg.nextHeaderLength = length;
        if ((in[at + 3] & GzipHeader.FHCRC) != 0) {
            CRC32 c = new CRC32();
            c.update(in, at, length - 2);
            int computed = (int) c.getValue() & 0xffff;
            int stored = (int) GzipMembers.le(in, at + length - 2, 2);
            if (stored != computed) {
                throw new ZipException(String.format("header CRC16 (FHCRC) mismatch: expected 0x%04x (FHCRC field),"
                        + " actual 0x%04x (header bytes) in member at offset %d", stored, computed, seg.nextHeader));
            }
        }
        return length;
    }

    /** The piece's input as {@link GzipMembers.Bytes}, from {@code next} to {@code end}. */
    private final class HeaderBytes implements GzipMembers.Bytes {
        int next;
        private final int end;

        HeaderBytes(int next, int end) {
            this.next = next;
            this.end = end;
        }

        @Override
        public int read() throws IOException {
            if (next >= end) {
                throw ranOut(end, "a member header");
            }
            return in[next++] & 0xff;
        }
    }

    /**
     * The output's last bytes (after the start's window) against the end checkpoint's window, which is decoded into
     * {@code scratch} with {@code e}.
     */
    private void checkWindow(ByteBuffer out, int produced, byte[] scratch, InflateEngine e) throws ZipException {
        int wl = endWindow.copyTo(scratch, e);
        int fromOut = Math.min(wl, produced);
        int fromStart = wl - fromOut;
        boolean same = ByteBuffer.wrap(scratch, fromStart, fromOut).equals(out.slice(produced - fromOut, fromOut));
        if (same && fromStart > 0) {
            // A piece shorter than a window: the rest of the end's window is the end of the start's.
            byte[] start = window != null ? window.bytes() : null;
            same = start != null && start.length >= fromStart
                    && Arrays.equals(scratch, 0, fromStart, start, start.length - fromStart, start.length);
        }
        if (!same) {
            throw new ZipException("index does not fit the gzip data: the window of the checkpoint at uncompressed "
                    + (u + target) + " is not the data before it");
        }
    }
}
