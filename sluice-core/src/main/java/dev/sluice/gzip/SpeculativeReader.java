package dev.sluice.gzip;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.ZipException;
import dev.sluice.internal.Defaults;

/**
 * Decodes any gzip stream (one member as gzip and pigz write, or concatenated members of any tool) on worker threads
 * without an index, by speculation (the method of rapidgzip and pugz; Sluice's code): the compressed bytes are cut
 * into chunks of {@link #CHUNK} bytes; a worker searches each chunk (but the first) for a block start
 * ({@link BlockFinder}) and decodes from there before the 32 KiB window before it is known ({@link MarkerInflater}),
 * until the first block that ends in the next chunk. The caller's thread then walks the chunks in order from the
 * known start: where a chunk's found start is the true one (the end of the chunk before it), its markers are
 * resolved from the window (on a worker; only the window's last 32 KiB on the caller's thread), and its CRC32 is
 * computed on the worker (a chunk still decoding when the walk confirms its start is handed the window then, and
 * decodes the rest as bytes); where it is not (a false candidate, no candidate, a fixed-Huffman or final block
 * there), the chunk is decoded again from the true boundary with the window known, on the caller's thread.
 * Speculation costs time, never bytes.
 *
 * <p>Where the stream's engine is ISA-L (JDK 22+ with the native engines), a decode whose last 32 KiB are known bytes
 * (from a member's start or a known window, or once the Java decoder's 16-bit phase is over or the walk handed it the
 * window) hands the rest of its chunk to ISA-L ({@link EngineRest}, through {@link MarkerInflater#rest}): from that
 * block boundary to the next chunk's first block-start candidate, where a crafted final block makes ISA-L stop
 * exactly (it finishes with all input used only where that candidate is a true block boundary), or to the end of the
 * member; anything else ISA-L does is thrown away and the Java decode goes on from the same bit. ISA-L's own CRC32 of
 * its part is combined with Java's of the rest ({@link Crc32s#combine}). Not on zlib (slower than the Java decoder)
 * and not for an index build, which needs every block end (the engine reports none). On 2 cores and the 1.1 GB
 * JDK-source tar, about 70% of the output went through ISA-L (docs/benchmarks/gzip.md).
 *
 * <p>One verdict per input: the Java decoders refuse what zlib refuses (incomplete and over-subscribed codes as zlib's
 * inftrees.c judges them, and every other zlib check); wherever decoding from a true boundary fails in Java (bad
 * data, input that ends, a block longer than two chunks or whose output passes the per-chunk limit), the rest of that
 * member is decoded from that boundary, with its window, by the stream's own engine ({@link GzipEngines#inflater()},
 * ISA-L or zlib), on the caller's thread, which gives exactly the one-thread path's bytes and exception: where ISA-L
 * accepts an incomplete code whose missing codewords are not used, so does this path. The end of each member is
 * checked here (CRC32, ISIZE, size subfields, through {@link MemberCheck}), its trailer and the next header read
 * with {@link GzipMembers#readDecoderHeader}; what follows the last member passes as zeros or is trailing garbage, as
 * {@link GzipInputStream} judges it.
 *
 * <p>Memory: up to {@link #ahead} chunks read ahead (each {@code 2 × CHUNK} bytes of input; {@code threads + 1},
 * fewer where the heap is small) and as many results in flight, each at most {@code 10 × CHUNK} symbols (2 bytes each,
 * the decoder's 16-bit phase) plus their bytes; about 185 MB of heap per chunk ahead for the 1.1 GB JDK-source tar at
 * the default chunk ({@link #HEAP_PER_CHUNK_BYTE}: it compresses 6:1, and its back-references into the unknown window
 * last through most of a chunk's output), arrays kept for reuse included; with ISA-L, per decoder
 * (one per worker and the caller) an engine's native blocks and a probe decoder ({@link EngineRest}). Not
 * thread-safe: one caller thread; the workers are daemon threads of a pool owned by this object, stopped by
 * {@link #close()} and ending on their own when idle.
 */
final class SpeculativeReader implements ChunkSource {
    /** Compressed bytes per chunk: {@code -Dsluice.gzip.speculativeChunk=}, default 4 MiB (rapidgzip's). */
    static final int CHUNK = Defaults.intProperty("sluice.gzip.speculativeChunk", 4 << 20);

    /**
     * Heap a chunk read ahead is counted at, per compressed byte of chunk: 44, 185 MB at the default chunk. Measured:
     * the live heap after a collection in the middle of an index build of the 1.1 GB JDK-source tar on 8 threads
     * (9 chunks ahead) was 1.68 GB (docs/benchmarks/gzip.md, 2026-11-29): per chunk its input and the next chunk's
     * (8 MB), the 16-bit symbols (up to 41 MB here, whose back-references into the unknown window last through most
     * of a chunk), the decoded bytes (~30 MB) and the resolved bytes waiting for the caller, and the arrays kept for
     * reuse.
     */
    static final int HEAP_PER_CHUNK_BYTE = 44;

