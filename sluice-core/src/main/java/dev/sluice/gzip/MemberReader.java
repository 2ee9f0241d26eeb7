package dev.sluice.gzip;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.ZipException;

/**
 * The independent-members strategy behind {@link GzipInputStream}: members whose size subfield ({@code SL},
 * BGZF's {@code BC}) says where the next one starts are cut from the compressed input and decoded, each whole, on
 * {@link ParallelInflate}'s workers, which check them ({@link MemberCheck}); the caller's thread only reads the input
 * in big blocks, parses the short headers and hands results over in order.
 *
 * <p>The input comes in blocks: a {@link Prefetch}'s (read ahead on its own thread; the default), decoded where they
 * lie, or, without one, blocks of up to {@link #BLOCK} bytes that this reader fills itself (growing fourfold from the
 * stream's buffer while reads fill them). Each member is decoded where it lies in its block (a
 * {@link ParallelInflate.Block} shared by the members cut from it, given back when the last is done), so the caller's
 * thread copies nothing but the bytes that straddle two blocks (into a bridge array: the start of the next block up
 * to the end of the straddling member, or {@link #BRIDGE} bytes for a header) and a member larger than half a block
 * (an array of its own).
 *
 * <p>It hands the input back ({@link #rest()}) at the first member it does not take: one without a size subfield or
 * too large for a worker, a header it cannot parse at once (corrupt, longer than {@link #MAX_HEADER}, or cut by the
 * end of the input), and what follows the last member. The stream's framing then reads that member (or the trailing
 * bytes) itself, so header verdicts and the trailing-data rule are the one-thread path's, word for word. Not
 * thread-safe: the stream's one caller thread.
 */
final class MemberReader implements ChunkSource {
    /**
     * Compressed bytes read from the source at a time: 4 MiB, overridable with {@code -Dsluice.gzip.memberBlock=}.
     * Big reads keep the caller's system calls few; a block holds about four of Sluice's 1 MiB members.
     */
    static final int BLOCK = dev.sluice.internal.Defaults.intProperty("sluice.gzip.memberBlock", 4 << 20);

    /** The longest header parsed here (FNAME, FCOMMENT, FEXTRA included); longer ones go to the framing. */
    static final int MAX_HEADER = 64 * 1024;

    private final ParallelInflate workers;
    private final InputStream in;
    /** The block being read: {@code b[pos..lim)} not yet consumed; {@code b[0]} at compressed offset bStart. */
    private ParallelInflate.Block block;
    private byte[] b;
    private int pos;
    private int lim;
    private long bStart;
    private boolean eof;
    /** True once no more members are submitted: the input goes back to the framing ({@link #rest}) or failed. */
    private boolean stopped;
    /** True when stopping hands the input back (false after a failure queued in order). */
    private boolean handsBack;
    private final CRC32 headerCrc = new CRC32();
    /**
     * The source as a {@link Prefetch}, whose blocks this reader decodes where they lie, or null (then blocks are
     * read into arrays of its own). With it, {@code pend[pendPos..pendLim)} is the part of the source's block not yet
     * in {@link #b} (null: none), {@code pend[pendPos]} at compressed offset {@code pendStart}.
     */
    private final Prefetch pf;
    private byte[] pend;
    private int pendPos;
    private int pendLim;
    private long pendStart;
    private final int[] slice = new int[2];
    /** Bytes copied into a bridge between two of the source's blocks: enough for a header and then some. */
    static final int BRIDGE = 64 * 1024;

    /**
     * Takes over the input at the deflate data of the first member, whose header the stream has read:
     * {@code buf[pos..lim)} are the bytes read ahead (buf[0] at compressed offset {@code bufStart}), then {@code in}.
     * {@code claim} is that member's size subfield (independent, at most {@link GzipInputStream#MAX_PARALLEL_MEMBER}
     * either way) and {@code header} its header. The trailing-data policy is the framing's, which judges what follows
     * the last member.
     */
    MemberReader(ParallelInflate workers, InputStream in, byte[] buf, int pos, int lim, long bufStart,
            GzipMembers.Member claim, GzipHeader header) {
        this.workers = workers;
        this.in = in;
        this.pf = in instanceof Prefetch ? (Prefetch) in : null;
        this.block = new ParallelInflate.Block(buf);
        this.b = buf;
        this.pos = pos;
        this.lim = lim;
        this.bStart = bufStart;
        submitBody(claim, header);
    }

    @Override
    public ParallelInflate.Decoded next() throws IOException {
        readAhead();
        return workers.take(); // null once drained: stopped, and rest() says where the framing goes on
    }

    @Override
    public Rest rest() {
        if (!handsBack) {
            return null;
        }
        if (pend != null) {
            // The source's block goes on after b's bytes: hand both back as one array.
            byte[] all = new byte[lim - pos + pendLim - pendPos];
            System.arraycopy(b, pos, all, 0, lim - pos);
            System.arraycopy(pend, pendPos, all, lim - pos, pendLim - pendPos);
            pf.giveBack(pend);
            pend = null;
            bStart += pos;
            b = all;
            pos = 0;
            lim = all.length;
        }
        return new Rest(b, pos, lim, bStart);
    }

