package dev.sluice.gzip;

import dev.sluice.internal.ChannelBacked;
import dev.sluice.internal.Checks;
import dev.sluice.internal.Defaults;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.IntFunction;
import java.util.zip.Deflater;

/**
 * Writes gzip (RFC 1952), readable by gzip, zlib and the JDK, compressing blocks of the input on several threads as
 * pigz does. {@link Builder#format} chooses the layout: one member (the default), independent members that a reader
 * can decode in parallel and split, or BGZF; {@link Format} says what each costs.
 *
 * <p><b>How:</b> the input is cut into blocks of {@link #DEFAULT_BLOCK_SIZE} bytes. Each block is compressed as raw
 * deflate by a worker, primed with the previous 32 KiB of input as its dictionary (so matches reach back across
 * block boundaries and the size stays within about 1% of one thread's), and ended with a SYNC_FLUSH so the pieces
 * concatenate; the last block ends the deflate stream, and is itself cut into pieces for all the workers, so that
 * they finish together. Each worker also computes its block's CRC-32, and the caller combines them with zlib's
 * {@code crc32_combine} arithmetic, so no thread reads the data twice. {@link #transferFrom} reads a source straight
 * into the blocks.
 *
 * <p><b>Threading model:</b> the caller's thread fills blocks, submits them, and writes finished blocks to the
 * underlying stream in order; the underlying stream is only ever touched by the caller's thread. At most
 * {@code 2 x threads} blocks are in flight: a writer that outruns the workers waits for the oldest block, so memory
 * is bounded by about {@code 2 x threads x (blockSize + 32 KiB)} plus their compressed output. Workers are daemon
 * threads of a pool owned by this stream; {@link #close()} shuts the pool down, and idle workers also end on their
 * own after a second, so an abandoned stream leaks no threads. A worker's failure surfaces as an {@link IOException}
 * on the caller's next write, flush or close. Close never waits for more than the blocks already in flight. If the
 * caller's thread is interrupted while it waits for a block, it gets an {@link InterruptedIOException} and the stream
 * is failed (every later call throws; close still cleans up).
 *
 * <ul>
 *   <li><b>Buffered:</b> yes, by whole blocks. <b>flush():</b> compresses the partial block with a SYNC_FLUSH, waits
 *       for all blocks and flushes the underlying stream, so a reader can decode everything written so far.</li>
 *   <li><b>Thread safety:</b> none for the caller; use one stream from one thread at a time.</li>
 *   <li><b>Closing:</b> {@link #close()} finishes the member, stops the workers, frees every compressor's native
 *       memory and closes the underlying stream, even after a failure; closing twice is safe.</li>
 * </ul>
 */
public final class ParallelGzipOutputStream extends OutputStream {

    /**
     * Block size: 1 MiB, overridable with {@code -Dsluice.gzip.blockSize=}. Each block re-primes 32 KiB of
     * dictionary, so small blocks cost CPU: {@code ParallelGzipBench} (JDK 17, level 6, 2 threads, 64 MiB of the
     * JDK-source tar) measured 1.90 s of CPU per 64 MiB with 128 KiB blocks (pigz's default), 1.78 s with 256 KiB
     * and 1.70 s with 1 MiB, against 1.64 s for one thread (docs/benchmarks/gzip.md).
     */
    public static final int DEFAULT_BLOCK_SIZE = Defaults.intProperty("sluice.gzip.blockSize", 1024 * 1024);