    /**
     * Chunks read ahead and results held at once ({@code maxAhead}): one per worker and one that the ordered walk
     * holds, {@code threads + 1}, and no more than half the heap ({@code maxHeap}) holds at
     * {@link #HEAP_PER_CHUNK_BYTE}; never fewer than 2 (one walked, one decoding). Each chunk in flight is tens of
     * megabytes of arrays, and a larger read-ahead gained nothing and cost much: 2 cores, the 1.1 GB tar as one pigz
     * member, Temurin 25 (docs/benchmarks/gzip.md, 2026-11-29): 3 ahead 1.09-1.18 s at 0.72-0.85 GB of memory, 4
     * ahead 1.10-1.22 s at 0.9-1.1 GB, and the former {@code 2 × threads + 2} (6) 1.7-3.8 s at 1.4-1.6 GB (the
     * collector grew the heap for arrays nobody held any more, and the kernel zeroed every new page: 1.3-3.3 s of
     * system time), or an OutOfMemoryError in a 600 MB heap. rapidgzip -P2 took 1.25-1.36 s.
     */
    static int ahead(int threads, int chunkSize, long maxHeap) {
        return (int) Math.max(2, Math.min(threads + 1L, heapChunks(chunkSize, maxHeap)));
    }

    /**
     * Whether the heap ({@code maxHeap}) holds the two chunks in flight that speculation needs at the least, by the
     * count of {@link #ahead}: {@code auto} decodes on one thread where it does not, rather than risk running out of
     * memory.
     */
    static boolean fits(int chunkSize, long maxHeap) {
        return heapChunks(chunkSize, maxHeap) >= 2;
    }

    /** The chunks half the heap holds at {@link #HEAP_PER_CHUNK_BYTE}. */
    private static long heapChunks(int chunkSize, long maxHeap) {
        return maxHeap / 2 / ((long) HEAP_PER_CHUNK_BYTE * chunkSize);
    }

    private final int chunkSize;
    private final int softCap;
    private final int hardCap;
    private final int maxAhead;
    private final ThreadPoolExecutor pool;
    private final InputStream in;
    private final boolean ignoreTrailingGarbage;
    private boolean trailingGarbageIgnored;
    private volatile boolean direct;

    // The source: the bytes the stream read ahead, then the stream.
    private byte[] left;
    private int leftPos;
    private int leftLim;
    private boolean eof;
    /** Offset of the next byte the source gives. */
    private long readOffset;

    /** Chunks read and not yet passed, in order. */
    private final ArrayDeque<Chunk> chunks = new ArrayDeque<>();
    /** Arrays of chunks passed that no worker reads, for the next chunks (the caller's thread only). */
    private final ArrayDeque<byte[]> freeInputs = new ArrayDeque<>();
    private final Workers.Idle<MarkerInflater> inflaters = new Workers.Idle<>();
    private final ConcurrentLinkedQueue<char[]> freeSymbols = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<ByteBuffer> freeOutputs = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<byte[]> freeBytes = new ConcurrentLinkedQueue<>();
    /** The most symbols of the 16-bit phase, and the longest output (and slack), of a decode so far: sizing hints. */
    private volatile int symbolsSeen;
    private volatile int lengthSeen;

    // The ordered walk.
    private static final int DEFLATE = 0;
    private static final int BETWEEN = 1;
    private static final int ENGINE = 2;
    private static final int END = 3;
    private int state = DEFLATE;
    /** DEFLATE: the true bit offset (in the file) where decoding goes on. */
    private long pos;
    /** BETWEEN: offset of the trailer of the member that just ended. */
    private long trailerAt;
    /** The 32 KiB before {@link #pos}, right-aligned; its last {@code windowLen} bytes are known. */
    private final byte[] window = new byte[MarkerInflater.WINDOW];
    private int windowLen;
    /** The member being walked: where its header starts and what its size subfield claims. */
    private long walkMember;
    private GzipMembers.Member walkClaim;

    /** Results in order, for {@link #next()}. */
    private final ArrayDeque<Entry> results = new ArrayDeque<>();
    private Entry lastBytes;

    // The member being handed out: its CRC32 and length so far.
    private long memberCrc;
    private long memberLength;

    // The engine that decodes the rest of a member where Java decoding from a true boundary failed.
    private InflateEngine engine;
    private long engineMember;
    /** Offset just past the engine's current input. */
    private long feedEnd;

    /** Null, or an index build's sink ({@code GzipIndexWalk}), told by the walk what it confirms, in order. */
    private Checkpoints checkpoints;

    /**
     * What an index needs from the ordered walk, on the caller's thread, in input order: where each member starts,
     * and each stretch of output with the block ends inside it (the windows are the output's, which the caller reads).
     */
    interface Checkpoints {
        /** A member whose header starts at byte {@code header} and its deflate data at byte {@code deflate}. */
        void member(long header, long deflate);

        /**
         * The next {@code n} bytes of output, with {@code count} true block ends among them: pairs in {@code ends}, the
         * bit (from {@code baseBit} of the file) after the block and the output bytes into the stretch there. A
         * member's final block's end is not one (the trailer follows it), nor is any end in output the stream's engine
         * decoded (it reports none).
         */
        void stretch(long baseBit, long[] ends, int count, int n);
    }

    /** Sets the index build's sink (before the first {@link #next()}) and tells it of the first member. */
    void checkpoints(Checkpoints sink) {
        checkpoints = sink;
        sink.member(walkMember, pos >>> 3);
    }