    @Override
    public void recycle(ParallelInflate.Decoded chunk) {
        workers.recycle(chunk);
    }

    @Override
    public boolean trailingGarbageIgnored() {
        return false; // the framing judges what follows the last member
    }

    @Override
    public void directOutput() {
        workers.directOutput();
    }

    @Override
    public void close() {
        workers.close();
    }

    /** Parses and submits members until the workers hold as many as allowed or this reader stops. */
    private void readAhead() {
        while (!stopped && workers.inFlight() < workers.maxInFlight()) {
            try {
                nextMember();
            } catch (IOException e) {
                stopped = true;
                workers.fail(e);
            }
        }
    }

    /** Reads the next member's header and submits it, or stops (handing the input back at the header). */
    private void nextMember() throws IOException {
        int hl;
        while ((hl = headerLength()) == 0) {
            if (eof || !refill(lim - pos)) {
                stop(); // the end, or a header cut by it: the framing's verdict
                return;
            }
        }
        if (hl < 0) {
            stop();
            return;
        }
        GzipHeader header = header(hl);
        GzipMembers.Member m = header == null ? null : claim(header, hl);
        if (m == null) {
            stop();
            return;
        }
        pos += hl;
        submitBody(m, header);
    }

    private void stop() {
        stopped = true;
        handsBack = true;
    }

    /**
     * Submits the body of member {@code m} at {@code b[pos..)}: in place when it fits the block, after moving its
     * start into a new block when it does not, into an array of its own when it is larger than half a block. A body
     * cut short by the end of the input is that member's failure, queued in order.
     */
    private void submitBody(GzipMembers.Member m, GzipHeader header) {
        int need = (int) (m.totalLength() - m.headerLength());
        try {
            if (lim - pos < need && need <= BLOCK / 2) {
                refill(need);
            }
            if (lim - pos >= need) {
                block.use();
                workers.submit(m, header, b, pos, need, block);
                pos += need;
                return;
            }
            byte[] body = workers.input(need);
            long bodyStart = bStart + pos;
            int got = lim - pos;
            System.arraycopy(b, pos, body, 0, got);
            for (int zeros = 0; got < need; ) {
                int n = eof ? -1 : read(body, got, need - got);
                if (n < 0) {
                    eof = true;
                    throw MemberCheck.truncated(bodyStart + got, m, m.offset());
                }
                if (n == 0 && ++zeros > 1000) {
                    throw new IOException("source returned 0 bytes 1000 times in a row at offset " + (bodyStart + got));
                }
                got += n;
            }
            // The block's bytes are used up; the next refill starts a new one after the body.
            bStart = bodyStart + need;
            pos = 0;
            lim = 0;
            workers.submit(m, header, body, 0, need, null);
        } catch (IOException e) {
            stopped = true;
            workers.fail(e);
        }
    }

    /**
     * Makes {@code b[pos..lim)} hold at least {@code want} bytes where the input has them: moves the unread bytes to
     * the front of a new block and reads into it until it holds {@code want} or the input ends. Returns false if no
     * byte was added.
     */
    private boolean refill(int want) throws IOException {
        if (pf != null) {
            return refillInPlace(want);
        }
        int keep = lim - pos;
        // Small first, four times larger while reads fill the blocks: a small stream would spend more time zeroing
        // 4 MiB than decoding itself.
        int size = lim == b.length ? (int) Math.min(BLOCK, 4L * b.length) : Math.min(BLOCK, b.length);
        byte[] next = workers.input(Math.max(size, want));
        System.arraycopy(b, pos, next, 0, keep);
        workers.release(block);
        block = new ParallelInflate.Block(next);
        bStart += pos;
        b = next;
        pos = 0;
        lim = keep;
        int before = lim;
        for (int zeros = 0; !eof && lim < b.length && (lim < want || lim == before); ) {
            int n = in.read(b, lim, b.length - lim);
            if (n < 0) {
                eof = true;
            } else if (n == 0 && ++zeros > 1000) {
                throw new IOException("source returned 0 bytes 1000 times in a row at offset " + (bStart + lim));
            } else {
                lim += n;
            }
        }
        return lim > before;
    }

