package dev.sluice.gzip;

import dev.sluice.internal.Checks;
import dev.sluice.internal.Defaults;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.ZipException;

/**
 * Reads gzip data (RFC 1952) strictly: every member's CRC32 and ISIZE are checked, concatenated members are read as
 * one stream as {@code gzip -d} does, and nothing after the last member passes silently.
 *
 * <ul>
 *   <li><b>Buffered:</b> yes, on both sides: it reads its source in chunks of up to {@link #DEFAULT_BUFFER_SIZE}
 *       bytes (so do not put a {@code BufferedInputStream} under it), serves reads shorter than 256 KiB from a
 *       buffer of decoded bytes of up to 256 KiB, and decodes longer reads straight into the caller's array. Both
 *       buffers start small (4 and 16 KiB) and grow while they fill, so a small stream costs about what the JDK's
 *       does. Large inflate calls are what make it faster than {@link java.util.zip.GZIPInputStream}
 *       (docs/benchmarks/gzip.md).</li>
 *   <li><b>Headers:</b> FTEXT, FEXTRA, FNAME, FCOMMENT, MTIME, XFL and OS are exposed by {@link #header()} for the
 *       current member; FHCRC is verified when present.</li>
 *   <li><b>Bad input:</b> corrupt data (bad magic, method, reserved flags, header CRC, deflate data, CRC32, ISIZE) is a
 *       {@link ZipException} naming the field, the expected and actual values and the member's offset in the
 *       compressed stream, and so is a size subfield (BGZF's {@code BC}, Sluice's {@code SL}) that the member does
 *       not match, on one thread as on many; input that ends early is an {@link EOFException} with the offset. After the last member,
 *       zero bytes are ignored as gzip ignores them; anything else is a {@link ZipException} unless the stream was
 *       built with {@link Builder#ignoreTrailingGarbage}. Because of that check the stream reads its source to the
 *       end. An optional {@linkplain Builder#maxOutputBytes output limit} stops a decompression bomb with an
 *       {@link IOException}. After any exception every further read throws.</li>
 *   <li><b>One verdict per input, with one exception:</b> every engine, thread count and read style refuses the
 *       same inputs with the same exception type, except for a deflate block whose Huffman code is incomplete (its
 *       code lengths do not fill the code space; RFC 1951 forbids it, zlib refuses it unless it is a single code of
 *       length 1): the JDK's zlib (Java 17-21, or {@code -Dsluice.gzip.native=off}) refuses it, as gzip does; ISA-L
 *       (Java 22+, see {@link GzipEngines}) decodes it, correctly, when the data never uses a missing code, and
 *       refuses it when it does. Encoders have no reason to write such codes. Refusing them on ISA-L too needs each block's code
 *       lengths, and ISA-L does not stop at block boundaries: a second, pure-Java pass that finds them
 *       ({@code GzipIndexScanner}) costs more than ISA-L's whole decode (docs/benchmarks/gzip.md), so the rule is
 *       stated instead. Over-subscribed codes are refused everywhere.</li>
 *   <li><b>Threads:</b> members with a size subfield (Sluice's {@code SL}, BGZF) are decoded on worker threads
 *       ({@link Builder#threads}) once the stream's output reaches 256 KiB ({@code -Dsluice.gzip.parallelAfter=}:
 *       a small file never starts a thread); any gzip is, given its index ({@link Builder#index}). Then the source
 *       is read ahead on a thread of its own too, and the caller's thread only copies decoded bytes out (or not
 *       even that, in {@link #transferTo} to a file); {@link #stats()} (with {@link Builder#stats}) shows its
 *       share of the CPU. {@code -Dsluice.gzip.strategy=serial} decodes everything on the caller's thread.</li>
 *   <li><b>mark/reset:</b> not supported. {@link #available()} returns 0 (unknown) before the end.</li>
 *   <li><b>Thread safety:</b> none; use one stream from one thread at a time.</li>
 *   <li><b>Closing:</b> {@link #close()} closes the source and frees the native decoder; closing twice is safe. A
 *       stream dropped without {@code close()} gets its native memory back when the garbage collector finds it, as
 *       the JDK's {@code Inflater} does; its source stays open.</li>
 * </ul>
 */
public final class GzipInputStream extends InputStream {

    /**
     * Input buffer size: 64 KiB, overridable with {@code -Dsluice.gzip.inputBufferSize=}. Chosen by
     * {@code GzipInputBench.bufferSweep} (docs/benchmarks/gzip.md): on JDK 17 and the JDK-source tar it used 9% less
     * CPU than 512 B and 4% less than 8 KiB; 1 MiB was within noise of it.
     */
    public static final int DEFAULT_BUFFER_SIZE = Defaults.intProperty("sluice.gzip.inputBufferSize", 64 * 1024);

    /**
     * Reads shorter than this are served from an output buffer of this size that is refilled by one inflate call;
     * longer reads are inflated straight into the caller's array. 256 KiB, overridable with
     * {@code -Dsluice.gzip.outputChunk=}: zlib does per-call work (the slow path near the end of the output, copying
     * the output into its window), so large output slices are cheaper. {@code GzipInputBench} on JDK 17: a raw
     * Inflater used 20% less CPU writing 256 KiB per call than 8 KiB, and GzipInputStream read with 8 KiB arrays
     * used 13% more CPU than with 256 KiB arrays before this buffer existed (docs/benchmarks/gzip.md).
     */
    static final int OUTPUT_CHUNK = Defaults.intProperty("sluice.gzip.outputChunk", 256 * 1024);

    /** The output buffer's first size; it doubles up to {@link #OUTPUT_CHUNK} while decodes fill it. */
    static final int FIRST_OUTPUT_CHUNK = 16 * 1024;

    /** The input buffer's first size; it grows fourfold up to the buffer size while reads fill it. */
    static final int FIRST_INPUT_CHUNK = 4 * 1024;

    /** The longest FNAME or FCOMMENT accepted: longer ones are rejected as corrupt rather than risking memory. */
    static final int MAX_HEADER_STRING = 1 << 20;