    /** Chunks whose found start was the true one, decoded again, and members passed to the engine. */
    long matched;
    long redecoded;
    long firstCandidateFalse;
    long engineFallbacks;
    /**
     * Bytes of the chunks passed that the native engine decoded in a handoff ({@link EngineRest}) and that the Java
     * decoder did (the engine fallback's bytes in neither).
     */
    long engineBytes;
    long javaBytes;
    /** Hand chunks' rests to the native engine where it is ISA-L (tests turn it off to compare). */
    boolean engineRest = true;
    /** Whether the stream's engine is native: asked once, by the first worker that makes a decoder. */
    private volatile Boolean nativeRest;

    /**
     * Starts after the first member's header: {@code buf[pos..lim)} are the bytes the stream read past it, at
     * compressed offset {@code bufStart + pos}; {@code claim} is what the header's size subfield claims, or null.
     */
    SpeculativeReader(int threads, InputStream in, byte[] buf, int pos, int lim, long bufStart,
            GzipMembers.Member claim, boolean ignoreTrailingGarbage, int chunkSize) {
        this.chunkSize = chunkSize;
        this.softCap = (int) Math.min(Integer.MAX_VALUE - 16, 8L * chunkSize + 65536);
        this.hardCap = (int) Math.min(Integer.MAX_VALUE - 8, 10L * chunkSize + (4 << 20));
        this.maxAhead = ahead(threads, chunkSize, Runtime.getRuntime().maxMemory());
        this.pool = Workers.pool("sluice-speculative", threads);
        this.in = in;
        this.ignoreTrailingGarbage = ignoreTrailingGarbage;
        this.left = buf;
        this.leftPos = pos;
        this.leftLim = lim;
        this.readOffset = bufStart + pos;
        this.pos = readOffset << 3;
        this.walkMember = 0;
        this.walkClaim = claim;
    }

    /** A stretch of the input: its own {@code len} bytes at {@code start}, then the next chunk's, in {@code arr}. */
    private static final class Chunk {
        final long start;
        final byte[] arr;
        final int len;
        /** Bytes in {@code arr}: its own and the next chunk's (all there are at the end of the input). */
        int total;
        /** True once the bytes after it are in {@code arr} (or there are none). */
        boolean complete;
        Future<Spec> spec;
        /** The speculative decode behind {@link #spec} (null for a decode from a known start). */
        Speculate task;
        boolean specUsed;
        /** No worker reads {@link #arr} any more (its decode was awaited, or none was started). */
        boolean settled;

        Chunk(long start, byte[] arr, int len) {
            this.start = start;
            this.arr = arr;
            this.len = len;
            this.total = len;
        }
    }

    /** A worker's decode of a chunk: from {@code startBit} of its array, {@link MarkerInflater}'s results. */
    private static final class Spec {
        long startBit = -1;
        int status = MarkerInflater.FAILED;
        long endBit;
        /** The output: {@code bytes[0..length)}, of which {@code bytes[0..split)} still to come from {@code out}. */
        char[] out;
        byte[] bytes;
        int split;
        int length;
        int markerEnd;
        int minMarker;
        boolean firstFalse;
        /** With {@link #checkpoints}: {@link MarkerInflater#ends}, {@code blocks} pairs. */
        long[] ends;
        int blocks;
        /** Where the native engine's output starts in {@link #bytes} (-1: none) and its CRC32 (-1: not known). */
        int engineFrom = -1;
        long engineCrc = -1;
    }

    /** One result for {@link #next()}: decoded bytes (and the end of their member), or a failure in order. */
    private static final class Entry {
        Future<Part> part;
        IOException failure;
        /** The member ends with this entry's bytes: its trailer and what its header claimed. */
        Check check;
        /** After this entry the stream ended in trailing garbage that the policy let pass. */
        boolean garbageIgnored;
    }

    private static final class Part {
        final ByteBuffer out;
        final int len;
        final long crc;

        Part(ByteBuffer out, int len, long crc) {
            this.out = out;
            this.len = len;
            this.crc = crc;
        }
    }

    private record Check(long member, GzipMembers.Member claim, long trailerCrc, long trailerSize, long end) {}

    @Override
    public boolean trailingGarbageIgnored() {
        return trailingGarbageIgnored;
    }

    @Override
    public void directOutput() {
        direct = true;
    }

    @Override
    public void recycle(ParallelInflate.Decoded chunk) {
        if (freeOutputs.size() < maxAhead) {
            freeOutputs.offer(chunk.out);
        }
    }

    @Override
    public void close() {
        for (Entry e : results) {
            if (e.part != null) {
                e.part.cancel(false);
            }
        }
        results.clear();
        for (Chunk c : chunks) {
            if (c.spec != null) {
                c.spec.cancel(false);
            }
        }
        chunks.clear();
        pool.shutdown();
        for (MarkerInflater m : inflaters.close()) {
            endRest(m);
        }
        if (engine != null) {
            engine.end();
            engine = null;
        }
        state = END;
    }

    /** A one-line account of the speculation, for benchmarks. */
    String stats() {
        return "matched=" + matched + " redecoded=" + redecoded + " firstCandidateFalse=" + firstCandidateFalse
                + " engineFallbacks=" + engineFallbacks + " engineBytes=" + engineBytes + " javaBytes=" + javaBytes;
    }