    /**
     * The layouts this stream can write. What each costs in size, measured on the gzip benchmarks' corpus (JDK 25's
     * lib/src.zip as a 224,911,360-byte tar; JDK 25's zlib, 2 threads, default block size; docs/benchmarks/gzip.md):
     * <table>
     *   <caption>Output bytes by level and layout</caption>
     *   <tr><th>level</th><th>SINGLE_MEMBER</th><th>INDEPENDENT_MEMBERS</th><th>BGZF</th></tr>
     *   <tr><td>1</td><td>46,405,864</td><td>46,573,265 (+0.36%)</td><td>48,802,740 (+5.2%)</td></tr>
     *   <tr><td>6</td><td>35,766,418</td><td>35,986,999 (+0.62%)</td><td>39,392,786 (+10.1%)</td></tr>
     *   <tr><td>9</td><td>35,202,303</td><td>35,428,415 (+0.64%)</td><td>38,901,171 (+10.5%)</td></tr>
     * </table>
     */
    public enum Format {
        /**
         * One member, blocks joined by sync flushes and primed with the previous 32 KiB (what gzip and pigz write):
         * the smallest output, and the most compatible, but a reader decodes it on one thread from the start.
         */
        SINGLE_MEMBER,
        /**
         * Each block (the builder's block size, 1 MiB by default) its own gzip member with no dictionary, whose header
         * carries Sluice's {@code SL} FEXTRA subfield: the member's total length and uncompressed size, both as u64
         * little-endian. Every gzip reader reads it as concatenated members; {@link GzipInputStream} decodes it on
         * several threads, and {@link GzipMembers} walks it without decoding (splitting, seeking). The first member
         * carries the builder's header (its name, time and extra subfields beside {@code SL}); the others have
         * MTIME 0, OS 255 and no name. Costs the lost matches across block edges plus 36 header bytes per member.
         */
        INDEPENDENT_MEMBERS,
        /**
         * htslib's BGZF, as {@code bgzip} writes it: members of at most 65,280 input bytes, each header carrying the
         * {@code BC} subfield (total member size - 1), and the 28-byte empty member that marks the end of file. The
         * builder's block size and header are ignored (BGZF fixes both: MTIME 0, XFL 0, OS 255, no name). Small
         * blocks cost the most ratio of the three layouts.
         */
        BGZF
    }

    /** The smallest piece {@link #submitLast()} cuts the last block into. */
    private static final int MIN_PIECE = 64 * 1024;

    /** Room before each block's data for the history it may be primed with. */
    private static final int DICTIONARY_SIZE = GzipLayout.DICTIONARY_SIZE;

    private final OutputStream out;
    /** The format's header, trailer, compression and CRC rule. */
    private final GzipLayout layout;
    private final int blockSize;
    private final int maxInFlight;
    private final int threads;
    /** Whether a block has been submitted: the first member carries the user's header. */
    private boolean submittedAny;
    private final ThreadPoolExecutor pool;
    /** Makes compressors; null: the layout's (GzipEngines' choice). Tests inject failing ones. */
    private final IntFunction<DeflateEngine> engineFactory;
    /** Idle compressors. At most one per worker thread is ever created. */
    private final Workers.Idle<DeflateEngine> engines = new Workers.Idle<>();

    /** Blocks submitted and not yet written, oldest first. */
    private final ArrayDeque<Future<Compressed>> inFlight = new ArrayDeque<>();
    private final ArrayDeque<ByteBuffer> freeBlocks = new ArrayDeque<>();
    /**
     * Output arrays of written blocks, for the workers to reuse: a fresh array per block would cost a zeroed
     * {@code blockSize + 1/8} bytes each time (a humongous allocation under G1 at the default 1 MiB block).
     */
    private final ConcurrentLinkedQueue<byte[]> freeOutputs = new ConcurrentLinkedQueue<>();
    /** Output arrays for the layout's compress on the workers. */
    private final IntFunction<byte[]> outputs = new Outputs();
    /**
     * The block being filled, addressed by absolute index (its position and limit serve only a channel's read): the
     * dictionary in {@code block[DICTIONARY_SIZE - dictLen .. DICTIONARY_SIZE)}, data in
     * {@code block[DICTIONARY_SIZE .. DICTIONARY_SIZE + blockLen)}. A heap buffer, until {@link #transferFrom} reads
     * a file's channel: from then on blocks are direct buffers ({@link #direct}).
     */
    private ByteBuffer block;
    /**
     * True once {@link #transferFrom} reads a file's channel: new blocks are then direct buffers, which the kernel
     * fills and a native compressor reads where they are, so the input is never copied in Java (gzip -1 of 1.1 GB
     * 2-6% faster, -6 unchanged: docs/benchmarks/gzip.md, 2026-11-27). Only then, because bytes written from arrays are
     * copied into a block either way, and a direct buffer costs fresh native pages and lives until the garbage
     * collector finds it (a worker may still read a block after {@link #close()}); blocks are recycled within the
     * stream meanwhile.
     */
    private boolean direct;
    /** For {@link #transferFrom} from a stream with no channel behind it into a direct block: reads go through it. */
    private byte[] scratch;
    private int blockLen;
    private int dictLen;
    private long crc;
    private long size;
    private boolean headerWritten;
    private boolean finished;
    private boolean closed;
    private IOException failure;

