package dev.sluice.gzip;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.ZipException;

/**
 * The workers behind {@link GzipInputStream}'s parallel mode: each decodes one whole independent member (its bytes
 * after the header, trailer included) and checks it against what its header's size subfield claimed, its CRC32 and
 * its ISIZE. The caller's thread reads the source, parses headers and hands members over with {@link #submit}, then
 * takes the results in order with {@link #take}; at most {@link #maxInFlight()} members are submitted and not yet
 * taken. Not thread-safe for the caller (one thread); the workers are daemon threads of a pool owned by this object,
 * which also end on their own after a second idle, so an abandoned stream leaks no threads.
 */
final class ParallelInflate {
    /** Deflate's largest expansion (zlib's documented limit, 1032:1): a member claiming more output lies. */
    static final int MAX_RATIO = 1032;

    private final int threads;
    private final int maxInFlight;
    private ThreadPoolExecutor pool;
    private final ArrayDeque<Future<Decoded>> inFlight = new ArrayDeque<>();
    /** Idle decoders. At most one per worker is created. */
    private final Workers.Idle<InflateEngine> engines = new Workers.Idle<>();
    /** Input arrays the workers are done with, for the caller to reuse. */
    final ConcurrentLinkedQueue<byte[]> freeInputs = new ConcurrentLinkedQueue<>();
    /**
     * Arrays for the windows a running piece starts from and ends at ({@link Piece#decode}): at most one per worker,
     * reused, so that decoding a stored window allocates nothing.
     */
    private final ConcurrentLinkedQueue<byte[]> freeWindows = new ConcurrentLinkedQueue<>();
    /** Output buffers the caller is done with, for the workers to reuse. */
    private final ConcurrentLinkedQueue<ByteBuffer> freeOutputs = new ConcurrentLinkedQueue<>();
    /**
     * True once the results go to a channel: workers then decode into direct buffers, which the channel writes as
     * they are, rather than into arrays, which it would first copy into native memory on the caller's thread. Direct
     * buffers are freed by the garbage collector (a worker may still write into one after {@link #close()}, so no
     * one else may free it), and recycled within the stream meanwhile.
     */
    private volatile boolean direct;
    /** See {@link #sizeHints}: 0 until a reader gives them. */
    private volatile int outHint;
    private volatile int inHint;
    /** Output buffers and input arrays made, not taken from the free lists ({@link #arraysMade}). */
    private final AtomicInteger made = new AtomicInteger();

    ParallelInflate(int threads) {
        this(threads, Math.max(2 * threads, MIN_IN_FLIGHT));
    }

    /** Workers that hold at most {@code maxInFlight} results (members or pieces) submitted and not yet taken. */
    ParallelInflate(int threads, int maxInFlight) {
        this.threads = threads;
        this.maxInFlight = maxInFlight;
    }

    /**
     * Members submitted and not yet taken: twice the workers, and at least 8. With few cores the caller's thread
     * competes with the workers for one, and the scheduler can keep it off for a slice of a few milliseconds; 8
     * members of 1 MiB are 4 ms of work for two ISA-L workers, enough to keep them busy meanwhile (on two threads,
     * JMH {@code ParallelGunzipBench.transferTo}: 34.4 ± 1.7 ms with 8 in 3 forks, 37.4 and 39.5 ms in two
     * 2-fork runs with 4).
     */
    int maxInFlight() {
        return maxInFlight;
    }

    static final int MIN_IN_FLIGHT = 8;

    int inFlight() {
        return inFlight.size();
    }

    /**
     * Decodes {@code in[off..off+len)}, the bytes of {@code member} after its header, on a worker; {@code block}, when
     * not null, is the shared input array they lie in, released when the worker is done with them.
     */
    void submit(GzipMembers.Member member, GzipHeader header, byte[] in, int off, int len, Block block) {
        if (pool == null) {
            pool = Workers.pool("sluice-gunzip", threads);
        }
        inFlight.add(pool.submit(new Task(member, header, in, off, len, block)));
    }

