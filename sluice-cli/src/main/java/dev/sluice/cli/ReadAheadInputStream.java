package dev.sluice.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads its source on a thread of its own, {@link #CHUNK} bytes at a time and at most {@link #CHUNKS} chunks ahead,
 * so that the reading thread's system calls and the kernel's copy out of the page cache run on another core than the
 * caller. {@code sluice gunzip} of a large file uses it: its one thread otherwise spends about 4% of its time in
 * {@code read} (docs/benchmarks/cli.md), time the second core can take.
 *
 * <ul>
 *   <li><b>Buffered:</b> yes, up to {@code CHUNKS x CHUNK} bytes; it reads the source in whole chunks, so it may
 *       read past what the caller takes (to the source's end, or until closed).</li>
 *   <li><b>Bad input:</b> the source's {@link IOException} is thrown by the read that reaches it, in order.</li>
 *   <li><b>Thread safety:</b> one caller thread; the reader thread is the stream's own.</li>
 *   <li><b>Closing:</b> {@link #close()} stops the reader thread and closes the source.</li>
 * </ul>
 */
final class ReadAheadInputStream extends InputStream {
    /** Bytes per read of the source: 1 MiB, 16 times fewer hand-overs than the file streams' 64 KiB reads. */
    static final int CHUNK = 1 << 20;
    /** Chunks in flight: one being read, one being consumed, one ready. */
    static final int CHUNKS = 3;

    /** A chunk of the source; {@code len < data.length} only at the source's end. */
    private static final class Chunk {
        final byte[] data;
        int len;
        IOException failure;

        Chunk(byte[] data) {
            this.data = data;
        }
    }

    /** After the last chunk: the source ended. */
    private static final Chunk END = new Chunk(new byte[0]);

    private final InputStream source;
    private final BlockingQueue<Chunk> free = new ArrayBlockingQueue<>(CHUNKS);
    /** Filled chunks in order, then END or a chunk holding the failure; never full, so the reader never blocks on it. */
    private final BlockingQueue<Chunk> filled = new ArrayBlockingQueue<>(CHUNKS + 1);
    private final Reader reader;
    /** The chunk being consumed, {@code current.data[pos..current.len)} not yet returned; null before the first. */
    private Chunk current;
    private int pos;
    private boolean ended;
    private boolean closed;

    ReadAheadInputStream(InputStream source) {
        this.source = Objects.requireNonNull(source, "source");
        for (int i = 0; i < CHUNKS; i++) {
            free.add(new Chunk(new byte[CHUNK]));
        }
        reader = new Reader();
        reader.start();
    }

    /** The reader thread. A class, not a lambda: linking the first lambda of a run costs milliseconds of start-up. */
    private final class Reader extends Thread {
        Reader() {
            super("sluice-read-ahead");
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (true) {
                    Chunk c = free.take();
                    IOException failure = fill(c);
                    if (c.len > 0) {
                        filled.add(c); // the bytes before a failure come first
                    }
                    if (failure != null) {
                        Chunk f = new Chunk(END.data);
                        f.failure = failure;
                        filled.add(f);
                        return;
                    }
                    if (c.len < c.data.length) {
                        filled.add(END);
                        return;
                    }
                }
            } catch (InterruptedException e) {
                // closed
            }
        }

        /**
         * Reads into {@code c} until it is full or the source ends, counting in {@code c.len}; returns the source's
         * failure, if any, with the bytes before it in {@code c}.
         */
        private IOException fill(Chunk c) {
            c.len = 0;
            try {
                for (int zeros = 0; c.len < c.data.length; ) {
                    int r = source.read(c.data, c.len, c.data.length - c.len);
                    if (r < 0) {
                        break;
                    }
                    if (r > 0) {
                        zeros = 0;
                    } else if (++zeros > 1000) {
                        throw new IOException("source returned 0 bytes 1000 times in a row");
                    }
                    c.len += r;
                }
                return null;
            } catch (IOException e) {
                return e;
            }
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    /** Returns at least one byte, blocking until the reader thread has it, or -1 at the source's end. */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("Stream closed");
        }
        if (len == 0) {
            return 0;
        }
        if (current == null || pos == current.len) {
            if (ended) {
                return -1;
            }
            if (current != null) {
                free.add(current);
                current = null;
            }
            Chunk next;
            try {
                next = filled.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for the read-ahead thread");
            }
            if (next.failure != null) {
                ended = true;
                throw next.failure;
            }
            if (next == END) {
                ended = true;
                return -1;
            }
            current = next;
            pos = 0;
        }
        int n = Math.min(len, current.len - pos);
        System.arraycopy(current.data, pos, b, off, n);
        pos += n;
        return n;
    }

    /** Stops the reader thread and closes the source; safe to call more than once. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        reader.interrupt();
        try {
            reader.join(); // the source is closed only once its reader has let go of it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            source.close();
        }
    }
}