    private static final int START = 0;
    private static final int BOUNDARY = 1;
    private static final int DATA = 2;
    private static final int END = 3;
    /** Taking decoded chunks from a {@link ChunkSource} (a strategy on worker threads); see {@link #strategy}. */
    private static final int CHUNKS = 4;

    /**
     * The decoding strategy, from {@code -Dsluice.gzip.strategy=}: {@code auto} (the default: index pieces when the
     * stream has an index, independent members on workers where they have a size subfield, else, with at least
     * {@link #SPECULATIVE_MIN_THREADS} threads and a heap that holds its chunks ({@link SpeculativeReader#fits}),
     * speculative chunks, and one thread below that), {@code serial} (every
     * member on the caller's thread, whatever the threads) or {@code speculative} (any gzip without an index on
     * workers, {@link SpeculativeReader}, with two threads or more). Read once; an unknown value is an
     * IllegalArgumentException when a stream is made.
     */
    static final String STRATEGY = System.getProperty("sluice.gzip.strategy", "auto");

    /**
     * The threads from which {@code auto} decodes a gzip with neither an index nor size subfields speculatively:
     * 8, overridable with {@code -Dsluice.gzip.speculativeMinThreads=}. Measured on 2 cores (docs/benchmarks/gzip.md,
     * issue 32's section): the speculative pipeline decodes about 185 MB/s of output per core against one-thread
     * ISA-L's 520 MB/s and zlib's 335 MB/s, so it cannot pay on 2 cores with ISA-L (3.3-3.6 s against 1.8-1.9 s
     * for the 1.1 GB file); from those rates it breaks even at about 4 cores and is clearly ahead from 6. 8 leaves
     * a margin for what was not measured on more cores (the ordered resolver's share, memory bandwidth). Those runs
     * read {@code 2 × threads + 2} chunks ahead; with {@link SpeculativeReader#ahead}'s {@code threads + 1}
     * (2026-11-29, a faster 2-core guest) two threads take 1.09-1.18 s against one thread's 0.89-1.04 s: still
     * behind on 2 cores, and the break-even is owed a many-core measurement.
     */
    static final int SPECULATIVE_MIN_THREADS = Defaults.intProperty("sluice.gzip.speculativeMinThreads", 8);

    /**
     * Whether a strategy on workers reads the source through {@link Prefetch} (a reader thread), so that the caller's
     * thread does not spend its time in the source's reads: {@code -Dsluice.gzip.prefetch=}, default true.
     */
    static final boolean PREFETCH = Boolean.parseBoolean(System.getProperty("sluice.gzip.prefetch", "true"));

    /**
     * Threads that decode independent members (Sluice's {@code SL} subfield, BGZF): the number of available
     * processors, overridable with {@code -Dsluice.gzip.inflateThreads=}; 1 decodes every member on the caller's
     * thread.
     */
    public static final int DEFAULT_THREADS = Defaults.intProperty("sluice.gzip.inflateThreads",
            Runtime.getRuntime().availableProcessors());

    /**
     * The largest member (compressed or not) decoded on a worker; larger ones are decoded on the caller's thread as
     * any member is, so that a worker never holds more than this in each direction. 64 MiB: the largest block
     * {@link ParallelGzipOutputStream} writes.
     */
    static final long MAX_PARALLEL_MEMBER = 64L << 20;

    /**
     * Independent members go to workers only once the stream has shown it is worth them: when the bytes it has
     * returned plus what the next member claims (its uncompressed size, or for BGZF its compressed length) reach
     * this, or when its workers already exist; until then they are decoded on the caller's thread. 256 KiB,
     * overridable with {@code -Dsluice.gzip.parallelAfter=} (0: workers from the first member). Why: making the
     * workers (a pool, its threads, the read-ahead thread, the hand-over, the shutdown at close) cost a small stream
     * 0.7-1.5 ms on 2 cores, where the JDK decodes a 1,000-byte BGZF file in 9 us (SmallGzipBench.sluiceBgzf against
     * sluiceBgzfWorkers, docs/benchmarks/gzip.md, 2026-11-28 19:50 UTC); that is what ISA-L decodes in 150-400 KB.
     * Waiting until a stream has cost about as much on one thread as the workers would cost bounds the loss either
     * way: a small file never starts a thread, a large one decodes at most its first 256 KiB (or first member) on
     * one thread, about half a millisecond.
     */
    static final int PARALLEL_AFTER = Defaults.intProperty("sluice.gzip.parallelAfter", 0, 256 * 1024);