    @Override
    public ParallelInflate.Decoded next() throws IOException {
        while (true) {
            while (state != END && results.size() < maxAhead) {
                try {
                    step();
                } catch (IOException e) {
                    Entry f = new Entry();
                    f.failure = e;
                    results.add(f);
                    state = END;
                }
            }
            Entry e = results.poll();
            if (e == null) {
                return null;
            }
            if (e.failure != null) {
                close();
                throw e.failure;
            }
            Part p = Workers.await(e.part, "gzip chunk");
            memberCrc = Crc32s.combine(memberCrc, p.crc, p.len);
            memberLength += p.len;
            if (e.check != null) {
                checkMember(e.check, memberCrc, memberLength);
                memberCrc = 0;
                memberLength = 0;
            }
            if (e.garbageIgnored) {
                trailingGarbageIgnored = true;
            }
            if (p.len > 0) {
                return new ParallelInflate.Decoded(null, p.out, p.len, null);
            }
        }
    }

    /** A member's end against its trailer and size subfield, through the pipeline's one owner of those verdicts. */
    private static void checkMember(Check c, long crc, long length) throws ZipException {
        MemberCheck.trailer(c.trailerCrc, c.trailerSize, crc, length, c.member);
        MemberCheck.claimed(c.claim, length, c.end - c.member, c.member);
    }

    // ---- The ordered walk (caller's thread).

    /** Adds at least one entry to {@link #results}, or moves to END. */
    private void step() throws IOException {
        switch (state) {
            case DEFLATE:
                deflateStep();
                break;
            case BETWEEN:
                between();
                break;
            case ENGINE:
                engineStep();
                break;
            default:
                break;
        }
    }

    private void deflateStep() throws IOException {
        Chunk c = chunkAt(pos >>> 3);
        if (c == null) {
            startEngine(); // the input ends at the boundary: the engine says so as the one-thread path does
            return;
        }
        readAhead();
        long rel = pos - (c.start << 3);
        Spec r = null;
        if (!c.specUsed && c.spec != null) {
            c.specUsed = true;
            if (c.task != null && windowLen == MarkerInflater.WINDOW && !c.spec.isDone()) {
                c.task.offer(rel, window.clone()); // it may still be decoding with markers: from now on, bytes
            }
            Spec s = Workers.await(c.spec, "gzip chunk");
            c.settled = true;
            boolean same = s.status != MarkerInflater.FAILED && sameStart(c.arr, c.total, s.startBit, rel);
            if (s.firstFalse || !same) {
                firstCandidateFalse++;
            }
            if (same) {
                r = s;
                matched++;
            } else {
                recycleSymbols(s);
            }
        }
        if (r == null) {
            redecoded++;
            r = decode(c, rel, windowLen == 0);
        }
        if (r.status == MarkerInflater.FAILED || r.minMarker < MarkerInflater.WINDOW - windowLen) {
            recycleSymbols(r);
            startEngine();
            return;
        }
        Entry e = new Entry();
        int javaEnd = r.engineFrom >= 0 ? r.engineFrom : r.length;
        javaBytes += javaEnd;
        engineBytes += r.length - javaEnd;
        byte[] w = r.markerEnd > 0 ? window.clone() : null;
        slide(r, w); // before the worker's Finish gives the symbols back for reuse
        e.part = pool.submit(new Finish(r, w));
        results.add(e);
        lastBytes = e;
        if (checkpoints != null) {
            checkpoints.stretch(c.start << 3, r.ends, r.status == MarkerInflater.MEMBER_END ? r.blocks - 1 : r.blocks,
                    r.length);
        }
        if (r.status == MarkerInflater.MEMBER_END) {
            state = BETWEEN;
            trailerAt = c.start + ((r.endBit + 7) >>> 3);
        } else {
            pos = (c.start << 3) + r.endBit;
        }
    }

    /**
     * The window after a decoded stretch: the last 32 KiB of the window and the stretch's bytes (those already
     * decoded as bytes read from there: the worker's {@link Finish} writes only the stretch's symbols before them).
     */
    private void slide(Spec r, byte[] w) {
        int n = r.length;
        int keep = Math.min(MarkerInflater.WINDOW, n);
        int old = MarkerInflater.WINDOW - keep;
        System.arraycopy(window, keep, window, 0, old);
        int from = n - keep;
        int symbols = Math.max(0, r.split - from);
        if (w != null) {
            MarkerInflater.resolve(r.out, from, from + symbols, w, window, old);
        } else {
            MarkerInflater.narrow(r.out, from, from + symbols, window, old);
        }
        System.arraycopy(r.bytes, from + symbols, window, old + symbols, keep - symbols);
        windowLen = (int) Math.min(MarkerInflater.WINDOW, (long) windowLen + n);
    }

    /**
     * True if decoding from bit {@code found} gives what decoding from {@code truth} gives: the same bit, or two
     * non-final stored-block headers whose data starts at the same byte (the padding between them is skipped).
     */
    private static boolean sameStart(byte[] arr, int total, long found, long truth) {
        if (found == truth) {
            return true;
        }
        // Empty non-final fixed-Huffman blocks (10 bits: header 010, end-of-block 0000000), which pigz writes
        // before its flushes, decode to nothing: the block after them is the same start.
        while (truth < found && truth + 10 <= ((long) total << 3) && bits10(arr, truth) == 2) {
            truth += 10;
        }
        if (found == truth) {
            return true;
        }
        if (found < 0 || truth < 0 || truth + 3 > ((long) total << 3)) {
            return false;
        }
        return storedHeader(arr, found) && storedHeader(arr, truth) && (found + 10) >>> 3 == (truth + 10) >>> 3;
    }

