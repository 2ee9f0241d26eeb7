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
 *       ({@link Builder#threads}); any gzip is, given its index ({@link Builder#index}).</li>
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
    /** Decoding independent members on worker threads ({@link ParallelInflate}); see {@link #parallelRead}. */
    private static final int PARALLEL = 4;
    /** Decoding through an index, pieces on worker threads ({@link PieceReader}); results as in PARALLEL. */
    private static final int PIECES = 5;

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

    private final InputStream in;
    private final InflateEngine engine;
    private final boolean ignoreTrailingGarbage;
    private final long maxOutputBytes;
    private final int threads;
    /** Where decoding can start, from the index the stream was built with; null without one (or when not used). */
    private EntryPoints entryPoints;
    /** In PIECES: the pieces' reader. */
    private PieceReader pieces;
    /** Output bytes per piece with an index ({@link PieceReader#PIECE_SIZE}; tests make it small). */
    private long pieceSize = PieceReader.PIECE_SIZE;
    /** True once {@link #transferTo} writes to a channel: the workers then decode into direct buffers. */
    private boolean directOutput;
    /** The workers, made at the first independent member; null before. */
    private ParallelInflate parallel;
    /** The sizes of the member whose header was read last, when it is decoded on a worker; else null. */
    private GzipMembers.Member indexed;
    /**
     * What the size subfield (SL or BC) of the member whose header was read last claims, or null if it has none:
     * checked at its end when it is decoded here, as the workers check it, so one thread refuses what two do.
     */
    private GzipMembers.Member claimed;
    /** In PARALLEL: the member being returned, {@code current.out[currentPos..current.len)} not yet returned. */
    private ParallelInflate.Decoded current;
    private int currentPos;
    /** In PARALLEL: no more members to submit; then {@link #sequentialNext} says what comes after the last. */
    private boolean readAheadDone;
    /** In PARALLEL: the header of an ordinary member after the independent ones was read; decode it in DATA. */
    private GzipHeader sequentialNext;
    private final CRC32 crc = new CRC32();
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
    /** Decoded bytes not yet returned: {@code out[outPos..outLim)}; allocated on the first short read. */
    private byte[] out;
    private int outPos;
    private int outLim;
    /** Bytes decoded into the engine's memory by {@code decode(null, ...)}, for transferTo to write; else null. */
    private ByteBuffer view;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    /** Reads {@code in} with the default settings: strict about trailing data, no output limit. */
    public GzipInputStream(InputStream in) {
        this(Checks.notNull(in, "in"), DEFAULT_BUFFER_SIZE, false, Long.MAX_VALUE, GzipEngines.inflater(),
                DEFAULT_THREADS, null);
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
        this.engine = engine;
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
        if (failure != null) {
            throw new IOException("gzip stream failed earlier: " + failure.getMessage(), failure);
        }
        try {
            long allowed = maxOutputBytes - totalOut;
            if (allowed == 0) {
                return probe();
            }
            if (outPos == outLim) {
                if (len >= OUTPUT_CHUNK || state == PARALLEL || state == PIECES) {
                    // Long enough to make the inflate call efficient: decode straight into the caller's array.
                    // (Workers' output is copied from their arrays at any length: one copy, never two.)
                    return deliver(decode(b, off, (int) Math.min(len, allowed)));
                }
                if (out == null) {
                    // Small first: a small stream would spend more time zeroing 256 KiB than decoding itself.
                    out = new byte[Math.min(FIRST_OUTPUT_CHUNK, OUTPUT_CHUNK)];
                } else if (outLim == out.length && out.length < OUTPUT_CHUNK) {
                    out = new byte[Math.min(2 * out.length, OUTPUT_CHUNK)]; // the last decode filled it: grow
                }
                int n = decode(out, 0, out.length);
                if (n < 0) {
                    return -1;
                }
                outPos = 0;
                outLim = n;
            }
            int n = (int) Math.min(Math.min(len, outLim - outPos), allowed);
            System.arraycopy(out, outPos, b, off, n);
            outPos += n;
            return deliver(n);
        } catch (IOException | RuntimeException e) {
            failed(e);
            throw e;
        }
    }

    /** Counts {@code n} bytes returned to the caller (or passes -1 through). */
    private int deliver(int n) {
        if (n > 0) {
            totalOut += n;
        }
        return n;
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
        FileChannel file = out.getClass() == FileOutputStream.class ? ((FileOutputStream) out).getChannel() : null;
        FileChannel channel = engine.hasViews() ? file : null;
        if (file != null) {
            directOutput = true;
            if (parallel != null) {
                parallel.directOutput();
            }
        }
        long total = 0;
        while (true) {
            boolean more = outPos == outLim && failure == null && totalOut < maxOutputBytes;
            if ((state == PARALLEL || state == PIECES) && more) {
                try {
                    if (current == null || currentPos == current.len) {
                        nextMember();
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
            if (channel != null && more) {
                int n;
                try {
                    n = decode(null, 0, (int) Math.min(OUTPUT_CHUNK, maxOutputBytes - totalOut));
                } catch (IOException | RuntimeException e) {
                    failed(e);
                    throw e;
                }
                if (n < 0) {
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
            if (parallel != null) {
                parallel.close();
            }
            engine.end();
        } finally {
            in.close();
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
                case PARALLEL:
                case PIECES:
                    if (b == null) {
                        view = EMPTY;
                        return 0;
                    }
                    int p = parallelRead(b, off, len);
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
                if (b != null) {
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
                    throw new EOFException("truncated gzip input: end of stream at offset " + offset()
                            + " inside the deflate data of member at offset " + memberStart);
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
            next = new byte[(int) Math.min((long) KEEP + 4L * (buf.length - KEEP), bufferLimit)];
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
            throw new EOFException("truncated gzip input: end of stream at offset " + offset() + " while reading "
                    + what + " of member at offset " + memberStart);
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
        indexed = null;
        claimed = extra == null ? null : GzipMembers.member(memberStart, (int) (offset() - memberStart), extra);
        GzipMembers.Member m = claimed;
        if (threads > 1 && m != null && m.totalLength() <= MAX_PARALLEL_MEMBER
                && m.uncompressedSize() <= MAX_PARALLEL_MEMBER) {
            indexed = m;
        }
        engine.reset();
        crc.reset();
        memberOut = 0;
        engine.setInput(buf, pos, lim - pos);
        return true;
    }

    /**
     * After a member's header: decode it here (DATA) or, if it is independent, on the workers (PARALLEL); with an
     * index, the whole file from the first member's data on, in pieces (PIECES).
     */
    private void beginMember() throws IOException {
        if (entryPoints != null) {
            parallel = new ParallelInflate(threads, PieceReader.maxInFlight(threads));
            if (directOutput) {
                parallel.directOutput();
            }
            pieces = new PieceReader(entryPoints, parallel, in, buf, pos, lim, bufStart, claimed,
                    ignoreTrailingGarbage, pieceSize);
            entryPoints = null;
            pos = lim; // the reader has those bytes now
            state = PIECES;
            // Never used again: its native memory goes back to the pool now, for a worker's decoder.
            engine.end();
            return;
        }
        if (indexed == null) {
            state = DATA;
            return;
        }
        if (parallel == null) {
            parallel = new ParallelInflate(threads);
            if (directOutput) {
                parallel.directOutput();
            }
        }
        state = PARALLEL;
        readAheadDone = false;
        sequentialNext = null;
        submitBody();
    }

    /**
     * Reads the body of the member whose header was just read (its length from the size subfield) and hands it to
     * a worker; a truncated body is queued as the failure of that member, so that it surfaces in order.
     */
    private void submitBody() {
        GzipMembers.Member m = indexed;
        try {
            int need = (int) (m.totalLength() - m.headerLength());
            byte[] body = parallel.freeInputs.poll();
            // Grow the array as bytes arrive rather than trusting the claimed length with an allocation up front.
            if (body == null || body.length < Math.min(need, 1 << 20)) {
                body = new byte[Math.min(need, 1 << 20)];
            }
            int got = 0;
            while (got < need) {
                if (got == body.length) {
                    body = java.util.Arrays.copyOf(body, (int) Math.min(need, 2L * body.length));
                }
                if (pos == lim && need - got >= buf.length) {
                    // A long stretch: read it straight into the body, not through buf.
                    bufStart += lim;
                    pos = 0;
                    lim = 0;
                    int n = in.read(body, got, Math.min(need, body.length) - got);
                    if (n > 0) {
                        bufStart += n;
                        got += n;
                        continue;
                    }
                    if (n == 0) {
                        continue; // fill() below guards against a source that returns 0 forever
                    }
                }
                if (!fill()) {
                    throw new EOFException("truncated gzip input: end of stream at offset " + offset() + " inside"
                            + " member at offset " + m.offset() + ", whose " + (m.bgzf() ? "BC" : "SL")
                            + " subfield says it is " + m.totalLength() + " bytes long");
                }
                int n = Math.min(lim - pos, Math.min(need, body.length) - got);
                System.arraycopy(buf, pos, body, got, n);
                pos += n;
                got += n;
            }
            parallel.submit(m, header, body, need);
        } catch (IOException e) {
            readAheadDone = true;
            parallel.fail(e);
        }
    }

    /**
     * PARALLEL: copies decoded bytes of the current member; at its end takes the next member's result, reading and
     * submitting further members first so that the workers stay busy. Returns 0 when the workers are drained and
     * {@link #state} has moved on (DATA for an ordinary member that follows, END after the last member).
     */
    private int parallelRead(byte[] b, int off, int len) throws IOException {
        while (current == null || currentPos == current.len) {
            if (!nextMember()) {
                return 0;
            }
        }
        int n = Math.min(len, current.len - currentPos);
        current.out.get(currentPos, b, off, n);
        currentPos += n;
        return n;
    }

    /**
     * PARALLEL, at the end of the current member: takes the next member's result, reading and submitting further
     * members first so that the workers stay busy. False when the workers are drained and {@link #state} has moved
     * on (DATA for an ordinary member that follows, END after the last member).
     */
    private boolean nextMember() throws IOException {
        if (current != null) {
            parallel.recycle(current);
            current = null;
        }
        if (state == PIECES) {
            current = pieces.next();
            currentPos = 0;
            if (current == null) {
                trailingGarbageIgnored = pieces.trailingGarbageIgnored();
                state = END;
                return false;
            }
            return true;
        }
        readAhead();
        ParallelInflate.Decoded d = parallel.take();
        if (d == null) {
            if (sequentialNext != null) {
                header = sequentialNext; // its header was read and the engine set up by readHeader
                sequentialNext = null;
                state = DATA;
            } else {
                state = END;
            }
            return false;
        }
        header = d.header;
        current = d;
        currentPos = 0;
        return true;
    }

    /** Reads and submits members until the workers hold as many as allowed or no independent member is left. */
    private void readAhead() {
        GzipHeader shown = header; // header() reports the member being returned, not those read ahead
        while (!readAheadDone && parallel.inFlight() < parallel.maxInFlight()) {
            try {
                if (!readHeader(false)) {
                    readAheadDone = true;
                } else if (indexed == null) {
                    readAheadDone = true;
                    sequentialNext = header;
                } else {
                    submitBody();
                }
            } catch (IOException e) {
                readAheadDone = true;
                parallel.fail(e);
            }
        }
        header = shown;
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
        if (crc.getValue() != expectedCrc) {
            throw new ZipException(String.format("CRC32 mismatch: expected 0x%08x (trailer), actual 0x%08x"
                    + " (decoded data) in member at offset %d", expectedCrc, crc.getValue(), memberStart));
        }
        if ((memberOut & 0xffffffffL) != expectedSize) {
            throw new ZipException(String.format("ISIZE mismatch: expected %d (trailer), actual %d (decoded size mod"
                    + " 2^32) in member at offset %d", expectedSize, memberOut & 0xffffffffL, memberStart));
        }
        if (claimed != null) {
            checkClaimedSizes(claimed);
        }
    }

    /**
     * The member just decoded here against what its size subfield claims, with the answers {@link ParallelInflate}
     * gives on the workers: a wrong uncompressed size or length is a {@link ZipException}; a length that runs past
     * the end of the input is an {@link EOFException}, as there, where the claimed length is read before decoding.
     */
    private void checkClaimedSizes(GzipMembers.Member m) throws IOException {
        String where = " in member at offset " + memberStart;
        if (!m.bgzf() && memberOut != m.uncompressedSize()) {
            throw new ZipException("member decodes to " + memberOut + " bytes, but the SL subfield says "
                    + m.uncompressedSize() + where);
        }
        long length = offset() - memberStart;
        if (length == m.totalLength()) {
            return;
        }
        String field = m.bgzf() ? "BC" : "SL";
        if (length < m.totalLength() && m.totalLength() <= MAX_PARALLEL_MEMBER) {
            for (long skip = m.totalLength() - length; skip > 0; ) {
                if (!fill()) {
                    throw new EOFException("truncated gzip input: end of stream at offset " + offset() + " inside"
                            + " member at offset " + memberStart + ", whose " + field + " subfield says it is "
                            + m.totalLength() + " bytes long");
                }
                int n = (int) Math.min(skip, lim - pos);
                pos += n;
                skip -= n;
            }
        }
        throw new ZipException("member is " + length + " bytes long, but the " + field + " subfield says "
                + m.totalLength() + where);
    }

    /**
     * Consumes what follows the last member: zeros pass (gzip ignores them too); other data is an error unless
     * ignoring it was asked for. {@code garbageAt} is the offset of garbage already seen, or -1.
     */
    private void skipTrailing(long garbageAt) throws IOException {
        long at = garbageAt;
        while (at < 0 && fill()) {
            while (pos < lim && buf[pos] == 0) {
                pos++;
            }
            if (pos < lim) {
                at = offset();
            }
        }
        if (at < 0) {
            return;
        }
        if (!ignoreTrailingGarbage) {
            throw new ZipException("trailing garbage after the last gzip member at offset " + at
                    + " (expected end of input or another member)");
        }
        trailingGarbageIgnored = true;
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

        private Builder() {}

        /** Output bytes per piece with an index (tests: tiny pieces). */
        Builder pieceSize(long bytes) {
            this.pieceSize = Checks.positive(bytes, "pieceSize");
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
         * caller's thread unless the stream has its {@linkplain #index index}. Memory: with more than one thread,
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

        /** A stream reading {@code in} with these settings. */
        public GzipInputStream build(InputStream in) {
            GzipInputStream s = new GzipInputStream(Checks.notNull(in, "in"), bufferSize, ignoreTrailingGarbage,
                    maxOutputBytes, GzipEngines.inflater(), threads, entryPoints);
            s.pieceSize = pieceSize;
            return s;
        }
    }
}