    /** The source; a {@link Prefetch} around it once a strategy on workers reads it. */
    private InputStream in;
    /**
     * The decoder of the members decoded on this thread; null until the first such member (a stream whose members
     * all go to workers never makes one: its native memory and, in a JVM's first stream, the native engine's binding
     * were the caller's work before the first submission), and null again once a strategy took over for good.
     */
    private InflateEngine engine;
    private final boolean ignoreTrailingGarbage;
    private final long maxOutputBytes;
    private final int threads;
    /** Where decoding can start, from the index the stream was built with; null without one (or when not used). */
    private EntryPoints entryPoints;
    /** The strategy ({@link #STRATEGY} or the builder's). */
    private String strategy;
    /** In CHUNKS: the strategy the chunks come from. */
    private ChunkSource source;
    /** The workers of the independent-members strategy, made at the first such member and kept for later ones. */
    private ParallelInflate members;
    /** True once a strategy decoded on workers (for {@link #stats()}: the threads that worked). */
    private boolean usedWorkers;
    /** Output bytes per piece with an index ({@link PieceReader#PIECE_SIZE}; tests make it small). */
    private long pieceSize = PieceReader.PIECE_SIZE;
    /** Compressed bytes per speculative chunk ({@link SpeculativeReader#CHUNK}; tests make it small). */
    private int speculativeChunk = SpeculativeReader.CHUNK;
    /**
     * Null, or an index build's walk: the speculative strategy then decodes from the first member on, tells it the
     * block ends it confirms, and every byte returned to the caller goes through its {@link GzipIndexWalk#read}.
     */
    private GzipIndexWalk walk;
    /** Whether strategies on workers read the source through {@link Prefetch} ({@link #PREFETCH}, or the builder's). */
    private boolean prefetch = PREFETCH;
    /** {@link #PARALLEL_AFTER}, or the builder's (tests: 0, so that small inputs reach the workers). */
    private long parallelAfter = PARALLEL_AFTER;
    /** True once {@link #transferTo} writes to a channel: the workers then decode into direct buffers. */
    private boolean directOutput;
    /**
     * What the size subfield (SL or BC) of the member whose header was read last claims, or null if it has none:
     * checked at its end when it is decoded here, as the workers check it, so one thread refuses what two do.
     */
    private GzipMembers.Member claimed;
    /** In CHUNKS: the chunk being returned, {@code current.out[currentPos..current.len)} not yet returned. */
    private ParallelInflate.Decoded current;
    private int currentPos;
    private final CRC32 crc = new CRC32();
    /** True when {@link #engine} computes the members' CRC32 as it decodes, and {@link #crc} stays unused. */
    private boolean engineCrc;
    private final CRC32 headerCrc = new CRC32();
    /**
     * Compressed input; {@code buf[pos..lim)} is not yet consumed, and in DATA it is what the engine holds. It starts
     * at {@link #FIRST_INPUT_CHUNK} and grows to {@link #bufferLimit} while reads fill it, so that a small stream does
     * not pay for zeroing 64 KiB.
     */
    private byte[] buf;
    private final int bufferLimit;
    private int pos;
    private int lim;
    /** Offset in the compressed stream of {@code buf[0]}. */
    private long bufStart;
    /**
     * Bytes of the previous fill kept in front of the next one: a decoder with a bit buffer (ISA-L holds up to 8
     * bytes) may have loaded the bytes after a member's deflate data before the last refill, and hands them back
     * through {@link InflateEngine#remaining()}, which then reaches back into this tail.
     */
    static final int KEEP = 16;
    private long memberStart;
    private long memberOut;
    private long totalOut;
    private int state = START;
    private GzipHeader header;
    private boolean trailingGarbageIgnored;
    private IOException failure;
    private boolean closed;
    private byte[] scratch;
    /** With {@link Builder#stats}: the span's meter, the source's byte count and the figures at the end; else null. */
    private GzipStats.Meter meter;
    private Counted counted;
    private GzipStats finalStats;
    /** Decoded bytes not yet returned: {@code out[outPos..outLim)}; allocated on the first short read. */
    private byte[] out;
    private int outPos;
    private int outLim;
    /** Bytes decoded into the engine's memory by {@code decode(null, ...)}, for transferTo to write; else null. */
    private ByteBuffer view;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    /** Reads {@code in} with the default settings: strict about trailing data, no output limit. */
    public GzipInputStream(InputStream in) {
        this(Checks.notNull(in, "in"), DEFAULT_BUFFER_SIZE, false, Long.MAX_VALUE, null, DEFAULT_THREADS, null);
    }

    GzipInputStream(InputStream in, int bufferSize, boolean ignoreTrailingGarbage, long maxOutputBytes,
            InflateEngine engine, int threads) {
        this(in, bufferSize, ignoreTrailingGarbage, maxOutputBytes, engine, threads, null);
    }

    GzipInputStream(InputStream in, int bufferSize, boolean ignoreTrailingGarbage, long maxOutputBytes,
            InflateEngine engine, int threads, EntryPoints entryPoints) {
        this.in = in;
        this.threads = threads;
        this.entryPoints = threads > 1 && entryPoints != null && PieceReader.usable(entryPoints) ? entryPoints : null;
        this.bufferLimit = KEEP + bufferSize;
        this.buf = new byte[KEEP + Math.min(bufferSize, FIRST_INPUT_CHUNK)];
        this.ignoreTrailingGarbage = ignoreTrailingGarbage;
        this.maxOutputBytes = maxOutputBytes;
        if (engine == null) {
            GzipEngines.checkInflater();
        }
        this.engine = engine;
        this.engineCrc = engine != null && engine.computesCrc();
        this.strategy = checkStrategy(STRATEGY);
    }

    static String checkStrategy(String s) {
        Checks.argument(s.equals("auto") || s.equals("serial") || s.equals("speculative"),
                "sluice.gzip.strategy must be auto, serial or speculative: %s", s);
        return s;
    }