    /**
     * Sizes that new output buffers and input arrays are made at least as large as, from here on: the largest result
     * and input a reader expects (an index's pieces), so that a recycled one always fits. One too small would be
     * dropped and a new one made, and each new one is memory the kernel must fault in and zero: 12% of an indexed
     * gunzip's CPU samples on 2 cores, before (issue 31, docs/benchmarks/gzip.md, 2026-11-29).
     */
    void sizeHints(int out, int in) {
        outHint = out;
        inHint = in;
    }

    /** Output buffers and input arrays made so far rather than reused (tests: the free lists do their job). */
    int arraysMade() {
        return made.get();
    }

    /** Decodes {@code piece} on a worker, into an output array of at least {@code outSize} bytes. */
    void submit(Piece piece, int outSize) {
        if (pool == null) {
            pool = Workers.pool("sluice-gunzip", threads);
        }
        inFlight.add(pool.submit(new PieceTask(piece, outSize)));
    }

    /** Queues a failure of the caller's own (a corrupt or truncated header or body), to surface in order. */
    void fail(IOException e) {
        inFlight.add(CompletableFuture.failedFuture(e));
    }

    /**
     * The oldest member's result, waiting for it; null if none is in flight. A worker's exception is rethrown as it
     * was made (ZipException, EOFException), with the member's offset in its message.
     */
    Decoded take() throws IOException {
        Future<Decoded> f = inFlight.poll();
        if (f == null) {
            return null;
        }
        if (BATCH && !f.isDone() && !inFlight.isEmpty()) {
            awaitLater();
        }
        return Workers.await(f, "gzip member");
    }

    /**
     * Whether the caller, finding the oldest result not ready, sleeps until a later one is (the middle one of those in
     * flight), so that it wakes once for several results rather than once for each (a park and its wake-up are
     * system calls on the caller's thread). The workers keep the other half in flight meanwhile. On 2 cores, 1.1 GB
     * (docs/benchmarks/gzip.md, 2026-11-27, issue 31): the indexed decode's caller CPU 62-72 ms against 70-79 ms
     * without, independent members' no change (90-139 against 95-102 ms), wall time within noise; kept for many
     * workers, where the wake-ups multiply. {@code -Dsluice.gzip.batchTake=false} takes each result when ready.
     */
    static final boolean BATCH = Boolean.parseBoolean(System.getProperty("sluice.gzip.batchTake", "true"));

    /** Waits for the middle result in flight (not the oldest, already polled) to be done; its outcome stays queued. */
    private void awaitLater() throws InterruptedIOException {
        int target = inFlight.size() / 2;
        Future<Decoded> later = null;
        for (Future<Decoded> g : inFlight) {
            later = g;
            if (target-- == 0) {
                break;
            }
        }
        try {
            later.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a gzip member");
        } catch (ExecutionException | java.util.concurrent.CancellationException e) {
            // surfaces in order, when that result is taken
        }
    }

    /** Hands a taken result's output array back to the workers. */
    void recycle(Decoded d) {
        if (freeOutputs.size() < maxInFlight()) {
            freeOutputs.offer(d.out);
        }
    }

    /** From now on, decode into direct buffers (see {@link #direct}); results already decoded stay arrays. */
    void directOutput() {
        direct = true;
    }

