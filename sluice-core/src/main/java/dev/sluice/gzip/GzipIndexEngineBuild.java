package dev.sluice.gzip;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.ZipException;

/**
 * Builds the checkpoints of a {@link GzipIndex} with the stream's native engine (ISA-L) doing every byte of the decode,
 * in one serial walk from block end to block end (issue 32's {@code sluice index} line): from a verified block
 * boundary P, whose 32 KiB window is known (empty at a member's start), the {@link BlockFinder} proposes the first
 * plausible block start S at or after the next search target (targets lie {@code spacing} output bytes apart at the
 * compressed ratio so far, never before the last candidate taken or the walk's position, and are set by the walk
 * itself, so that the index is the same from run to run: see {@link #setTargets}), and
 * {@link EngineRest#decodeTo} decodes P..S with the window as dictionary and its crafted end after S: taken, S is a
 * true block boundary, the output exact, its last 32 KiB S's window, and S a checkpoint if it is at least
 * {@code spacing} bytes after the previous one or its member's start ({@link GzipIndexTable}'s rule; see
 * {@link #exactEnd} for a stored candidate);
 * refused (a false candidate), the next candidate is tried from P again. A member that ends before S is checked there
 * (CRC32 and ISIZE, {@link MemberCheck#trailer}) and the walk goes on at the next member's header with an empty
 * window. The searches need only compressed bytes: a finder thread claims them up to {@link #AHEAD} ahead of the walk,
 * and the walk, rather than wait for one, claims the next itself where one may start (at small spacings they run one
 * at a time, each from the last one's candidate); with one processor the walk does them all.
 *
 * <p>Where the walk cannot go on by candidates (none left before the file's end, one too far for the input buffer,
 * refused {@link #TRIES} times in a row, or an output past the cap), the rest of the member is decoded in one stream
 * with no checkpoints: the index stays exact, with fewer entry points there. Anything the walk finds wrong (a
 * header, the deflate data, a trailer, a cut file) is not judged here: the build is handed to {@code fallback},
 * today's build for the machine, so bad input gets exactly its exception ({@link ZipException} for a corrupt file,
 * {@link EOFException} for a truncated one), at the cost of a second pass over bad files only. Data after the last
 * member (zeros, garbage, anything not starting with the gzip magic) ends the index, as for the scanner's build.
 *
 * <p>Memory: the input buffer ({@code max(32 MiB, 2 x spacing)}, at most 1 GiB), the decoded bytes of one stretch
 * (about {@code spacing}, at most {@code max(64 MiB, 8 x spacing)}, at most 1 GiB), two searchers' 4 MiB buffers, the
 * engine's native blocks, and the windows (32 KiB per checkpoint). Thread-safety: one build per instance, on the
 * caller's thread and the finder's, which share only the searches' state (under this object's lock) and the ratio
 * (volatile); the finder ends with the build, whatever its outcome.
 */
final class GzipIndexEngineBuild {
    private static final int WINDOW = GzipIndexBuild.WINDOW;
    /** Refused candidates in a row before the rest of the member is streamed: bad data refuses every one. */
    static final int TRIES = 4;
    /**
     * Candidates closer than this to the walk's position are skipped: a stretch must hold the engine's first byte and
     * the crafted end's in different bytes ({@link EngineRest#decodeTo}).
     */
    private static final long MIN_GAP = 64;
    /** The finder's search buffer: 4 MiB searched per read, plus what a stored candidate's probe reads past it. */
    static final int SEARCH = 4 << 20;
    private static final int SEARCH_EXTRA = 65_536 + (int) (EngineRest.PROBE_BITS >>> 3) + 64;
    /** Candidates the finder may be ahead of the walk. */
    static final int AHEAD = 8;
    /** The bytes one streamed read gives the engine. */
    private static final int STREAM_IN = 1 << 20;
    private static final int STREAM_OUT = 256 * 1024;