    /** Compresses at level 6 on as many threads as there are processors. */
    public ParallelGzipOutputStream(OutputStream out) {
        this(builder(), Checks.notNull(out, "out"), null);
    }

    ParallelGzipOutputStream(Builder b, OutputStream out, IntFunction<DeflateEngine> engineFactory) {
        this.out = out;
        this.layout = GzipLayout.of(b.format, b.header, b.level, b.strategy, b.independent);
        this.blockSize = layout.blockSize(b.blockSize);
        this.maxInFlight = 2 * b.threads;
        this.threads = b.threads;
        this.engineFactory = engineFactory;
        this.pool = Workers.pool("sluice-gzip", b.threads);
        this.block = newBlock();
    }

    /** A free block of the kind {@link #direct} asks for, or a new one. */
    private ByteBuffer newBlock() {
        ByteBuffer b = freeBlocks.poll();
        if (b != null && b.isDirect() == direct) {
            return b;
        }
        freeBlocks.clear(); // heap blocks left from before the switch to direct ones
        return direct ? ByteBuffer.allocateDirect(DICTIONARY_SIZE + blockSize)
                : ByteBuffer.allocate(DICTIONARY_SIZE + blockSize);
    }

    /** A builder for a stream with a non-default level, strategy, header, thread count or block size. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void write(int b) throws IOException {
        ensureWritable();
        if (blockLen == blockSize) {
            submit();
        }
        block.put(DICTIONARY_SIZE + blockLen++, (byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        ensureWritable();
        Checks.checkRange(Checks.notNull(b, "b").length, off, len);
        while (len > 0) {
            // A full block is submitted only when more data comes, so that close() can make it the last one.
            if (blockLen == blockSize) {
                submit();
            }
            int n = Math.min(len, blockSize - blockLen);
            block.put(DICTIONARY_SIZE + blockLen, b, off, n);
            blockLen += n;
            off += n;
            len -= n;
        }
    }

    /**
     * Reads {@code in} to its end and compresses everything read. From a plain {@link java.io.FileInputStream} or
     * Sluice's file streams it reads the file's channel straight into this stream's blocks, which the compressors
     * read where they are: no copy of the input in Java; from any other stream into the block's array, one copy less
     * than {@code in.transferTo(this)} (once a file's channel has made the blocks direct, through an array of its
     * own). Does not close {@code in};
     * like {@link #write(byte[], int, int)}, the bytes are compressed as blocks fill, and the member is completed
     * only by {@link #finish()} or {@link #close()}.
     *
     * @return the number of bytes read
     * @throws NullPointerException if {@code in} is null
     * @throws IOException if this stream is closed, finished or failed, if a worker failed, or as thrown by
     *     {@code in}; an exception from {@code in} leaves the bytes read before it in this stream, which stays usable
     */
    public long transferFrom(InputStream in) throws IOException {
        Checks.notNull(in, "in");
        FileChannel channel = ChannelBacked.of(in);
        if (channel != null && !direct && block != null) {
            direct = true;
            if (blockLen == 0 && dictLen == 0) {
                block = newBlock(); // nothing in it yet: the first block is direct too
            }
        }
        long total = 0;
        for (;;) {
            ensureWritable();
            if (blockLen == blockSize) {
                submit();
            }
            int n;
            if (channel != null) {
                n = channel.read(block.limit(DICTIONARY_SIZE + blockSize).position(DICTIONARY_SIZE + blockLen));
            } else if (block.hasArray()) {
                n = in.read(block.array(), block.arrayOffset() + DICTIONARY_SIZE + blockLen, blockSize - blockLen);
            } else {
                if (scratch == null) {
                    scratch = new byte[Math.min(blockSize, 128 * 1024)];
                }
                n = in.read(scratch, 0, Math.min(scratch.length, blockSize - blockLen));
                if (n > 0) {
                    block.put(DICTIONARY_SIZE + blockLen, scratch, 0, n);
                }
            }
            if (n < 0) {
                return total;
            }
            blockLen += n;
            total += n;
        }
    }