    /**
     * {@link #refill} from the {@link Prefetch}'s blocks: when {@code b} is used up, the source's next block becomes
     * {@code b} as it is (no copy); when bytes of {@code b} are left (a header or member that straddles two blocks),
     * they go into a bridge array with as many of the next block's bytes as {@code want} asks (at least
     * {@link #BRIDGE}), and the rest of that block waits in {@link #pend}.
     */
    private boolean refillInPlace(int want) throws IOException {
        if (pend == null) {
            byte[] next = eof ? null : pf.takeBlock(slice);
            if (next == null) {
                eof = true;
                return false;
            }
            pendStart = bStart + lim;
            pend = next;
            pendPos = slice[0];
            pendLim = slice[1];
        }
        int keep = lim - pos;
        workers.release(block);
        if (keep == 0) {
            block = new ParallelInflate.Block(pend, pf);
            b = pend;
            bStart = pendStart - pendPos;
            pos = pendPos;
            lim = pendLim;
            pend = null;
            return true;
        }
        int take = Math.min(pendLim - pendPos, Math.max(want - keep, BRIDGE));
        byte[] next = workers.input(keep + take);
        System.arraycopy(b, pos, next, 0, keep);
        System.arraycopy(pend, pendPos, next, keep, take);
        block = new ParallelInflate.Block(next);
        bStart += pos;
        b = next;
        pos = 0;
        lim = keep + take;
        pendPos += take;
        pendStart += take;
        if (pendPos == pendLim) {
            pf.giveBack(pend);
            pend = null;
        }
        return true;
    }

    /** Reads from {@link #pend} first, then from the source. */
    private int read(byte[] dst, int off, int len) throws IOException {
        if (pend == null) {
            return in.read(dst, off, len);
        }
        int n = Math.min(len, pendLim - pendPos);
        System.arraycopy(pend, pendPos, dst, off, n);
        pendPos += n;
        pendStart += n;
        if (pendPos == pendLim) {
            pf.giveBack(pend);
            pend = null;
        }
        return n;
    }

    /**
     * The length of the header at {@code b[pos..lim)}: 0 if more bytes are needed to tell, -1 if it is not one this
     * reader takes (not a member, corrupt, or longer than {@link #MAX_HEADER}).
     */
    private int headerLength() {
        int n = lim - pos;
        if (n < 10) {
            return n == 0 || b[pos] == 0x1f && (n == 1 || b[pos + 1] == (byte) 0x8b) ? 0 : -1;
        }
        int flg = b[pos + 3] & 0xff;
        if (b[pos] != 0x1f || b[pos + 1] != (byte) 0x8b || b[pos + 2] != 8
                || (flg & GzipHeader.RESERVED_FLAGS) != 0) {
            return -1;
        }
        int at = pos + 10;
        if ((flg & GzipHeader.FEXTRA) != 0) {
            if (lim - at < 2) {
                return more(n);
            }
            at += 2 + ((b[at] & 0xff) | (b[at + 1] & 0xff) << 8);
        }
        for (int f : new int[] {GzipHeader.FNAME, GzipHeader.FCOMMENT}) {
            if ((flg & f) != 0) {
                int z = at < lim ? zero(at) : -1;
                if (z < 0) {
                    return more(n);
                }
                at = z + 1;
            }
        }
        if ((flg & GzipHeader.FHCRC) != 0) {
            at += 2;
        }
        return at > lim ? more(n) : at - pos;
    }

    /** More bytes are needed for the header: 0, unless it is already longer than a header may be here. */
    private static int more(int have) {
        return have >= MAX_HEADER ? -1 : 0;
    }

    private int zero(int from) {
        for (int i = from; i < lim; i++) {
            if (b[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    /** The header at {@code b[pos..pos+hl)}, or null if its FHCRC does not match (the framing's verdict then). */
    private GzipHeader header(int hl) {
        int flg = b[pos + 3] & 0xff;
        int end = pos + hl;
        if ((flg & GzipHeader.FHCRC) != 0) {
            headerCrc.reset();
            headerCrc.update(b, pos, hl - 2);
            if (((int) headerCrc.getValue() & 0xffff) != (int) GzipMembers.le(b, end - 2, 2)) {
                return null;
            }
        }
        long mtime = GzipMembers.le(b, pos + 4, 4);
        int at = pos + 10;
        byte[] extra = null;
        if ((flg & GzipHeader.FEXTRA) != 0) {
            int xlen = (int) GzipMembers.le(b, at, 2);
            extra = java.util.Arrays.copyOfRange(b, at + 2, at + 2 + xlen);
            at += 2 + xlen;
        }
        String name = null;
        if ((flg & GzipHeader.FNAME) != 0) {
            int z = zero(at);
            name = new String(b, at, z - at, StandardCharsets.ISO_8859_1);
            at = z + 1;
        }
        String comment = null;
        if ((flg & GzipHeader.FCOMMENT) != 0) {
            int z = zero(at);
            comment = new String(b, at, z - at, StandardCharsets.ISO_8859_1);
        }
        return new GzipHeader((flg & GzipHeader.FTEXT) != 0, (flg & GzipHeader.FHCRC) != 0, mtime,
                b[pos + 8] & 0xff, b[pos + 9] & 0xff, extra, name, comment);
    }

    /** The claim of a member this reader decodes on a worker, or null (none, too large, or a subfield's error). */
    private GzipMembers.Member claim(GzipHeader header, int hl) {
        byte[] extra = header.extra().orElse(null);
        if (extra == null) {
            return null;
        }
        try {
            GzipMembers.Member m = GzipMembers.member(bStart + pos, hl, extra);
            return GzipInputStream.decodesOnWorker(m) ? m : null;
        } catch (ZipException e) {
            return null; // the framing reads the header again and reports it
        }
    }
}