    /** The build of the machine without this one: judges bad input, and builds what this walk gives up on. */
    interface Fallback {
        GzipIndex build() throws IOException;
    }

    private final FileChannel ch;
    private final long size;
    private final long spacing;
    private final InflateEngine engine;
    private final EngineRest rest;
    /** The walk's output holder: {@code bytes[0..length)} the window, then the stretch the engine decodes. */
    private final MarkerInflater out = new MarkerInflater();
    private final int cap;
    /** The bytes the finder searches per read ({@link #SEARCH}; less in tests, to cross many reads). */
    private final int search;
    private final CRC32 javaCrc = new CRC32();

    // The input buffer: file bytes [base, base + limit) in in[0..limit), 16 zero bytes after.
    private final byte[] in;
    private long base;
    private int limit;

    // The walk.
    private int wlen;
    private long u;
    private long memberStartU;
    /** The header offset of the member the walk is in. */
    private long memberHeader;
    private long memberCrc;
    private final GzipIndexTable table;
    /** Stretches decoded by candidate, those refused, members (or their rests) streamed, and searches run. */
    private int runs;
    private int refusals;
    private int streamed;
    private int searchesRun;

    // The searches, shared with the finder thread under this object's lock: search k looks from targets[k % AHEAD],
    // set by the walk (see setTargets); the walk takes their results in order.
    private final long[] results = new long[AHEAD];
    private final boolean[] ready = new boolean[AHEAD];
    private final long[] targets = new long[AHEAD];
    private long nextTask;
    private long consumed;
    /** Searches whose targets are set: tasks {@code [0, targetsSet)}. */
    private long targetsSet;
    /** The target of search {@code targetsSet - 1} (the member's deflate start before the first). */
    private long lastTarget;
    /**
     * The lowest bit a target may lie at: {@link #MIN_GAP} past the last candidate the walk took from a search and
     * past the walk's position, since a search from before either finds a candidate the walk has no use for.
     */
    private long floor;
    /** The bits from a search's target to its candidate, smoothed over the searches the walk took, in order. */
    private double overshoot;
    /** A search found no candidate before the file's end: later ones would not either. */
    private boolean ended;
    private Throwable finderFailure;
    private volatile boolean cancelled;
    /** Compressed bits per output byte, smoothed over the last stretches: the distance between search starts. */
    private volatile double bitsPerByte = 8 / 3.0;

    /** The walk's own searcher (for the searches it takes on while it would otherwise wait). */
    private Finder mine;
    private long pending = -2;

    private GzipIndexEngineBuild(FileChannel ch, long size, long spacing, InflateEngine engine, int search) {
        this.search = search;
        this.ch = ch;
        this.size = size;
        this.spacing = spacing;
        this.table = new GzipIndexTable(spacing);
        this.engine = engine;
        this.rest = new EngineRest(engine);
        long buffer = Math.max(32L << 20, 2 * spacing + (1 << 20));
        this.in = new byte[(int) Math.min(Math.min(buffer, 1L << 30), size + 64) + 16];
        this.cap = (int) Math.min(Math.max(64L << 20, 8 * spacing), 1L << 30);
        out.bytes = new byte[(int) Math.min(cap, Math.max(1 << 20, spacing + (spacing >> 1))) + WINDOW];
    }

    /**
     * The index of the {@code size}-byte gzip file {@code ch}, decoded by {@code engine} (which this build ends), the
     * finder on a thread of its own where {@code twoThreads}; {@code fallback}'s wherever the walk finds the file
     * bad or cannot go on. Leaves {@code ch} open.
     */
    static GzipIndex build(FileChannel ch, long size, long spacing, InflateEngine engine, boolean twoThreads,
            Fallback fallback) throws IOException {
        return build(ch, size, spacing, engine, twoThreads, fallback, null, SEARCH);
    }

