package dev.sluice.gzip;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A source read ahead on a thread of its own, for the decoding strategies: the reader thread reads the source in
 * blocks of up to {@link #BLOCK} bytes (from {@link #FIRST_BLOCK}, four times larger while the source has more; up to
 * {@link #DEPTH} ahead), so that the system calls and the kernel's copy of the
 * compressed bytes (and, for a {@code FileInputStream}, the JDK's copy from its native buffer) are not on the thread
 * that hands decoded chunks over; that thread only copies bytes out of a block ({@link #read(byte[], int, int)}),
 * one {@code System.arraycopy} per byte.
 *
 * <p>Buffered: yes, up to {@code DEPTH} blocks. Thread safety: one consumer thread; the reader thread is this
 * object's while it reads (a daemon thread of a pool all streams share, which ends after a second idle). A source's
 * exception is thrown by the consumer's read, in order (after the bytes before it). Closing closes the source and
 * stops the reader (which also stops at the end of the source).
 */
final class Prefetch extends InputStream {
    /** Bytes read from the source at a time: 4 MiB (a few of Sluice's members, one index piece). */
    static final int BLOCK = 4 << 20;
    /** The first block's size: small, so that a small stream does not pay for zeroing 4 MiB. */
    static final int FIRST_BLOCK = 64 * 1024;
    /** Blocks read ahead: 16 MiB, enough for 16 workers' next members while the consumer takes results. */
    static final int DEPTH = 4;

    /** A block read: {@code bytes[0..len)}, or the source's end ({@code len < 0}) or failure. */
    private static final class Block {
        final byte[] bytes;
        final int len;
        final IOException failure;

        Block(byte[] bytes, int len, IOException failure) {
            this.bytes = bytes;
            this.len = len;
            this.failure = failure;
        }
    }

    private final InputStream source;
    private final BlockingQueue<Block> full = new ArrayBlockingQueue<>(DEPTH);
    private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(DEPTH + 2);
    /** The reader threads of all streams: reused by the streams that follow (a thread's start costs). */
    private static final java.util.concurrent.ThreadPoolExecutor READERS = Workers.cached("sluice-gunzip-read");

    private final java.util.concurrent.Future<?> reader;
    private volatile boolean closed;
    /** The block being read by the consumer, {@code current.bytes[pos..current.len)} not yet read; or null. */
    private Block current;
    private int pos;
    private boolean ended;

    Prefetch(InputStream source) {
        this.source = source;
        this.reader = READERS.submit(new Reader());
    }

    /** The reader thread's loop. A class rather than a lambda: linking the first lambda costs start-up time. */
    private final class Reader implements Runnable {
        @Override
        public void run() {
            try {
                int size = FIRST_BLOCK;
                while (!closed) {
                    byte[] b = free.poll();
                    if (b == null || b.length < size) {
                        b = new byte[size];
                    }
                    int n = 0;
                    IOException failure = null;
                    try {
                        for (int zeros = 0; n < b.length; ) {
                            int k = source.read(b, n, b.length - n);
                            if (k < 0) {
                                break;
                            }
                            if (k == 0 && ++zeros > 1000) {
                                throw new IOException("source returned 0 bytes 1000 times in a row");
                            }
                            n += k;
                        }
                    } catch (IOException e) {
                        failure = e;
                    }
                    if (n > 0) {
                        full.put(new Block(b, n, null));
                    }
                    if (failure != null || n < b.length) {
                        full.put(new Block(null, -1, failure));
                        return;
                    }
                    size = Math.min(BLOCK, 4 * size); // the source has more: larger reads
                }
            } catch (InterruptedException e) {
                // closed while waiting for room: the consumer is gone
            }
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (current == null || pos == current.len) {
            if (!take()) {
                return -1;
            }
        }
        int n = Math.min(len, current.len - pos);
        System.arraycopy(current.bytes, pos, b, off, n);
        pos += n;
        return n;
    }

    /**
     * For a consumer that decodes the bytes where they lie: the rest of the block being read, or the next block
     * whole, as {@code {from, to}} in {@code slice[0]}'s array (returned in {@code out}); null at the end of the
     * source. The array is the consumer's until it calls {@link #giveBack} (from any thread); {@link #read} goes on
     * after the slice.
     */
    byte[] takeBlock(int[] out) throws IOException {
        if (current == null || pos == current.len) {
            if (!take()) {
                return null;
            }
        }
        Block b = current;
        out[0] = pos;
        out[1] = b.len;
        current = null;
        return b.bytes;
    }

    /** Gives back an array {@link #takeBlock} returned, for the reader to fill again; any thread. */
    void giveBack(byte[] block) {
        free.offer(block);
    }

    /** Makes {@link #current} a block with bytes; false at the end of the source. */
    private boolean take() throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
        if (current != null) {
            free.offer(current.bytes);
            current = null;
        }
        if (ended) {
            return false;
        }
        Block b;
        try {
            b = full.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for gzip input");
        }
        if (b.len < 0) {
            ended = true;
            if (b.failure != null) {
                throw b.failure;
            }
            return false;
        }
        current = b;
        pos = 0;
        return true;
    }

    /** Ends the reader thread and closes the source. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        reader.cancel(true); // a reader waiting for room; one in the source's read ends when the source closes
        full.clear();
        source.close();
    }
}