    /** A builder for a stream with a non-default buffer size, trailing-data policy or output limit. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public int read() throws IOException {
        byte[] one = scratch(1);
        int n;
        do {
            n = read(one, 0, 1);
        } while (n == 0);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    /**
     * Reads up to {@code len} decompressed bytes, blocking until at least one is available or the last member has
     * ended and been checked; returns -1 at the end.
     */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        Checks.checkRange(Checks.notNull(b, "b").length, off, len);
        if (len == 0) {
            return 0;
        }
        started();
        if (failure != null) {
            throw new IOException("gzip stream failed earlier: " + failure.getMessage(), failure);
        }
        try {
            long allowed = maxOutputBytes - totalOut;
            if (allowed == 0) {
                return probe();
            }
            if (outPos == outLim) {
                if (len >= OUTPUT_CHUNK || state == CHUNKS) {
                    // Long enough to make the inflate call efficient: decode straight into the caller's array.
                    // (Workers' output is copied from their arrays at any length: one copy, never two.)
                    return deliver(b, off, decode(b, off, (int) Math.min(len, allowed)));
                }
                if (out == null) {
                    // Small first: a small stream would spend more time zeroing 256 KiB than decoding itself.
                    out = new byte[Math.min(FIRST_OUTPUT_CHUNK, OUTPUT_CHUNK)];
                } else if (outLim == out.length && out.length < OUTPUT_CHUNK) {
                    out = new byte[Math.min(2 * out.length, OUTPUT_CHUNK)]; // the last decode filled it: grow
                }
                int n = decode(out, 0, out.length);
                if (n < 0) {
                    return deliver(-1);
                }
                outPos = 0;
                outLim = n;
            }
            int n = (int) Math.min(Math.min(len, outLim - outPos), allowed);
            System.arraycopy(out, outPos, b, off, n);
            outPos += n;
            return deliver(b, off, n);
        } catch (IOException | RuntimeException e) {
            failed(e);
            throw e;
        }
    }

    /** {@link #deliver(int)} of the bytes {@code b[off..off+n)}, which an index build's walk sees first. */
    private int deliver(byte[] b, int off, int n) {
        if (walk != null && n > 0) {
            walk.read(b, off, n);
        }
        return deliver(n);
    }

    /** Counts {@code n} bytes returned to the caller (or passes -1 through, ending {@link #stats()}' span). */
    private int deliver(int n) {
        if (n > 0) {
            totalOut += n;
        } else if (n < 0) {
            if (walk != null) {
                walk.end();
            }
            ended();
        }
        return n;
    }

    /** At the first read: starts {@link #stats()}' span. */
    private void started() {
        if (meter != null && !meter.started()) {
            meter.start();
        }
    }

    /** At the end of the data: ends {@link #stats()}' span (the first end counts). */
    private void ended() {
        if (meter != null && finalStats == null && meter.started()) {
            finalStats = meter.stop(usedWorkers ? threads : 1, counted.count, totalOut);
        }
    }

    /**
     * The run's figures ({@link GzipStats}): wall and CPU time from the first read to the end of the data (to now, if
     * the end has not been read), the caller's thread's CPU time in that span, the threads that decoded (the workers
     * when a parallel strategy ran, else 1), compressed bytes read and decompressed bytes returned. The caller's
     * thread is the one that read: call this on it (or after the end). Needs a stream built with
     * {@link Builder#stats}.
     *
     * @throws IllegalStateException if the stream was not built to keep stats, or nothing was read yet
     */
    public GzipStats stats() {
        if (meter == null || !meter.started()) {
            throw new IllegalStateException(meter == null ? "stats not kept: build the stream with stats(true)"
                    : "nothing read yet");
        }
        return finalStats != null ? finalStats : meter.stop(usedWorkers ? threads : 1, counted.count, totalOut);
    }

    /** At the output limit: -1 if the data ends exactly there, else the limit's exception. */
    private int probe() throws IOException {
        if (outPos < outLim || decode(new byte[1], 0, 1) >= 0) {
            throw new IOException("gzip output exceeds the limit of " + maxOutputBytes + " bytes (member at offset "
                    + memberStart + ")");
        }
        return -1;
    }

    /**
     * Decodes everything left into {@code out}, with the checks {@link #read} makes, and returns the number of bytes
     * written; does not close or flush {@code out}. Faster than {@code read} into an array of one's own: members
     * decoded by workers are written from the workers' arrays, and others in 256 KiB slices. When {@code out} is a
     * plain {@link FileOutputStream} (not a subclass, whose {@code write} this would bypass) and the decoder is
     * native, those slices go through its channel straight from the decoder's memory, never copied into an array.
     */
    @Override
    public long transferTo(OutputStream out) throws IOException {
        ensureOpen();
        Checks.notNull(out, "out");
        started();
        // An index build's walk sees every byte through read(): no direct writes then.
        FileChannel file = out.getClass() == FileOutputStream.class && walk == null
                ? ((FileOutputStream) out).getChannel() : null;
        FileChannel channel = null; // once this thread's decoder is known: a native one's memory is written as it is
        if (file != null) {
            directOutput = true;
            if (source != null) {
                source.directOutput();
            }
        }
        long total = 0;
        while (true) {
            boolean more = outPos == outLim && failure == null && totalOut < maxOutputBytes;
            if (state == CHUNKS && more && walk == null) {
                try {
                    if (current == null || currentPos == current.len) {
                        nextChunk();
                        continue;
                    }
                } catch (IOException | RuntimeException e) {
                    failed(e);
                    throw e;
                }
                int n = (int) Math.min(current.len - currentPos, maxOutputBytes - totalOut);
                ByteBuffer o = current.out;
                if (file != null && o.isDirect()) {
                    // As it is, never copied (the workers decode into direct buffers once this method runs).
                    o.limit(currentPos + n).position(currentPos);
                    while (o.hasRemaining()) {
                        file.write(o);
                    }
                } else if (o.hasArray()) {
                    out.write(o.array(), o.arrayOffset() + currentPos, n);
                } else {
                    byte[] chunk = scratch(OUTPUT_CHUNK);
                    n = Math.min(n, chunk.length);
                    o.get(currentPos, chunk, 0, n);
                    out.write(chunk, 0, n);
                }
                currentPos += n;
                totalOut += n;
                total += n;
                continue;
            }
            if (channel == null && file != null && engine != null && engine.hasViews()) {
                channel = file;
            }
            if (channel != null && more) {
                int n;
                try {
                    n = decode(null, 0, (int) Math.min(OUTPUT_CHUNK, maxOutputBytes - totalOut));
                } catch (IOException | RuntimeException e) {
                    failed(e);
                    throw e;
                }
                if (n < 0) {
                    ended();
                    return total;
                }
                while (view.hasRemaining()) { // n == 0: the workers took over, and the branch above runs next
                    channel.write(view);
                }
                view = null;
                totalOut += n;
                total += n;
                continue;
            }
            byte[] chunk = scratch(OUTPUT_CHUNK);
            int n = read(chunk, 0, chunk.length);
            if (n < 0) {
                ended();
                return total;
            }
            out.write(chunk, 0, n);
            total += n;
        }
    }

    /** Remembers the stream's failure, after which every read throws. */
    private void failed(Exception e) {
        failure = e instanceof IOException ? (IOException) e : new IOException(e);
    }

    /** Skips by decoding (every skipped byte is still checked); returns the number skipped, 0 if {@code n <= 0}. */
    @Override
    public long skip(long n) throws IOException {
        ensureOpen();
        if (n <= 0) {
            return 0;
        }
        long left = n;
        byte[] s = scratch(8192);
        while (left > 0) {
            int r = read(s, 0, (int) Math.min(s.length, left));
            if (r < 0) {
                break;
            }
            left -= r;
        }
        return n - left;
    }

    /** Returns the number of bytes decoded but not yet read (0 when unknown: a deflate stream's yield is). */
    @Override
    public int available() throws IOException {
        ensureOpen();
        return outLim - outPos + (current == null ? 0 : current.len - currentPos);
    }

    /**
     * The header of the member being read (after the end: of the last member), reading it first if no byte has been
     * read yet. Throws as {@link #read} does when the header is missing or corrupt.
     */
    public GzipHeader header() throws IOException {
        ensureOpen();
        if (state == START && failure == null) {
            try {
                if (readHeader(true)) {
                    beginMember();
                }
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }
        return header;
    }

    /** True if the stream ended with non-zero trailing data that {@link Builder#ignoreTrailingGarbage} let pass. */
    public boolean trailingGarbageIgnored() {
        return trailingGarbageIgnored;
    }

    /** Closes the source and frees the decoder's native memory. Safe to call more than once. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (source != null) {
                source.close();
            }
            if (members != null) {
                members.close();
            }
            endEngine();
        } finally {
            in.close();
        }
    }

    /** Frees this thread's decoder, if it has one; a member decoded here later gets a new one. */
    private void endEngine() {
        if (engine != null) {
            engine.end();
            engine = null;
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw Checks.streamClosed();
        }
    }

    private byte[] scratch(int size) {
        if (scratch == null || scratch.length < size) {
            scratch = new byte[Math.max(size, 8192)];
        }
        return scratch;
    }

    /**
     * The state machine: members one after another until the end; returns -1 at the end, else a positive count. With
     * {@code b} null the bytes are left in the decoder's memory, in {@link #view}, and 0 says the workers took over.
     */
    private int decode(byte[] b, int off, int len) throws IOException {
        while (true) {
            switch (state) {
                case START:
                case BOUNDARY:
                    if (!readHeader(state == START)) {
                        state = END;
                        return -1;
                    }
                    beginMember();
                    break;
                case CHUNKS:
                    if (b == null) {
                        view = EMPTY;
                        return 0;
                    }
                    int p = chunkRead(b, off, len);
                    if (p != 0) {
                        return p;
                    }
                    break; // the workers are drained, and state says what comes next
                case DATA:
                    int n = inflate(b, off, len);
                    if (n > 0) {
                        return n;
                    }
                    state = BOUNDARY;
                    break;
                default:
                    return -1;
            }
        }
    }

    /**
     * Decodes into b (when null: into the decoder's memory, left in {@link #view}); returns 0 after the member's
     * trailer was read and checked.
     */
    private int inflate(byte[] b, int off, int len) throws IOException {
        int stalls = 0;
        while (true) {
            int n;
            try {
                if (b != null) {
                    n = engine.inflate(b, off, len);
                } else {
                    view = engine.inflateView(len);
                    n = view.remaining();
                }
            } catch (DataFormatException e) {
                throw new ZipException("invalid deflate data in member at offset " + memberStart + " (input offset "
                        + offset() + "): " + e.getMessage());
            }
            int before = pos;
            pos = lim - engine.remaining();
            if (n > 0) {
                if (engineCrc) {
                    // the engine's CRC32 (ISA-L's, computed as it decoded): no pass here
                } else if (b != null) {
                    crc.update(b, off, n);
                } else {
                    crc.update(view);
                    view.rewind(); // a view starts at 0
                }
                memberOut += n;
                return n;
            }
            if (engine.finished()) {
                readTrailer();
                return 0;
            }
            if (engine.needsInput()) {
                if (!fill()) {
                        throw MemberCheck.truncatedData(offset(), memberStart);
                }
                engine.setInput(buf, pos, lim - pos);
            } else if (pos == before && ++stalls > 2) {
                // zlib always consumes input or produces output when it has both; never spin if it does not.
                throw new ZipException("deflate decoder made no progress at input offset " + offset()
                        + " in member at offset " + memberStart);
            }
        }
    }

    /** Offset in the compressed stream of the next unconsumed byte. */
    private long offset() {
        return bufStart + pos;
    }

    /** Makes {@code buf[pos..lim)} non-empty if the source has more; false at its end. */
    private boolean fill() throws IOException {
        if (pos < lim) {
            return true;
        }
        int keep = Math.min(KEEP, lim);
        byte[] next = buf;
        if (lim == buf.length && buf.length < bufferLimit) {
            // The last read filled it: the source has more than small-stream amounts, so grow towards the full size.
            // (At least a first chunk: an array a strategy handed back may be smaller than KEEP.)
            next = new byte[(int) Math.min(Math.max(KEEP + FIRST_INPUT_CHUNK, KEEP + 4L * (buf.length - KEEP)),
                    bufferLimit)];
        }
        System.arraycopy(buf, lim - keep, next, 0, keep);
        buf = next;
        bufStart += lim - keep;
        pos = keep;
        lim = keep;
        for (int zeros = 0; ; ) {
            int n = in.read(buf, keep, buf.length - keep);
            if (n > 0) {
                lim = keep + n;
                return true;
            }
            if (n < 0) {
                return false;
            }
            if (++zeros > 1000) {
                throw new IOException("source returned 0 bytes 1000 times in a row at offset " + bufStart);
            }
        }
    }

    private int readByte(String what) throws IOException {
        if (!fill()) {
            throw MemberCheck.truncated(offset(), what, memberStart);
        }
        return buf[pos++] & 0xff;
    }

    /** Reads a header byte and adds it to the header CRC. */
    private int headerByte(String what) throws IOException {
        int b = readByte(what);
        headerCrc.update(b);
        return b;
    }

    private int headerShort(String what) throws IOException {
        return headerByte(what) | headerByte(what) << 8;
    }

    /**
     * Reads and checks a member header. Returns false at a clean end: no more input after a member, or only
     * trailing zeros (or, if allowed, garbage).
     */
    private boolean readHeader(boolean first) throws IOException {
        memberStart = offset();
        if (!fill()) {
            if (first) {
                throw new EOFException("truncated gzip input: empty stream, no gzip header at offset 0");
            }
            return false;
        }
        if (!first && buf[pos] != 0x1f) {
            skipTrailing(buf[pos] != 0 ? memberStart : -1);
            return false;
        }
        headerCrc.reset();
        int id1 = headerByte("the magic number");
        if (!first && !fill()) {
            throw new EOFException("truncated gzip input: end of stream at offset " + offset()
                    + " while reading the magic number of member at offset " + memberStart);
        }
        if (!first && buf[pos] != (byte) 0x8b) {
            skipTrailing(memberStart);
            return false;
        }
        int id2 = headerByte("the magic number");
        if (id1 != 0x1f || id2 != 0x8b) {
            throw new ZipException(String.format(
                    "not in gzip format: magic expected 0x1f8b, actual 0x%02x%02x at offset %d", id1, id2,
                    memberStart));
        }
        int cm = headerByte("CM");
        if (cm != 8) {
            throw new ZipException("unsupported compression method CM: expected 8 (deflate), actual " + cm
                    + " in member at offset " + memberStart);
        }
        int flg = headerByte("FLG");
        if ((flg & GzipHeader.RESERVED_FLAGS) != 0) {
            throw new ZipException(String.format("reserved FLG bits set: expected 0, actual 0x%02x in member at offset"
                    + " %d", flg & GzipHeader.RESERVED_FLAGS, memberStart));
        }
        long mtime = headerShort("MTIME") | (long) headerShort("MTIME") << 16;
        int xfl = headerByte("XFL");
        int os = headerByte("OS");
        byte[] extra = null;
        if ((flg & GzipHeader.FEXTRA) != 0) {
            extra = new byte[headerShort("XLEN")];
            for (int i = 0; i < extra.length; i++) {
                extra[i] = (byte) headerByte("FEXTRA");
            }
        }
        String name = (flg & GzipHeader.FNAME) != 0 ? headerString("FNAME") : null;
        String comment = (flg & GzipHeader.FCOMMENT) != 0 ? headerString("FCOMMENT") : null;
        boolean hasCrc = (flg & GzipHeader.FHCRC) != 0;
        if (hasCrc) {
            int computed = (int) headerCrc.getValue() & 0xffff;
            int stored = readByte("FHCRC") | readByte("FHCRC") << 8;
            if (stored != computed) {
                throw new ZipException(String.format("header CRC16 (FHCRC) mismatch: expected 0x%04x (FHCRC field),"
                        + " actual 0x%04x (header bytes) in member at offset %d", stored, computed, memberStart));
            }
        }
        header = new GzipHeader((flg & GzipHeader.FTEXT) != 0, hasCrc, mtime, xfl, os, extra, name, comment);
        claimed = extra == null ? null : GzipMembers.member(memberStart, (int) (offset() - memberStart), extra);
        crc.reset();
        memberOut = 0;
        return true;
    }

    /**
     * After a member's header: decode it here (DATA), or hand the input from its deflate data on to a strategy
     * (CHUNKS) when {@link #strategy()} picks one.
     */
    private void beginMember() throws IOException {
        ChunkSource s = strategy();
        if (s == null) {
            if (engine == null) {
                engine = GzipEngines.inflater();
                engineCrc = engine.computesCrc();
            }
            engine.reset();
            engine.setInput(buf, pos, lim - pos);
            state = DATA;
            return;
        }
        source = s;
        usedWorkers = true;
        pos = lim; // the strategy has those bytes now
        if (directOutput) {
            s.directOutput();
        }
        state = CHUNKS;
    }

    /**
     * The one place a decoding strategy is chosen and constructed, after a member's header (the input at its deflate
     * data): null to decode the member on this thread. Every strategy takes the same arguments: its workers, the
     * source, the bytes read ahead ({@code buf[pos..lim)}, {@code buf[0]} at {@code bufStart}), the member's size
     * subfield claim and the trailing-data policy (see {@link ChunkSource}).
     */
    private ChunkSource strategy() throws IOException {
        if (walk != null && memberStart == 0) {
            return speculative();
        }
        if (threads == 1 || strategy.equals("serial")) {
            return null;
        }
        boolean toWorkers = decodesOnWorker(claimed) && (members != null || worthWorkers(claimed));
        if (entryPoints != null || toWorkers) {
            prefetch();
        }
        if (entryPoints != null) {
            EntryPoints ep = entryPoints;
            entryPoints = null;
            PieceReader r = new PieceReader(ep, new ParallelInflate(threads, PieceReader.maxInFlight(threads)), in,
                    buf, pos, lim, bufStart, claimed, ignoreTrailingGarbage, pieceSize);
            endEngine(); // never used again: its native memory goes back to the pool now, for a worker's decoder
            return r;
        }
        if (toWorkers) {
            if (members == null) {
                members = new ParallelInflate(threads);
            }
            return new MemberReader(members, in, buf, pos, lim, bufStart, claimed, header);
        }
        if (decodesOnWorker(claimed)) {
            return null; // a small stream so far: this member on this thread (PARALLEL_AFTER)
        }
        if (memberStart == 0 && (strategy.equals("speculative")
                || strategy.equals("auto") && threads >= SPECULATIVE_MIN_THREADS
                        && SpeculativeReader.fits(speculativeChunk, Runtime.getRuntime().maxMemory()))) {
            return speculative();
        }
        return null;
    }

    private SpeculativeReader speculative() {
        prefetch();
        SpeculativeReader r = new SpeculativeReader(threads, in, buf, pos, lim, bufStart, claimed,
                ignoreTrailingGarbage, speculativeChunk);
        if (walk != null) {
            r.checkpoints(walk);
        }
        endEngine(); // the reader decodes with engines of its own from here on
        return r;
    }

    /** From now on the source is read ahead on a thread of its own ({@link #PREFETCH}); once per stream. */
    private void prefetch() {
        if (prefetch && !(in instanceof Prefetch)) {
            in = new Prefetch(in);
        }
    }

    /**
     * True if this stream's output so far and what the independent member {@code m} claims reach
     * {@link #parallelAfter}, so that the member pays for making the workers ({@link #PARALLEL_AFTER}).
     */
    private boolean worthWorkers(GzipMembers.Member m) {
        long claims = m.uncompressedSize() >= 0 ? m.uncompressedSize() : m.totalLength();
        return totalOut + claims >= parallelAfter;
    }

    /** True if the member {@code m} claims (null: none) can be decoded on a worker: independent and small enough. */
    static boolean decodesOnWorker(GzipMembers.Member m) {
        return m != null && m.totalLength() <= MAX_PARALLEL_MEMBER && m.uncompressedSize() <= MAX_PARALLEL_MEMBER;
    }

    /**
     * CHUNKS: copies decoded bytes of the current chunk; at its end takes the next. Returns 0 when the strategy is
     * drained and {@link #state} has moved on (BOUNDARY where it handed the input back, END after the last member).
     */
    private int chunkRead(byte[] b, int off, int len) throws IOException {
        while (current == null || currentPos == current.len) {
            if (!nextChunk()) {
                return 0;
            }
        }
        int n = Math.min(len, current.len - currentPos);
        current.out.get(currentPos, b, off, n);
        currentPos += n;
        return n;
    }

    /**
     * CHUNKS, at the end of the current chunk: gives it back and takes the next. False when the strategy is drained
     * and {@link #state} has moved on: to BOUNDARY with the input it handed back, or to END.
     */
    private boolean nextChunk() throws IOException {
        if (current != null) {
            source.recycle(current);
            current = null;
        }
        ParallelInflate.Decoded d = source.next();
        if (d == null) {
            ChunkSource.Rest rest = source.rest();
            if (rest == null) {
                trailingGarbageIgnored = source.trailingGarbageIgnored();
                state = END;
            } else {
                buf = rest.buf;
                pos = rest.pos;
                lim = rest.lim;
                bufStart = rest.bufStart;
                state = BOUNDARY;
            }
            source = null;
            return false;
        }
        if (d.header != null) {
            header = d.header; // header() reports the member being returned
        }
        current = d;
        currentPos = 0;
        return true;
    }

    private String headerString(String what) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c; (c = headerByte(what)) != 0; ) {
            if (sb.length() == MAX_HEADER_STRING) {
                throw new ZipException(what + " longer than " + MAX_HEADER_STRING + " bytes in member at offset "
                        + memberStart);
            }
            sb.append((char) c);
        }
        return sb.toString(); // one char per byte: ISO-8859-1, as RFC 1952 specifies
    }

    private void readTrailer() throws IOException {
        long expectedCrc = readByte("the CRC32 trailer") | readByte("the CRC32 trailer") << 8
                | readByte("the CRC32 trailer") << 16 | (long) readByte("the CRC32 trailer") << 24;
        long expectedSize = readByte("the ISIZE trailer") | readByte("the ISIZE trailer") << 8
                | readByte("the ISIZE trailer") << 16 | (long) readByte("the ISIZE trailer") << 24;
        MemberCheck.trailer(expectedCrc, expectedSize, engineCrc ? engine.crc() : crc.getValue(), memberOut,
                memberStart);
        if (claimed != null) {
            skipClaimed(claimed);
            MemberCheck.claimed(claimed, memberOut, offset() - memberStart, memberStart);
        }
    }

    /**
     * For a member decoded here that is shorter than its size subfield says: reads up to where the subfield says it
     * ends, so that the verdict is the one the workers give (where the claimed length is read before decoding): an
     * {@link EOFException} when the input ends first, else the length's {@link ZipException}.
     */
    private void skipClaimed(GzipMembers.Member m) throws IOException {
        long length = offset() - memberStart;
        if (length >= m.totalLength() || m.totalLength() > MAX_PARALLEL_MEMBER
                || !m.bgzf() && memberOut != m.uncompressedSize()) {
            return;
        }
        for (long skip = m.totalLength() - length; skip > 0; ) {
            if (!fill()) {
                throw MemberCheck.truncated(offset(), m, memberStart);
            }
            int n = (int) Math.min(skip, lim - pos);
            pos += n;
            skip -= n;
        }
        MemberCheck.claimed(m, memberOut, length, memberStart); // the length it has: a ZipException
    }

    /**
     * Consumes what follows the last member: zeros pass (gzip ignores them too); other data is
     * {@link MemberCheck#trailingGarbage}'s verdict. {@code garbageAt} is the offset of garbage already seen, or -1.
     */
    private void skipTrailing(long garbageAt) throws IOException {
        long at = garbageAt;
        while (at < 0 && fill()) {
            int i = MemberCheck.firstNonZero(buf, pos, lim);
            pos = i < 0 ? lim : i;
            if (i >= 0) {
                at = offset();
            }
        }
        if (at < 0) {
            return;
        }
        trailingGarbageIgnored = MemberCheck.trailingGarbage(at, ignoreTrailingGarbage);
        while (fill()) {
            pos = lim;
        }
    }

    /** Settings for a {@link GzipInputStream}; not thread-safe, reusable. */
    public static final class Builder {
        private int bufferSize = DEFAULT_BUFFER_SIZE;
        private boolean ignoreTrailingGarbage;
        private long maxOutputBytes = Long.MAX_VALUE;
        private int threads = DEFAULT_THREADS;
        private EntryPoints entryPoints;
        private long pieceSize = PieceReader.PIECE_SIZE;
        private int speculativeChunk = SpeculativeReader.CHUNK;
        private String strategy = STRATEGY;
        private boolean prefetch = PREFETCH;
        private long parallelAfter = PARALLEL_AFTER;
        private boolean stats;
        private GzipIndexWalk walk;

        private Builder() {}

        /** The decoding strategy, as {@code -Dsluice.gzip.strategy=} names it (tests: each strategy by name). */
        Builder strategy(String name) {
            this.strategy = checkStrategy(name);
            return this;
        }

        /**
         * An index build's walk: the stream decodes speculatively from the first member on, whatever the strategy,
         * threads (one worker at least) and size subfields, tells it what the walk confirms and hands it every byte
         * it returns.
         */
        Builder walk(GzipIndexWalk w) {
            this.walk = w;
            return this;
        }

        /**
         * Records the index of the file this stream reads while it decodes ({@link GzipIndex.Recorder}): the stream
         * decodes speculatively on {@link #threads} workers (at least one, whatever the threads) from the first
         * member on, as {@link GzipIndex#build} does on two processors or more; {@link GzipIndex.Recorder#finish}
         * returns the index after the stream's end. A recorder serves one stream.
         *
         * @throws IllegalStateException if {@code recorder} was given to a builder before
         */
        public Builder record(GzipIndex.Recorder recorder) {
            this.walk = Checks.notNull(recorder, "recorder").attach();
            return this;
        }

        /** Output bytes per piece with an index (tests: tiny pieces). */
        Builder pieceSize(long bytes) {
            this.pieceSize = Checks.positive(bytes, "pieceSize");
            return this;
        }

        /** Whether strategies on workers read the source on a thread of their own (tests: both; {@link #PREFETCH}). */
        Builder prefetch(boolean on) {
            this.prefetch = on;
            return this;
        }

        /**
         * The output after which independent members go to workers ({@link #PARALLEL_AFTER}; tests: 0, so that
         * small inputs reach them).
         */
        Builder parallelAfter(long bytes) {
            this.parallelAfter = Checks.nonNegative(bytes, "parallelAfter");
            return this;
        }

        /** Compressed bytes per speculative chunk (tests: tiny chunks, so that speculation runs on small inputs). */
        Builder speculativeChunk(int bytes) {
            this.speculativeChunk = Checks.positive(bytes, "speculativeChunk");
            return this;
        }

        /**
         * Decodes any gzip (one member, as gzip and pigz write, or many) on {@link #threads} worker threads through
         * {@code index}, the index of the data the stream will read (null: none, the default). The stream still
         * reads its source once, in order, without seeking: it cuts the compressed bytes at the index's checkpoints
         * into pieces of a few MiB of output, each decoded by a worker that starts at its checkpoint with the
         * checkpoint's 32 KiB window, and returns the pieces in order. Every member's CRC32 and ISIZE is still
         * checked (combined from the pieces').
         *
         * <p>An index that does not fit the data (another file's, or one that lies: the compressed size, the
         * CRC32s of the file's first and last 64 KiB that Sluice's index format records, a checkpoint's offsets or
         * window) is a {@link ZipException} naming the offset; no piece's bytes are returned before the checks that
         * cover them passed, so such an index never yields wrong bytes. Input shorter than the index says is such a
         * {@link ZipException} too (a stream cannot tell a truncated file from another file's index); corrupt data
         * is reported as without an index. A worker's exception surfaces, in order, on the caller's next read.
         *
         * <p>With one thread, and for an index whose entry points are more than 64 MiB apart (in or out), the index
         * is not used: the stream decodes as without it. When it is used, {@link GzipInputStream#header()} is the
         * first member's header for the whole stream. Memory: up to max(2 × threads, 8) pieces of about 4 MiB of
         * output and their input. Thread safety: the stream is read by one thread at a time, as without an index;
         * the index is immutable, and any number of streams may share it. Closing the stream mid-way cancels the
         * pieces not started; the workers end once the running ones are done.
         */
        public Builder index(GzipIndex index) {
            this.entryPoints = index == null ? null : index.entryPoints();
            return this;
        }

        /**
         * Threads that decode independent members (1..256; default {@link #DEFAULT_THREADS}); 1 decodes everything
         * on the caller's thread. Ordinary gzip (one member, or members without a size subfield) is decoded on the
         * caller's thread unless the stream has its {@linkplain #index index}; independent members go to workers
         * once the stream's output and the next member's claim reach 256 KiB ({@code -Dsluice.gzip.parallelAfter=}),
         * so that a small file never starts a thread. Memory: with more than one thread,
         * up to max(2 × threads, 8) members (or pieces) are read ahead and held with their decoded bytes (1 MiB
         * each as {@link ParallelGzipOutputStream} writes them; a member over 64 MiB is decoded on the caller's
         * thread instead).
         */
        public Builder threads(int threads) {
            Checks.argument(threads >= 1 && threads <= 256, "threads outside 1..256: %s", threads);
            this.threads = threads;
            return this;
        }

        /** Input buffer size in bytes (positive; default {@link #DEFAULT_BUFFER_SIZE}). */
        public Builder bufferSize(int bytes) {
            this.bufferSize = Checks.positive(bytes, "bufferSize");
            return this;
        }

        /**
         * If true, non-zero data after the last member ends the stream quietly (as gzip does with a warning) and
         * {@link GzipInputStream#trailingGarbageIgnored()} reports it; by default it is a {@link ZipException}.
         */
        public Builder ignoreTrailingGarbage(boolean ignore) {
            this.ignoreTrailingGarbage = ignore;
            return this;
        }

        /**
         * The most decompressed bytes the stream will return (zero or more; default unlimited). One more byte is an
         * {@link IOException} naming the limit, which stops a decompression bomb before it fills memory or disk.
         */
        public Builder maxOutputBytes(long bytes) {
            this.maxOutputBytes = Checks.nonNegative(bytes, "maxOutputBytes");
            return this;
        }

        /**
         * If true, the stream keeps the figures {@link GzipInputStream#stats()} returns (default false: measuring
         * loads {@code java.lang.management}, some milliseconds once per process, and counts the source's bytes).
         */
        public Builder stats(boolean keep) {
            this.stats = keep;
            return this;
        }

        /** A stream reading {@code in} with these settings. */
        public GzipInputStream build(InputStream in) {
            Checks.notNull(in, "in");
            Counted c = stats ? new Counted(in) : null;
            GzipInputStream s = new GzipInputStream(c != null ? c : in, bufferSize, ignoreTrailingGarbage,
                    maxOutputBytes, null, threads, entryPoints);
            if (c != null) {
                s.counted = c;
                s.meter = new GzipStats.Meter();
            }
            s.pieceSize = pieceSize;
            s.speculativeChunk = speculativeChunk;
            s.strategy = strategy;
            s.walk = walk;
            s.prefetch = prefetch;
            s.parallelAfter = parallelAfter;
            return s;
        }
    }

    /** The source, counting the bytes read from it (for {@link #stats()}); closing closes the source. */
    private static final class Counted extends java.io.FilterInputStream {
        long count;

        Counted(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long k = in.skip(n);
            count += Math.max(k, 0);
            return k;
        }
    }
}