    /**
     * An output buffer of at least {@code size} bytes, of the kind the results now need: one the caller is done
     * with, or a new one {@code extra} larger than asked, so that the next results (whose lengths vary) fit it.
     */
    private ByteBuffer output(int size, int extra) {
        boolean d = direct;
        for (ByteBuffer b; (b = freeOutputs.poll()) != null; ) {
            if (b.capacity() >= size && b.isDirect() == d) {
                return b.clear();
            }
        }
        int n = (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) size + extra, outHint));
        made.incrementAndGet();
        return d ? ByteBuffer.allocateDirect(n) : ByteBuffer.allocate(n);
    }

    /** A buffer of {@code out}'s kind, about twice as large, holding its first {@code len} bytes. */
    static ByteBuffer grow(ByteBuffer out, int len) {
        int n = (int) Math.min(Integer.MAX_VALUE - 8, 2L * out.capacity() + 1);
        ByteBuffer b = out.isDirect() ? ByteBuffer.allocateDirect(n) : ByteBuffer.allocate(n);
        b.put(out.clear().limit(len));
        return b.clear();
    }

    /** Cancels what is in flight, stops the workers and frees the decoders; safe while workers run, and twice. */
    void close() {
        for (Future<Decoded> f : inFlight) {
            f.cancel(false); // a running member ends within one member's decoding time
        }
        inFlight.clear();
        if (pool != null) {
            pool.shutdown();
        }
        for (InflateEngine e : engines.close()) {
            e.end();
        }
    }

    /**
     * A decoded member (its header) or piece (what it saw of members): {@code out}'s bytes at [0, len), an array's
     * buffer or a direct one (whose position and limit the caller may use).
     */
    static final class Decoded {
        final GzipHeader header;
        final ByteBuffer out;
        final int len;
        /** The piece decoded, or null for a whole member. */
        final Piece piece;

        Decoded(GzipHeader header, ByteBuffer out, int len) {
            this(header, out, len, null);
        }

        Decoded(GzipHeader header, ByteBuffer out, int len, Piece piece) {
            this.header = header;
            this.out = out;
            this.len = len;
            this.piece = piece;
        }
    }

    /** One piece of an indexed file for a worker. */
    private final class PieceTask implements Callable<Decoded> {
        private final Piece piece;
        private final int outSize;

        PieceTask(Piece piece, int outSize) {
            this.piece = piece;
            this.outSize = outSize;
        }

        @Override
        public Decoded call() throws IOException {
            // A quarter more than asked, so that the next pieces (whose lengths vary with the checkpoints) fit it.
            ByteBuffer out = output(outSize, outSize >> 2);
            InflateEngine e = borrowEngine();
            byte[] scratch = freeWindows.poll();
            if (scratch == null) {
                scratch = new byte[InflateEngine.MAX_DICTIONARY];
            }
            try {
                piece.gather(ParallelInflate.this);
                return piece.decode(e, out, scratch);
            } finally {
                returnEngine(e);
                freeWindows.offer(scratch);
            }
        }
    }

    /** One member for a worker. A class rather than a lambda: linking the first lambda costs start-up time. */
    private final class Task implements Callable<Decoded> {
        private final GzipMembers.Member member;
        private final GzipHeader header;
        private final byte[] in;
        private final int off;
        private final int len;
        private final Block block;

        Task(GzipMembers.Member member, GzipHeader header, byte[] in, int off, int len, Block block) {
            this.member = member;
            this.header = header;
            this.in = in;
            this.off = off;
            this.len = len;
            this.block = block;
        }

        @Override
        public Decoded call() throws IOException {
            try {
                return decode(member, header, in, off, len);
            } finally {
                if (block != null) {
                    release(block);
                } else if (freeInputs.size() < maxInFlight()) {
                    freeInputs.offer(in);
                }
            }
        }
    }

    /**
     * An array of compressed input that several members' tasks read from: it goes back to {@link #freeInputs} when
     * the reader that filled it and every task cut from it are done, so the caller's thread reads big blocks straight
     * into it and never copies a member out of it.
     */
    static final class Block {
        final byte[] bytes;
        /** Where the array goes back to: the {@link Prefetch} that filled it, or null ({@link #freeInputs}). */
        private final Prefetch owner;
        private final AtomicInteger users = new AtomicInteger(1);

        Block(byte[] bytes) {
            this(bytes, null);
        }

        Block(byte[] bytes, Prefetch owner) {
            this.bytes = bytes;
            this.owner = owner;
        }

        /** One more task reads from it. */
        void use() {
            users.incrementAndGet();
        }
    }

    /**
     * An input array of at least {@code size} bytes: one the workers are done with (smaller ones are dropped), or a
     * new one. Reuse matters because a new array is zeroed by the thread that asks: per-byte work that recycling
     * saves.
     */
    byte[] input(int size) {
        return input(size, 0);
    }

    /**
     * As {@link #input(int)}, but a new array is {@code extra} bytes larger than asked, so that the next requests
     * (whose sizes vary: index pieces) fit it; any thread.
     */
    byte[] input(int size, int extra) {
        for (byte[] a; (a = freeInputs.poll()) != null; ) {
            if (a.length >= size) {
                return a;
            }
        }
        made.incrementAndGet();
        return new byte[(int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) size + extra, inHint))];
    }

    /** Drops one user of {@code b} (the reader, or a task); the last one frees its array for reuse. */
    void release(Block b) {
        if (b.users.decrementAndGet() != 0) {
            return;
        }
        if (b.owner != null) {
            b.owner.giveBack(b.bytes);
        } else if (freeInputs.size() < maxInFlight()) {
            freeInputs.offer(b.bytes);
        }
    }

    /**
     * Runs on a worker: decodes and checks one member ({@code body[off..off+len)}: its deflate data and trailer),
     * trusting none of the sizes its header or trailer claim; the verdicts are {@link MemberCheck}'s.
     */
    private Decoded decode(GzipMembers.Member m, GzipHeader header, byte[] body, int off, int len)
            throws IOException {
        long expectedCrc = GzipMembers.le(body, off + len - 8, 4);
        long isize = GzipMembers.le(body, off + len - 4, 4);
        long expected = MemberCheck.claimedOutput(m, isize, len);
        // One byte of room beyond the claim, so that a member decoding to more is caught rather than cut.
        int cap = (int) expected + 1;
        ByteBuffer out = output(cap, 0);
        InflateEngine e = borrowEngine();
        // The CRC of each stretch as it is decoded, while it is still in this core's cache: a pass over the whole
        // member afterwards would read it back from memory (a member is larger than L2). An engine that computes it
        // itself (ISA-L) does so as it writes the bytes, and no Java pass is made.
        CRC32 crc = e.computesCrc() ? null : new CRC32();
        long actualCrc;
        int n = 0;
        try {
            e.reset();
            e.setInput(body, off, len);
            for (int stalls = 0; !e.finished(); ) {
                int k;
                try {
                    k = e.inflate(out.limit(cap).position(n));
                } catch (DataFormatException x) {
                    throw new ZipException("invalid deflate data" + MemberCheck.where(m.offset()) + ": "
                            + x.getMessage());
                }
                if (crc != null) {
                    crc.update(out.position(n).limit(n + k));
                }
                n += k;
                if (n > expected) {
                    throw MemberCheck.overrun(m, expected);
                }
                if (k == 0 && !e.finished()) {
                    if (e.needsInput()) {
                        throw MemberCheck.deflateEnd(m, -1);
                    }
                    if (++stalls > 2) {
                        throw new ZipException("deflate decoder made no progress" + MemberCheck.where(m.offset()));
                    }
                }
            }
            if (e.remaining() != 8) {
                throw MemberCheck.deflateEnd(m, m.headerLength() + len - e.remaining() + 8);
            }
            actualCrc = crc != null ? crc.getValue() : e.crc();
        } finally {
            returnEngine(e);
        }
        MemberCheck.trailer(expectedCrc, isize, actualCrc, n, m.offset());
        MemberCheck.claimed(m, n, m.totalLength(), m.offset());
        return new Decoded(header, out, n);
    }

    private InflateEngine borrowEngine() {
        InflateEngine e = engines.poll();
        return e != null ? e : GzipEngines.inflater();
    }

    private void returnEngine(InflateEngine e) {
        if (!engines.offer(e)) {
            e.end(); // the stream closed while this member ran: nobody else will free it
        }
    }
}
