package dev.sluice.gzip;

import dev.sluice.internal.Checks;
import dev.sluice.internal.Defaults;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes one gzip member (RFC 1952) compressed on the calling thread; see {@link ParallelGzipOutputStream} for
 * using several cores.
 *
 * <ul>
 *   <li><b>Buffered:</b> yes; small writes are gathered in an input buffer, writes as long as the buffer go to the
 *       compressor straight from the caller's array, and compressed output leaves in chunks of up to the buffer
 *       size, so no {@code BufferedOutputStream} is needed on either side. Both buffers start at 8 KiB and grow to
 *       the buffer size ({@link #DEFAULT_BUFFER_SIZE}) while they fill, so a small stream stays cheap.</li>
 *   <li><b>flush():</b> by default a SYNC_FLUSH, so everything written so far can be decompressed by the reader
 *       (unlike {@link java.util.zip.GZIPOutputStream}'s default); each costs a few bytes and some ratio, so
 *       {@link Builder#syncFlush(boolean) syncFlush(false)} makes flush() only flush the underlying stream.</li>
 *   <li><b>Header:</b> {@link GzipHeader#minimal()} unless {@link Builder#header} sets a name, time or more; the
 *       header is written with the first data (or at {@link #finish()}), so constructing never does I/O.</li>
 *   <li><b>Thread safety:</b> none. <b>Closing:</b> {@link #close()} finishes the member, frees the compressor's
 *       native memory and closes the underlying stream, even when finishing fails; closing twice is safe.
 *       {@link #finish()} completes the member without closing. A stream dropped unclosed gets its compressor's
 *       native memory back when the garbage collector finds it, as the JDK's {@code Deflater} does.</li>
 *   <li><b>Bad input:</b> null arrays and bad ranges as {@link OutputStream} specifies; writing after finish or
 *       close is an {@link IOException}.</li>
 *   <li><b>Failures:</b> once a write to the underlying stream has failed, compressed bytes may be lost, so the
 *       member can no longer be completed correctly: every later {@code write}, {@code flush} and {@code finish}
 *       throws an {@link IOException} whose cause is the first failure, and {@code close} frees the compressor,
 *       closes the underlying stream and throws the same, rather than end a corrupt member as if it were whole.</li>
 * </ul>
 */
public final class GzipOutputStream extends OutputStream {

    /**
     * Buffer size for gathered input and for compressed output: 64 KiB, overridable with
     * {@code -Dsluice.gzip.outputBufferSize=}. Not separately swept: deflate at level 6 runs at tens of MB/s, so the
     * buffer only has to make JNI and write calls rare, and with it GzipOutputStream used no more CPU than
     * GZIPOutputStream in {@code ParallelGzipBench} (1634 vs 1648 ms per 64 MiB, docs/benchmarks/gzip.md).
     */
    public static final int DEFAULT_BUFFER_SIZE = Defaults.intProperty("sluice.gzip.outputBufferSize", 64 * 1024);

    /** Both buffers' first size (or the buffer size, when smaller). */
    static final int FIRST_BUFFER_SIZE = 8 * 1024;

    /** The default level, 6, gzip's and zlib's default balance of speed and ratio. */
    public static final int DEFAULT_LEVEL = 6;

    /**
     * The smallest buffer size the builder accepts: 8 bytes. zlib's documentation asks for more than six bytes of
     * output room on every flushing call, or it repeats the flush marker on each call and a flush never ends.
     */
    public static final int MIN_BUFFER_SIZE = 8;

    private final OutputStream out;
    private final DeflateEngine engine;
    private final GzipHeader header;
    private final int level;
    private final boolean syncFlush;
    private final CRC32 crc = new CRC32();
    /**
     * Gathered small writes: {@code in[0..inLen)}. This and {@link #buf}, for compressed output, start at
     * {@link #FIRST_BUFFER_SIZE} and grow to {@link #bufferSize} while they fill, so that a small stream does not pay
     * for zeroing 128 KiB.
     */
    private byte[] in;
    private int inLen;
    private byte[] buf;
    private final int bufferSize;
    private long size;
    private boolean headerWritten;
    private boolean finished;
    private boolean closed;
    /** The first failure of the underlying stream (or the compressor); non-null means no later call may succeed. */
    private Throwable failure;

    /** Compresses at level 6 with the minimal header into {@code out}. */
    public GzipOutputStream(OutputStream out) {
        this(Checks.notNull(out, "out"), DEFAULT_LEVEL, Deflater.DEFAULT_STRATEGY, GzipHeader.minimal(),
                DEFAULT_BUFFER_SIZE, true);
    }

    private GzipOutputStream(OutputStream out, int level, int strategy, GzipHeader header, int bufferSize,
            boolean syncFlush) {
        this.out = out;
        this.level = level;
        this.header = header;
        this.syncFlush = syncFlush;
        this.bufferSize = bufferSize;
        this.in = new byte[Math.min(bufferSize, FIRST_BUFFER_SIZE)];
        this.buf = new byte[Math.min(bufferSize, FIRST_BUFFER_SIZE)];
        this.engine = GzipEngines.streamDeflater(level, strategy);
    }

    /** A builder for a stream with a non-default level, strategy, header, buffer size or flush behaviour. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void write(int b) throws IOException {
        ensureWritable();
        if (inLen == in.length) {
            try {
                drainInput();
            } catch (Throwable t) {
                throw failed(t);
            }
        }
        in[inLen++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        ensureWritable();
        Checks.checkRange(Checks.notNull(b, "b").length, off, len);
        if (len < in.length - inLen) {
            System.arraycopy(b, off, in, inLen, len);
            inLen += len;
            return;
        }
        try {
            drainInput();
            if (len >= in.length) {
                // As large as the buffer: copying would gain nothing, compress straight from the caller's array.
                deflate(b, off, len);
                return;
            }
        } catch (Throwable t) {
            throw failed(t);
        }
        System.arraycopy(b, off, in, 0, len);
        inLen = len;
    }

    /**
     * Compresses what was written so far with a SYNC_FLUSH (unless disabled in the builder), so that a reader can
     * decode all of it, then flushes the underlying stream. After {@link #finish()} it only flushes the latter.
     */
    @Override
    public void flush() throws IOException {
        ensureUsable();
        try {
            if (syncFlush && !finished) {
                drainInput();
                writeHeaderOnce();
                boolean full;
                do {
                    full = emit(engine.deflate(buf, 0, buf.length, DeflateEngine.SYNC_FLUSH));
                } while (full); // a full buffer may mean more flushed output is waiting
            }
            out.flush();
        } catch (Throwable t) {
            throw failed(t);
        }
    }

    /** Completes the member (final block and trailer) without closing the underlying stream. Idempotent. */
    public void finish() throws IOException {
        ensureUsable();
        if (finished) {
            return;
        }
        try {
            drainInput();
            writeHeaderOnce();
            engine.finish();
            while (!engine.finished()) {
                emit(engine.deflate(buf, 0, buf.length, DeflateEngine.NO_FLUSH));
            }
            GzipFormat.writeTrailer(out, crc.getValue(), size);
        } catch (Throwable t) {
            throw failed(t);
        }
        finished = true;
    }

    /**
     * Finishes the member, frees the compressor and closes the underlying stream; the first failure is thrown
     * after all three were attempted. Safe to call more than once.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        Throwable failure = null;
        try {
            finish();
        } catch (Throwable t) {
            failure = t;
        }
        closed = true;
        engine.end();
        try {
            out.close();
        } catch (Throwable t) {
            if (failure == null) {
                failure = t;
            } else {
                failure.addSuppressed(t);
            }
        }
        rethrow(failure);
    }

    static void rethrow(Throwable t) throws IOException {
        if (t instanceof IOException) {
            throw (IOException) t;
        } else if (t instanceof RuntimeException) {
            throw (RuntimeException) t;
        } else if (t instanceof Error) {
            throw (Error) t;
        } else if (t != null) {
            throw new IOException(t);
        }
    }

    /**
     * Records {@code t} as this stream's failure (the first one wins) and returns it as an IOException to throw:
     * the stream is unusable from here on, because the compressor may have consumed input whose output is lost.
     */
    private IOException failed(Throwable t) throws IOException {
        if (failure == null) {
            failure = t;
        }
        rethrow(t);
        throw new AssertionError(t); // rethrow always throws
    }

    /** Throws if the stream is closed or an earlier call failed. */
    private void ensureUsable() throws IOException {
        if (closed) {
            throw Checks.streamClosed();
        }
        if (failure != null) {
            throw new IOException("gzip stream failed earlier; the member cannot be completed: " + failure, failure);
        }
    }

    private void ensureWritable() throws IOException {
        ensureUsable();
        if (finished) {
            throw new IOException("write beyond end of stream: the gzip member was finished");
        }
    }

    private void writeHeaderOnce() throws IOException {
        if (!headerWritten) {
            out.write(header.encode(GzipFormat.xfl(level)));
            headerWritten = true;
        }
    }

    private void drainInput() throws IOException {
        if (inLen > 0) {
            int n = inLen;
            inLen = 0;
            deflate(in, 0, n);
            if (n == in.length && n < bufferSize) {
                // It filled: the writer writes more than small-stream amounts, so grow towards the full size (the
                // engine let go of the old array when deflate returned).
                in = new byte[Math.min(2 * n, bufferSize)];
            }
        }
    }

    /**
     * Writes {@code buf[0..n)} and returns whether the call filled {@code buf}; a full one is replaced by a larger
     * one, up to the buffer size, for the calls that follow.
     */
    private boolean emit(int n) throws IOException {
        if (n > 0) {
            out.write(buf, 0, n);
        }
        boolean full = n == buf.length;
        if (full && buf.length < bufferSize) {
            buf = new byte[Math.min(2 * buf.length, bufferSize)];
        }
        return full;
    }

    private void deflate(byte[] b, int off, int len) throws IOException {
        writeHeaderOnce();
        crc.update(b, off, len);
        size += len;
        engine.setInput(b, off, len);
        while (!engine.needsInput()) {
            emit(engine.deflate(buf, 0, buf.length, DeflateEngine.NO_FLUSH));
        }
    }

    /** Settings for a {@link GzipOutputStream}; not thread-safe, reusable. */
    public static final class Builder {
        private int level = DEFAULT_LEVEL;
        private int strategy = Deflater.DEFAULT_STRATEGY;
        private GzipHeader header = GzipHeader.minimal();
        private int bufferSize = DEFAULT_BUFFER_SIZE;
        private boolean syncFlush = true;

        private Builder() {}

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

        /** The member's header (name, time, comment, ...); default {@link GzipHeader#minimal()}. */
        public Builder header(GzipHeader header) {
            this.header = Checks.notNull(header, "header");
            return this;
        }

        /**
         * Input and output buffer size in bytes, at least {@link #MIN_BUFFER_SIZE}; default
         * {@link #DEFAULT_BUFFER_SIZE}.
         *
         * @throws IllegalArgumentException if {@code bytes} is less than {@link #MIN_BUFFER_SIZE}
         */
        public Builder bufferSize(int bytes) {
            this.bufferSize = Checks.atLeast(bytes, MIN_BUFFER_SIZE, "bufferSize");
            return this;
        }

        /** Whether {@link GzipOutputStream#flush()} does a SYNC_FLUSH (default true). */
        public Builder syncFlush(boolean syncFlush) {
            this.syncFlush = syncFlush;
            return this;
        }

        /** A stream compressing into {@code out} with these settings. */
        public GzipOutputStream build(OutputStream out) {
            return new GzipOutputStream(Checks.notNull(out, "out"), level, strategy, header, bufferSize, syncFlush);
        }
    }
}