    /**
     * Compresses the partial block with a SYNC_FLUSH, writes every block in flight and flushes the underlying
     * stream, so that a reader can decode all data written so far. Costs ratio when called often. After
     * {@link #finish()} it only flushes the underlying stream.
     */
    @Override
    public void flush() throws IOException {
        if (closed) {
            throw Checks.streamClosed();
        }
        checkFailure();
        if (!finished) {
            if (blockLen > 0) {
                submit();
            }
            writeCompleted(0);
        }
        out.flush();
    }

    /** Completes the member (last block and trailer) without closing the underlying stream. Idempotent. */
    public void finish() throws IOException {
        if (closed) {
            throw Checks.streamClosed();
        }
        checkFailure();
        if (finished) {
            return;
        }
        submitLast();
        writeCompleted(0);
        try {
            byte[] epilogue = layout.epilogue(crc, size);
            if (epilogue.length > 0) {
                out.write(epilogue);
            }
        } catch (IOException e) {
            throw fail(e);
        }
        finished = true;
    }

    /**
     * Finishes the member, stops the workers, frees the compressors and closes the underlying stream; the first
     * failure (including an earlier worker failure not yet reported) is thrown after all of that was attempted.
     * Safe to call more than once.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        Throwable first = null;
        try {
            finish();
        } catch (Throwable t) {
            first = t;
        }
        closed = true;
        for (Future<Compressed> f : inFlight) {
            f.cancel(false); // a running block ends within one block's compression time
        }
        inFlight.clear();
        pool.shutdown();
        for (DeflateEngine e : engines.close()) {
            e.end();
        }
        try {
            out.close();
        } catch (Throwable t) {
            if (first == null) {
                first = t;
            } else {
                first.addSuppressed(t);
            }
        }
        GzipOutputStream.rethrow(first);
    }

    private void ensureWritable() throws IOException {
        if (closed) {
            throw Checks.streamClosed();
        }
        checkFailure();
        if (finished) {
            throw new IOException("write beyond end of stream: the gzip member was finished");
        }
    }

    private void checkFailure() throws IOException {
        if (failure != null) {
            throw new IOException("parallel gzip failed earlier: " + failure.getMessage(), failure);
        }
    }

    private IOException fail(IOException e) {
        failure = e;
        return e;
    }

    /**
     * Hands the last block to the workers in up to {@code 4 x threads} pieces of at least {@link #MIN_PIECE} bytes,
     * each primed with the 32 KiB before it, which are in the same array. Whole blocks keep every worker busy until
     * the end of the input; then one worker would compress the last block while the others wait, for up to a block's
     * time (16 ms at 1 MiB, level 6). In pieces, the workers finish within a piece of each other. The pieces share the
     * one array and wait for no earlier block, so memory stays as bounded as before.
     */
    private void submitLast() throws IOException {
        writeHeader();
        ByteBuffer input = block;
        block = null;
        int pieces = Math.max(1, Math.min(4 * threads, blockLen / MIN_PIECE));
        if (!layout.splitsLastBlock() || threads == 1) {
            pieces = 1; // one thread gains nothing
        }
        if (blockLen == 0 && !layout.writesEmptyLastBlock(submittedAny)) {
            return;
        }
        int from = 0;
        for (int i = 1; i <= pieces; i++) {
            int to = (int) ((long) blockLen * i / pieces);
            int off = DICTIONARY_SIZE + from;
            int dict = Math.min(layout.dictionary(), dictLen + from);
            int len = to - from;
            boolean last = i == pieces;
            inFlight.add(pool.submit(new Task(input, off, dict, len, last, false, !submittedAny)));
            submittedAny = true;
            from = to;
        }
    }