    private static int bits10(byte[] arr, long bit) {
        int at = (int) (bit >>> 3);
        int v = (arr[at] & 0xff) | (arr[at + 1] & 0xff) << 8 | (arr[at + 2] & 0xff) << 16;
        return (v >>> (bit & 7)) & 0x3ff;
    }

    private static boolean storedHeader(byte[] arr, long bit) {
        int v = ((arr[(int) (bit >>> 3)] & 0xff) | (arr[(int) (bit >>> 3) + 1] & 0xff) << 8) >>> (bit & 7);
        return (v & 7) == 0;
    }

    /**
     * Decodes chunk {@code c} from a known start, on the caller's thread; {@code memberStart}: no byte of the member
     * before it.
     */
    private Spec decode(Chunk c, long rel, boolean memberStart) {
        MarkerInflater m = inflater();
        try {
            Spec s = new Spec();
            if (windowLen == MarkerInflater.WINDOW) {
                m.windowSource = () -> window; // read during the decode only, on this thread, before slide()
            }
            run(m, s, c, rel, memberStart);
            return s;
        } finally {
            m.windowSource = null;
            release(m);
        }
    }

    private MarkerInflater inflater() {
        MarkerInflater m = inflaters.poll();
        if (m == null) {
            m = new MarkerInflater();
            m.ends = checkpoints != null ? new long[256] : null;
            // The index build needs every block end, which the engine does not report: the Java decoder's only.
            if (checkpoints == null && engineRest) {
                Boolean n = nativeRest;
                if (n == null) {
                    nativeRest = n = GzipEngines.nativeInflater();
                }
                m.rest = n ? new EngineRest(GzipEngines.inflater()) : null;
            }
        }
        return m;
    }

    /** Gives a decoder back for the next decode, or frees its engine once this reader is closed. */
    private void release(MarkerInflater m) {
        if (!inflaters.offer(m)) {
            endRest(m);
        }
    }

    private static void endRest(MarkerInflater m) {
        if (m.rest != null) {
            m.rest.end();
            m.rest = null;
        }
    }

    /**
     * Decodes {@code c} from {@code rel} with {@code m} into {@code s}; true unless it failed. {@code memberStart}:
     * the start is known to have no byte of its member before it (no markers then: a distance before it fails).
     */
    private boolean run(MarkerInflater m, Spec s, Chunk c, long rel, boolean memberStart) {
        // Arrays as large as the largest seen so far, so that the decoder seldom grows (copies) one.
        int symbols = Math.max(1 << 16, symbolsSeen);
        char[] out = freeSymbols.poll();
        m.out = out != null && out.length >= symbols ? out
                : new char[(int) Math.min((long) hardCap + MarkerInflater.SLACK, symbols + (symbols >> 2))];
        m.bytes = bytes(Math.max(Math.min(hardCap, 4 * c.len + 65536), lengthSeen));
        int status = m.decode(c.arr, c.total, rel, (long) c.len << 3, memberStart, softCap, hardCap);
        s.startBit = rel;
        s.status = status;
        s.endBit = m.endBit;
        s.out = m.out;
        s.bytes = m.bytes;
        if (status != MarkerInflater.FAILED) {
            symbolsSeen = Math.max(symbolsSeen, m.n); // a race may lose a maximum: only a hint
            lengthSeen = Math.max(lengthSeen, m.length + MarkerInflater.SLACK);
        }
        s.split = m.split;
        s.length = m.length;
        if (m.rest != null && status != MarkerInflater.FAILED) {
            s.engineFrom = m.rest.from;
            s.engineCrc = m.rest.crc;
        }
        s.markerEnd = m.markerEnd;
        s.minMarker = m.minMarker;
        if (m.ends != null) {
            s.ends = java.util.Arrays.copyOf(m.ends, 2 * m.blocks);
            s.blocks = m.blocks;
        }
        m.out = null;
        m.bytes = null;
        if (status == MarkerInflater.FAILED) {
            recycleSymbols(s);
            return false;
        }
        return true;
    }

    private void recycleSymbols(Spec s) {
        if (s.out != null && freeSymbols.size() < 2 * maxAhead) {
            freeSymbols.offer(s.out);
        }
        if (s.bytes != null && freeBytes.size() < 2 * maxAhead) {
            freeBytes.offer(s.bytes);
        }
        s.out = null;
        s.bytes = null;
    }

    /**
     * A chunk's decode on a worker: from its known start, or speculative, candidates from its first bit until one
     * decodes.
     */
    private final class Speculate implements Callable<Spec>, java.util.function.Supplier<byte[]> {
        private final Chunk c;
        /** The known start (bit of the chunk's array), or -1 to search. */
        private final long known;
        /** The known start is its member's first bit or has no byte of the member before it. */
        private final boolean memberStart;

        /** The start the decode runs from (bit of the chunk's array), once it runs from one; else -1. */
        private volatile long decodingFrom = -1;
        /** From the walk: the true start (bit of the chunk's array) and the 32 KiB window before it, or null. */
        private volatile long truthBit;
        private volatile byte[] truthWindow;
        /** Whether {@link #truthWindow} was judged for the current start: null not yet; else the verdict. */
        private byte[] accepted;
        private boolean judged;