    /**
     * {@link #build}, with {@code stats} (when not null) given the stretches, refusals and streamed rests (and, where
     * it has a fourth element, the searches run), and the finder searching {@code search} bytes per read.
     */
    static GzipIndex build(FileChannel ch, long size, long spacing, InflateEngine engine, boolean twoThreads,
            Fallback fallback, int[] stats, int search) throws IOException {
        GzipIndexEngineBuild b;
        try {
            b = new GzipIndexEngineBuild(ch, size, spacing, engine, search);
        } catch (RuntimeException | Error e) {
            engine.end();
            throw e;
        }
        GzipIndex ix;
        try {
            ix = b.walk(twoThreads);
        } catch (InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            // Bad input, or a file the walk cannot read: today's build gives the verdict (or, where it finds the
            // file good, the index).
            ix = null;
        } finally {
            engine.end();
        }
        if (stats != null) {
            stats[0] = b.runs;
            stats[1] = b.refusals;
            stats[2] = b.streamed;
            if (stats.length > 3) {
                stats[3] = b.searchesRun;
            }
        }
        return ix != null ? ix : fallback.build();
    }

    private GzipIndex walk(boolean twoThreads) throws IOException {
        if (size == 0) {
            throw new EOFException("empty file");
        }
        long deflate = member(0);
        synchronized (this) {
            lastTarget = deflate << 3;
            setTargets(AHEAD);
        }
        mine = new Finder();
        Thread t = null;
        if (twoThreads) {
            Finder finder = new Finder();
            t = new Thread(() -> searches(finder), "sluice-gzip-index-find");
            t.setDaemon(true);
            t.start();
        }
        try {
            walkMembers(deflate << 3);
        } finally {
            synchronized (this) {
                cancelled = true;
                notifyAll();
            }
            if (t != null) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while building a gzip index");
                }
            }
        }
        return table.index(ch, size, u);
    }

    /** Reads the header of a member at {@code header}, records the member, and returns its deflate data's offset. */
    private long member(long header) throws IOException {
        long deflate = header + GzipMembers.headerLength(ch, header);
        table.member(header, deflate, u);
        memberHeader = header;
        memberStartU = u;
        memberCrc = 0;
        wlen = 0;
        return deflate;
    }

    private void walkMembers(long p) throws IOException {
        int refusedInRow = 0;
        while (true) {
            long s = candidate(p + MIN_GAP);
            long trailer = -1;
            if (s < 0 || (s >>> 3) + 8 - (p >>> 3) > in.length - 16) {
                trailer = stream(p);
            } else {
                load(p >>> 3, (s >>> 3) + 8);
                out.length = wlen;
                long rel = base << 3;
                int r = rest.decodeTo(out, in, limit, p - rel, s - rel, out.bytes, 0, wlen, cap);
                runs++;
                if (r == MarkerInflater.BOUNDARY) {
                    pending = -2;
                    refusedInRow = 0;
                    stretch(rest.crc);
                    bitsPerByte = (bitsPerByte + (double) (s - p) / Math.max(1, out.length - rest.from)) / 2;
                    long end = exactEnd(s - rel);
                    if (end >= 0 && table.due(u)) {
                        checkpoint(end + rel);
                    }
                    slide();
                    p = s;
                    continue;
                } else if (r == MarkerInflater.MEMBER_END) {
                    refusedInRow = 0;
                    stretch(rest.crc);
                    trailer = base + (out.endBit >>> 3);
                } else if (r == EngineRest.REFUSED && ++refusedInRow < TRIES) {
                    refusals++;
                    pending = -2;
                    continue;
                } else {
                    if (r == EngineRest.REFUSED) {
                        refusals++;
                    }
                    refusedInRow = 0;
                    trailer = stream(p);
                }
            }
            long next = memberEnd(trailer);
            if (next < 0) {
                return;
            }
            p = member(next) << 3;
        }
    }

    /**
     * The bit of {@code in} where a block starts with the output so far, for a stretch that ended at the candidate
     * {@code s}, or -1: a checkpoint is also where a read through the index stops, so its bit must be the one a
     * decoder ends a block at. A dynamic candidate is that bit; a stored one may lie anywhere in its header's zero
     * bits and padding (decoding from it is the same, see {@link EngineRest}), so an empty stored block (a flush's,
     * as every pigz block ends) gives the next block's start after its LEN and NLEN, and one holding data gives
     * none.
     */
    private long exactEnd(long s) {
        if (!EngineRest.storedAt(in, s)) {
            return s;
        }
        int b = (int) ((s + 3 + 7) >>> 3);
        return in[b] == 0 && in[b + 1] == 0 ? (long) (b + 4) << 3 : -1;
    }

    /** The engine's last stretch, {@code out.bytes[rest.from..out.length)}, with {@code crc} its CRC32 or -1. */
    private void stretch(long crc) {
        int n = out.length - rest.from;
        if (crc < 0) {
            javaCrc.reset();
            javaCrc.update(out.bytes, rest.from, n);
            crc = javaCrc.getValue();
        }
        memberCrc = Crc32s.combine(memberCrc, crc, n);
        u += n;
    }

    /** A checkpoint at bit {@code bit} of the file, at the end of the output so far ({@code out.bytes[..length)}). */
    private void checkpoint(long bit) {
        // out.bytes[0..length) are the member's last bytes (the window before the stretch, then the stretch).
        int len = Math.min(WINDOW, out.length);
        table.checkpoint(bit, u, Arrays.copyOfRange(out.bytes, out.length - len, out.length));
    }

    /** Keeps the last 32 KiB (or fewer) of the output at the start of {@code out.bytes}: the next stretch's window. */
    private void slide() {
        int len = Math.min(WINDOW, out.length);
        System.arraycopy(out.bytes, out.length - len, out.bytes, 0, len);
        wlen = len;
        out.length = len;
    }

    /**
     * The member's trailer at {@code trailer} against its output; returns the next member's header offset, or -1
     * where the gzip data ends (the file's end, or bytes that do not start with the gzip magic).
     */
    private long memberEnd(long trailer) throws IOException {
        ByteBuffer t = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
        int n = GzipIndexBuild.readAt(ch, t, trailer);
        if (n < 8) {
            throw MemberCheck.truncated(trailer + n, "the trailer", memberHeader);
        }
        MemberCheck.trailer(t.getInt(0) & 0xffffffffL, t.getInt(4) & 0xffffffffL, memberCrc, u - memberStartU,
                memberHeader);
        if (n < 10 || t.get(8) != (byte) 0x1f || t.get(9) != (byte) 0x8b) {
            return -1;
        }
        return trailer + 8;
    }

    /**
     * Decodes the member from bit {@code p} (the window {@code out.bytes[0..wlen)} before it) to its end in one stream,
     * with no checkpoints; returns its trailer's offset.
     */
    private long stream(long p) throws IOException {
        streamed++;
        InflateEngine e = engine;
        e.reset();
        if (wlen > 0) {
            e.setDictionary(out.bytes, 0, wlen);
        }
        long at = p >>> 3;
        int k = (int) (p & 7);
        byte[][] bufs = {new byte[STREAM_IN], new byte[STREAM_IN]};
        int which = 0;
        long pieceEnd;
        if (k != 0) {
            ByteBuffer one = ByteBuffer.allocate(1);
            if (GzipIndexBuild.readAt(ch, one, at) < 1) {
                throw new EOFException("gzip data ends at offset " + at);
            }
            byte[] head = BitStarts.prefix(k, one.get(0));
            e.setInput(head, 0, head.length);
            pieceEnd = at + 1;
        } else {
            pieceEnd = at;
        }
        if (out.bytes.length < WINDOW + STREAM_OUT) {
            out.bytes = Arrays.copyOf(out.bytes, WINDOW + STREAM_OUT);
        }
        javaCrc.reset();
        long startCrc = memberCrc;
        long n = 0;
        int len = wlen;
        try {
            for (int stalls = 0; !e.finished(); ) {
                if (e.needsInput()) {
                    byte[] b = bufs[which ^= 1];
                    int got = GzipIndexBuild.readAt(ch, ByteBuffer.wrap(b), pieceEnd);
                    if (got <= 0) {
                        throw MemberCheck.truncatedData(pieceEnd, memberHeader);
                    }
                    e.setInput(b, 0, got);
                    pieceEnd += got;
                }
                if (len == out.bytes.length) {
                    System.arraycopy(out.bytes, len - WINDOW, out.bytes, 0, WINDOW);
                    len = WINDOW;
                }
                int got = e.inflate(out.bytes, len, out.bytes.length - len);
                if (got == 0 && !e.needsInput() && !e.finished() && ++stalls > 2) {
                    throw new ZipException("the engine stalls in the member at offset " + memberHeader);
                }
                if (got > 0) {
                    stalls = 0;
                    if (!e.computesCrc()) {
                        javaCrc.update(out.bytes, len, got);
                    }
                    len += got;
                    n += got;
                }
            }
        } catch (java.util.zip.DataFormatException x) {
            throw new ZipException("corrupt deflate data in the member at offset " + memberHeader);
        }
        long crc = e.computesCrc() ? e.crc() : javaCrc.getValue();
        memberCrc = Crc32s.combine(startCrc, crc, n);
        u += n;
        int keep = Math.min(WINDOW, len);
        System.arraycopy(out.bytes, len - keep, out.bytes, 0, keep);
        wlen = keep;
        out.length = keep;
        return pieceEnd - e.remaining();
    }

    /** Makes the input buffer hold the file's bytes {@code [from, to)} (as many as the file has). */
    private void load(long from, long to) throws IOException {
        if (from >= base && Math.min(to, size) <= base + limit) {
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(in, 0, in.length - 16);
        int n = GzipIndexBuild.readAt(ch, b, from);
        Arrays.fill(in, n, Math.min(in.length, n + 16), (byte) 0);
        base = from;
        limit = n;
    }

    /**
     * Sets the targets of the searches up to {@code limit} (exclusive), each {@link #step} past the one before and
     * none below {@link #floor}. Only the walk's thread calls it, at points of its walk (its start, and each search
     * result it takes), and every input (the ratio, the floor, the overshoot) is the walk's own state there: so the
     * targets, the candidates found from them and the checkpoints are the same from run to run, whatever the
     * threads' timing, and the same with one thread or two (issue 32: an index file is reproducible).
     */
    private void setTargets(long limit) {
        for (; targetsSet < limit; targetsSet++) {
            long t = Math.max(lastTarget + step(), floor);
            targets[(int) (targetsSet % AHEAD)] = t;
            lastTarget = t;
        }
        notifyAll();
    }

    /** The first candidate at or after bit {@code min} (the one kept from before, or the next search's), or -1. */
    private long candidate(long min) throws IOException {
        if (pending != -1 && pending < min) {
            synchronized (this) {
                floor = Math.max(floor, min);
            }
            do {
                pending = take();
            } while (pending != -1 && pending < min);
        }
        return pending;
    }

    /** The next search's candidate (-1: none before the file's end), searching itself rather than waiting. */
    private long take() throws IOException {
        long[] task = new long[1];
        while (true) {
            long target;
            synchronized (this) {
                int i = (int) (consumed % AHEAD);
                if (ready[i]) {
                    ready[i] = false;
                    consumed++;
                    long s = results[i];
                    if (s >= 0) {
                        floor = Math.max(floor, s + MIN_GAP);
                        overshoot = (overshoot + (s - targets[i])) / 2;
                    }
                    // Where the step is shorter than twice the usual stretch (small spacings: a target every block
                    // or more often), the next search waits for this one's candidate and starts past it, so that
                    // together they read each bit at most once; at the default spacing, where the step is some 16
                    // times the stretch (large.gz), the searches run up to AHEAD ahead of the walk, side by side.
                    setTargets(consumed + (step() < 2 * overshoot ? 1 : AHEAD));
                    return s;
                }
                GzipIndexBuild.rethrow(finderFailure);
                target = claim(task);
                if (target == -2) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("interrupted while building a gzip index");
                    }
                    continue;
                }
            }
            publish(task[0], mine.search(target));
        }
    }

    /**
     * Claims the next search (its number into {@code task[0]}) and returns its first bit, the target the walk set for
     * it ({@link #setTargets}); -2 where the searches have reached the file's end or the next search has no target
     * yet (at most {@link #AHEAD} ahead of the walk, one where the step is short). A search covers the bits from its
     * target to its candidate: one that starts inside that stretch finds the same candidate again, which is why the
     * targets never fall behind {@link #floor}.
     */
    private synchronized long claim(long[] task) {
        if (cancelled || ended || nextTask >= targetsSet) {
            return -2;
        }
        task[0] = nextTask++;
        return targets[(int) (task[0] % AHEAD)];
    }

    /** Publishes search {@code task}'s candidate {@code s} (-1: none before the file's end). */
    private synchronized void publish(long task, long s) {
        int i = (int) (task % AHEAD);
        results[i] = s;
        ready[i] = true;
        searchesRun++;
        if (s < 0) {
            ended = true;
        }
        notifyAll();
    }

    /** The distance between search starts: {@code spacing} output bytes at the ratio so far. */
    private long step() {
        return Math.max(MIN_GAP, (long) (spacing * bitsPerByte));
    }

    /** The finder thread: searches ahead of the walk until it is over. */
    private void searches(Finder finder) {
        long[] task = new long[1];
        try {
            while (true) {
                long target;
                synchronized (this) {
                    while ((target = claim(task)) == -2 && !cancelled && !ended) {
                        wait();
                    }
                }
                if (target == -2) {
                    return;
                }
                publish(task[0], finder.search(target));
            }
        } catch (Throwable e) {
            synchronized (this) {
                finderFailure = e;
                notifyAll();
            }
        }
    }

    /**
     * One searcher's state: the first plausible block start at or after a bit, over the file's compressed bytes
     * (whatever members they belong to: the walk skips those it has passed). Each thread has its own.
     */
    private final class Finder {
        private final MarkerInflater probe = new MarkerInflater();
        private final byte[] buf = new byte[search + SEARCH_EXTRA + 16];
        private long bufBase = -1;
        private int bufLimit;

        /** The first candidate at or after bit {@code from}, or -1 at the file's end (or once the walk is over). */
        long search(long from) throws IOException {
            long fileBits = size << 3;
            while (from < fileBits && !cancelled) {
                long at = from >>> 3;
                // Past the searchable part (the buffer less what a probe reads past a candidate) unless at the end.
                if (bufBase < 0 || at < bufBase || at >= bufBase + bufLimit - SEARCH_EXTRA
                        && bufBase + bufLimit < size) {
                    bufLimit = GzipIndexBuild.readAt(ch, ByteBuffer.wrap(buf, 0, buf.length - 16), at);
                    Arrays.fill(buf, bufLimit, bufLimit + 16, (byte) 0);
                    bufBase = at;
                }
                long rel = bufBase << 3;
                boolean last = bufBase + bufLimit >= size;
                long end = last ? (long) bufLimit << 3 : (long) (bufLimit - SEARCH_EXTRA) << 3;
                long s = EngineRest.firstPlausible(probe, buf, bufLimit, from - rel, end);
                if (s >= 0) {
                    return s + rel;
                }
                from = rel + end;
                if (last) {
                    break;
                }
            }
            return -1;
        }
    }
}