    private void writeHeader() throws IOException {
        if (!headerWritten) {
            byte[] prologue = layout.prologue();
            try {
                if (prologue.length > 0) {
                    out.write(prologue);
                }
            } catch (IOException e) {
                throw fail(e);
            }
            headerWritten = true;
        }
    }

    /** Hands the current block to a worker and starts the next one with the last 32 KiB of input as dictionary. */
    private void submit() throws IOException {
        writeHeader();
        writeCompleted(maxInFlight - 1);
        ByteBuffer input = block;
        int len = blockLen;
        int dict = Math.min(layout.dictionary(), dictLen);
        inFlight.add(pool.submit(new Task(input, DICTIONARY_SIZE, dict, len, false, true, !submittedAny)));
        submittedAny = true;
        ByteBuffer next = newBlock();
        // The next dictionary is the last 32 KiB of (this block's dictionary + this block): data and dictionary are
        // contiguous in the block, so one copy moves it (a read, while a worker reads the same bytes). Layouts with
        // no dictionary keep none.
        int keep = Math.min(layout.dictionary(), dict + len);
        next.put(DICTIONARY_SIZE - keep, input, DICTIONARY_SIZE + len - keep, keep);
        block = next;
        dictLen = keep;
        blockLen = 0;
    }

    /**
     * Writes finished blocks in order: all that are done, then waits for the oldest until at most {@code keep}
     * remain in flight.
     */
    private void writeCompleted(int keep) throws IOException {
        while (!inFlight.isEmpty() && (inFlight.size() > keep || inFlight.peek().isDone())) {
            Compressed c;
            try {
                c = inFlight.peek().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                // The member is now incomplete at an unknown block: the stream cannot go on.
                throw fail(new InterruptedIOException("interrupted waiting for a gzip block"));
            } catch (ExecutionException e) {
                throw fail(new IOException("a parallel gzip worker failed: " + e.getCause(), e.getCause()));
            }
            inFlight.poll();
            try {
                out.write(c.out, 0, c.outLen);
            } catch (IOException e) {
                throw fail(e);
            }
            crc = layout.crc(crc, c.crc, c.len);
            size += c.len;
            if (c.input != null && freeBlocks.size() < maxInFlight) {
                freeBlocks.add(c.input);
            }
            if (freeOutputs.size() < maxInFlight) { // written: the array is free again
                freeOutputs.offer(c.out);
            }
        }
    }

    /**
     * One block, or one piece of the last block, for a worker: input[off, off + len), primed with the dictLen bytes
     * before it. A class rather than a lambda, as {@link Workers} explains.
     */
    private final class Task implements Callable<Compressed> {
        private final ByteBuffer input;
        private final int off;
        private final int dictLen;
        private final int len;
        private final boolean last;
        private final boolean recycle;
        private final boolean first;

        Task(ByteBuffer input, int off, int dictLen, int len, boolean last, boolean recycle, boolean first) {
            this.input = input;
            this.off = off;
            this.dictLen = dictLen;
            this.len = len;
            this.last = last;
            this.recycle = recycle;
            this.first = first;
        }

        @Override
        public Compressed call() {
            DeflateEngine engine = borrowEngine();
            try {
                Compressed c = layout.compress(engine, input, off, dictLen, len, last, first, outputs);
                c.input = recycle ? input : null;
                return c;
            } finally {
                returnEngine(engine);
            }
        }
    }