        Speculate(Chunk c, long known, boolean memberStart) {
            this.c = c;
            this.known = known;
            this.memberStart = memberStart;
        }

        /** The walk's word: the chunk's true start is {@code bit} and the window before it is {@code w}. */
        void offer(long bit, byte[] w) {
            truthBit = bit;
            truthWindow = w; // after truthBit: a reader that sees the window sees its bit
        }

        /**
         * For the decoder, at its block ends: the window, once the walk gave it and the start decoded from is the
         * walk's (then the walk takes this decode as it is, its markers already resolved).
         */
        @Override
        public byte[] get() {
            if (judged) {
                return accepted;
            }
            byte[] w = truthWindow;
            if (w == null) {
                return null;
            }
            judged = true;
            accepted = sameStart(c.arr, c.total, decodingFrom, truthBit) ? w : null;
            return accepted;
        }

        @Override
        public Spec call() {
            MarkerInflater m = inflater();
            Spec s = new Spec();
            try {
                if (known >= 0) {
                    decodingFrom = known;
                    m.windowSource = this;
                    run(m, s, c, known, memberStart);
                    m.windowSource = null;
                    return s;
                }
                long stop = (long) c.len << 3;
                for (long from = 0; from < stop; ) {
                    long bit = BlockFinder.next(m, c.arr, c.total, from, stop);
                    if (bit < 0) {
                        break;
                    }
                    decodingFrom = bit;
                    judged = false;
                    accepted = null;
                    m.windowSource = this;
                    boolean ok = run(m, s, c, bit, false);
                    m.windowSource = null;
                    if (ok) {
                        return s;
                    }
                    s.firstFalse = true;
                    from = bit + 1;
                }
                s.status = MarkerInflater.FAILED;
                return s;
            } finally {
                release(m);
            }
        }
    }

    /**
     * Completes a decoded stretch's bytes (its symbols before the byte phase: markers resolved from the window) and
     * computes its CRC32, on a worker.
     */
    private final class Finish implements Callable<Part> {
        private final char[] symbols;
        private final byte[] bytes;
        private final int split;
        private final int length;
        private final int markerEnd;
        private final byte[] window;
        private final int engineFrom;
        private final long engineCrc;

        Finish(Spec r, byte[] window) {
            this.symbols = r.out;
            this.bytes = r.bytes;
            this.split = r.split;
            this.length = r.length;
            this.markerEnd = r.markerEnd;
            this.window = window;
            this.engineFrom = r.engineCrc >= 0 ? r.engineFrom : -1;
            this.engineCrc = r.engineCrc;
        }

        @Override
        public Part call() {
            MarkerInflater.complete(symbols, split, markerEnd, window, bytes);
            if (freeSymbols.size() < 2 * maxAhead) {
                freeSymbols.offer(symbols);
            }
            return engineFrom >= 0 ? part(bytes, length, engineFrom, engineCrc) : part(bytes, length);
        }
    }

    /**
     * An array of at least {@code n} bytes for decoded bytes: one given back (as an array, or as a heap buffer the
     * caller recycled), or a new one a quarter larger, so that the next results (whose lengths vary) fit it.
     */
    private byte[] bytes(int n) {
        for (byte[] b; (b = freeBytes.poll()) != null; ) {
            if (b.length >= n) {
                return b;
            }
        }
        for (ByteBuffer b; (b = freeOutputs.poll()) != null; ) {
            if (!b.isDirect() && b.capacity() >= n) {
                return b.array();
            }
            if (b.isDirect()) {
                freeOutputs.offer(b); // for output(): one pass over the free buffers at most
                break;
            }
        }
        return new byte[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(1 << 16, n + (n >> 2)))];
    }

    /** Decoded bytes {@code b[0..n)} as a result: their CRC32, in a direct buffer once the output wants one. */
    private Part part(byte[] b, int n) {
        return part(b, n, n, 0);
    }

    /**
     * {@link #part(byte[], int)} where the CRC32 of {@code b[from..n)} is known already ({@code tailCrc}, from the
     * engine that decoded them: ISA-L's, computed while the bytes were in cache), so that only {@code b[0..from)} is
     * read again.
     */
    private Part part(byte[] b, int n, int from, long tailCrc) {
        CRC32 crc = new CRC32();
        crc.update(b, 0, from);
        long value = Crc32s.combine(crc.getValue(), tailCrc, n - from);
        ByteBuffer out;
        if (direct) {
            out = output(n, true);
            out.put(b, 0, n).clear();
            if (freeBytes.size() < 2 * maxAhead) {
                freeBytes.offer(b);
            }
        } else {
            out = ByteBuffer.wrap(b);
        }
        return new Part(out, n, value);
    }

    private ByteBuffer output(int n, boolean d) {
        for (ByteBuffer b; (b = freeOutputs.poll()) != null; ) {
            if (b.capacity() >= n && b.isDirect() == d) {
                return b.clear();
            }
            if (!b.isDirect() && freeBytes.size() < 2 * maxAhead) {
                freeBytes.offer(b.array());
            }
        }
        // A quarter to spare, as bytes() does: results' lengths vary, and a buffer one byte short is a new one (on a
        // guest where page faults are dear, new memory for every chunk cost more system time than the decoding).
        int size = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(1 << 16, n + (n >> 2)));
        return d ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
    }

    // ---- The input.

    /**
     * The chunk holding offset {@code at}, with the next chunk's bytes after its own; chunks before it are dropped.
     * Null if the input ends before {@code at}.
     */
    private Chunk chunkAt(long at) throws IOException {
        while (!chunks.isEmpty() && chunks.peekFirst().start + chunks.peekFirst().len <= at) {
            Chunk d = chunks.pollFirst();
            if ((d.spec == null || d.settled) && engine == null && freeInputs.size() < maxAhead) {
                freeInputs.add(d.arr); // nothing reads it now: the engine, once started, may hold any chunk's array
            }
            if (d.spec != null && !d.specUsed) {
                d.spec.cancel(false);
                if (d.spec.isDone() && !d.spec.isCancelled()) {
                    try {
                        recycleSymbols(d.spec.get());
                    } catch (InterruptedException | ExecutionException ignored) {
                        // a cancelled or failed guess: nothing to give back
                    }
                }
            }
        }
        while (chunks.isEmpty() || chunks.peekLast().start + chunks.peekLast().len <= at) {
            if (readChunk() == null) {
                return null;
            }
        }
        Chunk c = null;
        for (Chunk k : chunks) {
            if (k.start <= at && at < k.start + k.len) {
                c = k;
                break;
            }
        }
        if (c == null) {
            throw new IllegalStateException("offset " + at + " before the chunks held: " + chunks.peekFirst().start
                    + " state " + state);
        }
        complete(c);
        return c;
    }

    /** Makes sure {@code c} holds the next chunk's bytes (reading it if needed). */
    private void complete(Chunk c) throws IOException {
        if (!c.complete && chunks.peekLast() == c) {
            readChunk();
        }
    }

    /** Reads chunks and submits their speculative decodes until {@link #maxAhead} are held. */
    private void readAhead() throws IOException {
        while (chunks.size() < maxAhead && !eof) {
            if (readChunk() == null) {
                break;
            }
        }
    }

    /**
     * Reads the next chunk; the chunk before it gets a copy of its bytes and, now complete, its speculative decode.
     * Null at the end of the input.
     */
    private Chunk readChunk() throws IOException {
        byte[] arr = freeInputs.poll();
        if (arr == null) {
            arr = new byte[2 * chunkSize + 16];
        }
        int got = read(arr, 0, chunkSize);
        Chunk prev = chunks.peekLast();
        if (got <= 0) {
            if (prev != null && !prev.complete) {
                prev.complete = true;
                submit(prev);
            }
            return null;
        }
        Chunk c = new Chunk(readOffset - got, arr, got);
        if (prev != null && !prev.complete) {
            System.arraycopy(arr, 0, prev.arr, prev.len, got);
            prev.total = prev.len + got;
            prev.complete = true;
            submit(prev);
        }
        chunks.add(c);
        if (got < chunkSize) {
            eof = true;
            c.complete = true;
            submit(c);
        }
        return c;
    }

    /**
     * Starts a chunk's decode on a worker: from the true start where the walk is in it, else a speculative one; none
     * while the engine runs (it reads those chunks itself) or for chunks the walk has passed.
     */
    private void submit(Chunk c) {
        if (c.spec != null || state == ENGINE || state == END) {
            return;
        }
        long at = state == DEFLATE ? pos >>> 3 : trailerAt;
        if (state == DEFLATE && c.start <= at && at < c.start + c.len) {
            long rel = pos - (c.start << 3);
            Speculate t = new Speculate(c, rel, windowLen == 0);
            if (windowLen == MarkerInflater.WINDOW) {
                t.offer(rel, window.clone());
            }
            c.spec = pool.submit(t);
        } else if (at < c.start) {
            c.task = new Speculate(c, -1, false);
            c.spec = pool.submit(c.task);
        }
    }

    /** Reads up to {@code len} bytes, fewer only at the end of the input. */
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
            done += n;
            readOffset += n;
        }
        return done;
    }

    /** The byte at offset {@code at} (at or after the first chunk held), or -1 past the end of the input. */
    private int byteAt(long at) throws IOException {
        Chunk c = chunkAt(at);
        return c == null ? -1 : c.arr[(int) (at - c.start)] & 0xff;
    }

    // ---- Between members, and after the last.

    /** Reads the trailer of the member that ended and the next header, or what follows the last member. */
    private void between() throws IOException {
        long t = trailerAt;
        long crc = 0;
        long size = 0;
        for (int i = 0; i < 8; i++) {
            int b = byteAt(t + i);
            if (b < 0) {
                throw new EOFException("truncated gzip input: end of stream at offset " + (t + i) + " while reading "
                        + (i < 4 ? "the CRC32 trailer" : "the ISIZE trailer") + " of member at offset " + walkMember);
            }
            if (i < 4) {
                crc |= (long) b << (8 * i);
            } else {
                size |= (long) b << (8 * (i - 4));
            }
        }
        lastBytes.check = new Check(walkMember, walkClaim, crc, size, t + 8);
        long h = t + 8;
        int id1 = byteAt(h);
        if (id1 < 0) {
            state = END;
            return;
        }
        if (id1 != 0x1f) {
            trailing(id1 != 0 ? h : -1, h);
            return;
        }
        int id2 = byteAt(h + 1);
        if (id2 < 0) {
            throw new EOFException("truncated gzip input: end of stream at offset " + (h + 1)
                    + " while reading the magic number of member at offset " + h);
        }
        if (id2 != 0x8b) {
            trailing(h, h);
            return;
        }
        HeaderBytes hb = new HeaderBytes(h, id1, id2);
        GzipMembers.Member claim = GzipMembers.readDecoderHeader(hb, h);
        byte[] header = hb.bytes.toByteArray();
        int length = header.length;
        if ((header[3] & GzipHeader.FHCRC) != 0) {
            CRC32 c = new CRC32();
            c.update(header, 0, length - 2);
            int computed = (int) c.getValue() & 0xffff;
            int stored = (int) GzipMembers.le(header, length - 2, 2);
            if (stored != computed) {
                throw new ZipException(String.format("header CRC16 (FHCRC) mismatch: expected 0x%04x (FHCRC field),"
                        + " actual 0x%04x (header bytes) in member at offset %d", stored, computed, h));
            }
        }
        walkMember = h;
        walkClaim = claim;
        if (checkpoints != null) {
            checkpoints.member(h, h + length);
        }
        windowLen = 0;
        pos = (h + length) << 3;
        state = DEFLATE;
    }

    /** The input from {@link #next} on, for {@link GzipMembers#readDecoderHeader}. */
    private final class HeaderBytes implements GzipMembers.Bytes {
        long next;
        /** The header's bytes as read (the walk never reads back: the chunks before it are gone). */
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();

        /** The magic number, read already: the walk never reads back. */
        private final int id1;
        private final int id2;
        private final long start;

        HeaderBytes(long next, int id1, int id2) {
            this.next = next;
            this.start = next;
            this.id1 = id1;
            this.id2 = id2;
        }

        @Override
        public int read() throws IOException {
            int b = next == start ? id1 : next == start + 1 ? id2 : byteAt(next);
            if (b < 0) {
                throw new EOFException("truncated gzip input: end of stream at offset " + next
                        + " inside the header of member at offset " + walkMember);
            }
            next++;
            bytes.write(b);
            return b;
        }
    }

    /** After the last member, from {@code from}: zeros pass; other data is garbage ({@link GzipInputStream}'s rule). */
    private void trailing(long garbageAt, long from) throws IOException {
        long at = garbageAt;
        for (long i = from; at < 0; i++) {
            int b = byteAt(i);
            if (b < 0) {
                break;
            }
            if (b != 0) {
                at = i;
            }
        }
        state = END;
        if (at < 0) {
            return;
        }
        lastBytes.garbageIgnored = MemberCheck.trailingGarbage(at, ignoreTrailingGarbage);
        byte[] skip = new byte[8192];
        while (read(skip, 0, skip.length) > 0) {
            // read the source to its end, as the one-thread path does
        }
        chunks.clear();
    }

    // ---- The engine, for the rest of a member where Java decoding from a true boundary failed.

    private void startEngine() throws IOException {
        engineFallbacks++;
        if (engine == null) {
            engine = GzipEngines.inflater();
        }
        engine.reset();
        if (windowLen > 0) {
            engine.setDictionary(window, MarkerInflater.WINDOW - windowLen, windowLen);
        }
        engineMember = walkMember;
        long at = pos >>> 3;
        Chunk c = chunkAt(at);
        for (Chunk k : chunks) {
            if (k.spec != null && !k.specUsed) {
                k.spec.cancel(false);
                k.specUsed = true;
            }
        }
        state = ENGINE;
        if (c == null) {
            feedEnd = at;
            return; // no input at all: the engine's first step reports the truncation
        }
        int from = (int) (at - c.start);
        int n = c.len - from;
        byte[] primed = new byte[Piece.ROOM + n];
        System.arraycopy(c.arr, from, primed, Piece.ROOM, n);
        int start = BitStarts.prime(primed, Piece.ROOM, (int) (pos & 7));
        engine.setInput(primed, start, Piece.ROOM + n - start);
        feedEnd = c.start + c.len;
    }

    private void engineStep() throws IOException {
        int size = Math.min(chunkSize * 4, 4 << 20);
        byte[] b = bytes(size);
        int n = 0;
        for (int stalls = 0; n < size; ) {
            int k;
            try {
                k = engine.inflate(b, n, size - n);
            } catch (DataFormatException e) {
                throw new ZipException("invalid deflate data in member at offset " + engineMember + " (input offset "
                        + (feedEnd - engine.remaining()) + "): " + e.getMessage());
            }
            n += k;
            if (engine.finished()) {
                trailerAt = feedEnd - engine.remaining();
                state = BETWEEN;
                break;
            }
            if (k > 0) {
                stalls = 0;
            } else if (engine.needsInput()) {
                Chunk c = chunkAt(feedEnd);
                if (c == null) {
                    throw new EOFException("truncated gzip input: end of stream at offset " + feedEnd
                            + " inside the deflate data of member at offset " + engineMember);
                }
                int from = (int) (feedEnd - c.start);
                engine.setInput(c.arr, from, c.len - from);
                feedEnd = c.start + c.len;
            } else if (++stalls > 2) {
                throw new ZipException("deflate decoder made no progress at input offset "
                        + (feedEnd - engine.remaining()) + " in member at offset " + engineMember);
            }
        }
        Entry e = new Entry();
        e.part = CompletableFuture.completedFuture(part(b, n));
        results.add(e);
        lastBytes = e;
        if (checkpoints != null) {
            checkpoints.stretch(0, null, 0, n);
        }
    }
}