    /**
     * An output array of at least {@code need} bytes for a worker: a written block's, or a new one. A class rather
     * than a method reference, for the reason {@link Workers} gives for tasks.
     */
    private final class Outputs implements IntFunction<byte[]> {
        @Override
        public byte[] apply(int need) {
            byte[] o = freeOutputs.poll();
            return o == null || o.length < need ? new byte[need] : o;
        }
    }

    private DeflateEngine borrowEngine() {
        DeflateEngine e = engines.poll();
        if (e != null) {
            return e;
        }
        if (engineFactory != null) {
            return engineFactory.apply(0);
        }
        return layout.newEngine();
    }

    private void returnEngine(DeflateEngine e) {
        if (!engines.offer(e)) {
            e.end(); // the stream closed while this block ran: nobody else will free it
        }
    }

    /**
     * A compressed block: its input's length and CRC, the bytes to write ({@code out[0, outLen)}), and the input block
     * to recycle (null for the pieces of the last block), which the worker sets before handing it back.
     */
    static final class Compressed {
        ByteBuffer input;
        final int len;
        final long crc;
        final byte[] out;
        final int outLen;

        Compressed(int len, long crc, byte[] out, int outLen) {
            this.len = len;
            this.crc = crc;
            this.out = out;
            this.outLen = outLen;
        }
    }

    /** Settings for a {@link ParallelGzipOutputStream}; not thread-safe, reusable. */
    public static final class Builder {
        private int level = GzipOutputStream.DEFAULT_LEVEL;
        private int strategy = Deflater.DEFAULT_STRATEGY;
        private GzipHeader header = GzipHeader.minimal();
        private int threads = Runtime.getRuntime().availableProcessors();
        private int blockSize = DEFAULT_BLOCK_SIZE;
        private boolean independent;
        private Format format = Format.SINGLE_MEMBER;

        private Builder() {}

        /** The layout of the output; default {@link Format#SINGLE_MEMBER}. */
        public Builder format(Format format) {
            this.format = Checks.notNull(format, "format");
            return this;
        }

        /** Compression level 0 (stored) .. 9 (best); default 6. */
        public Builder level(int level) {
            this.level = GzipFormat.checkLevel(level);
            return this;
        }

        /** {@link Deflater#DEFAULT_STRATEGY}, {@link Deflater#FILTERED} or {@link Deflater#HUFFMAN_ONLY}. */
        public Builder strategy(int strategy) {
            this.strategy = GzipFormat.checkStrategy(strategy);
            return this;
        }

        /** The member's header; default {@link GzipHeader#minimal()}. */
        public Builder header(GzipHeader header) {
            this.header = Checks.notNull(header, "header");
            return this;
        }

        /** Worker threads (1..256); default the number of available processors. */
        public Builder threads(int threads) {
            Checks.argument(threads >= 1 && threads <= 256, "threads outside 1..256: %s", threads);
            this.threads = threads;
            return this;
        }

        /** Uncompressed bytes per block (4 KiB .. 64 MiB); default {@link #DEFAULT_BLOCK_SIZE}. */
        public Builder blockSize(int bytes) {
            Checks.argument(bytes >= 4096 && bytes <= 64 << 20, "blockSize outside 4096..67108864: %s", bytes);
            this.blockSize = bytes;
            return this;
        }

        /**
         * For {@link Format#SINGLE_MEMBER}: if true, blocks get no dictionary (pigz's {@code --independent}), still
         * within one member (the member formats never use one): each block boundary is a point where
         * decoding can restart with an empty history, useful for recovering damaged files, at some cost in size
         * (measure it on your data). Default false.
         */
        public Builder independentBlocks(boolean independent) {
            this.independent = independent;
            return this;
        }

        /** A stream compressing into {@code out} with these settings; starts no thread until the first block. */
        public ParallelGzipOutputStream build(OutputStream out) {
            return new ParallelGzipOutputStream(this, Checks.notNull(out, "out"), null);
        }
    }
}
