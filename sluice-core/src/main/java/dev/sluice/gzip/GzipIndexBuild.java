package dev.sluice.gzip;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * Builds the checkpoints of a {@link GzipIndex} for any gzip file in two passes that run side by side: the
 * {@link GzipIndexScanner} (pure Java, no output) finds members and block boundaries and picks checkpoints; the JDK's
 * Inflater decodes everything (checking every member's CRC32 and ISIZE) and copies the 32 KiB window at each
 * checkpoint the scanner has published. The inflating side never runs ahead of what the scanner has seen, so it
 * never passes a checkpoint without its window. With one processor the scan runs first, then the inflate.
 *
 * <p>Why not one pure-Java inflater: zlib decodes faster than Java does, and the scanner, which only decodes symbols,
 * keeps up with it on a second core (docs/benchmarks/gzip.md). Not thread-safe beyond the two threads it runs.
 */
final class GzipIndexBuild implements GzipIndexScanner.Sink {
    static final int WINDOW = 32 * 1024;
    private static final int CHUNK = 256 * 1024;
    private static final int INPUT = 128 * 1024;

    // Published by the scanner under this object's lock, the windows by the inflater under it too; elements below
    // the counts are never changed again (the table's spacing rule is read by the scanner's thread alone).
    private final GzipIndexTable table;
    private long[] memTrailer = new long[8];
    private int membersEnded;
    private long progress;
    private boolean scanDone;
    private Throwable scanFailure;
    private boolean waiting;
    private volatile boolean cancelled;

    GzipIndexBuild(long spacing) {
        this.table = new GzipIndexTable(spacing);
    }

    static GzipIndex build(FileChannel ch, long size, long spacing, boolean parallel) throws IOException {
        GzipIndexBuild b = new GzipIndexBuild(spacing);
        GzipIndexScanner scanner = new GzipIndexScanner(ch, size, 1 << 20);
        Thread t = null;
        if (parallel) {
            t = new Thread(() -> b.runScan(scanner), "sluice-gzip-index-scan");
            t.setDaemon(true);
            t.start();
        } else {
            b.runScan(scanner);
        }
        try {
            long total = b.inflateAll(ch, size);
            synchronized (b) {
                return b.table.index(ch, size, total);
            }
        } finally {
            b.cancelled = true;
            if (t != null) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private void runScan(GzipIndexScanner scanner) {
        Throwable failure = null;
        try {
            scanner.scan(this);
        } catch (Throwable e) {
            failure = e;
        }
        synchronized (this) {
            scanFailure = failure;
            scanDone = true;
            notifyAll();
        }
    }

    // ---- scanner side ----

    @Override
    public synchronized void member(long headerOffset, long deflateOffset, long u) {
        table.member(headerOffset, deflateOffset, u);
        wake();
    }

    @Override
    public void boundary(long bit, long u) {
        if (!table.due(u)) {
            return;
        }
        synchronized (this) {
            table.checkpoint(bit, u, null);
            wake();
        }
    }

    @Override
    public boolean progress(long u) {
        synchronized (this) {
            progress = u;
            wake();
        }
        return !cancelled;
    }

    @Override
    public synchronized void memberEnd(long trailerOffset, long u) {
        if (membersEnded == memTrailer.length) {
            memTrailer = Arrays.copyOf(memTrailer, 2 * membersEnded);
        }
        memTrailer[membersEnded++] = trailerOffset;
        progress = u;
        wake();
    }

    private void wake() {
        if (waiting) {
            notifyAll();
        }
    }

    // ---- inflater side ----

    private void await() throws IOException {
        waiting = true;
        try {
            wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while building a gzip index");
        } finally {
            waiting = false;
        }
    }

    private void checkScan() throws IOException {
        rethrow(scanFailure);
    }

    /** Throws {@code f}, another thread's failure, as it was (null: nothing). */
    static void rethrow(Throwable f) throws IOException {
        if (f instanceof IOException) {
            throw (IOException) f;
        } else if (f instanceof RuntimeException) {
            throw (RuntimeException) f;
        } else if (f instanceof Error) {
            throw (Error) f;
        }
    }

    /** How far the inflater may decode from {@code u}: the next checkpoint or what the scanner has passed. */
    private synchronized long limit(long u, int nextCp) throws IOException {
        while (true) {
            checkScan();
            if (nextCp < table.checkpoints()) {
                return table.cpU(nextCp);
            }
            if (scanDone) {
                return Long.MAX_VALUE;
            }
            if (progress > u) {
                return progress;
            }
            await();
        }
    }

    private long inflateAll(FileChannel ch, long size) throws IOException {
        Inflater inf = new Inflater(true);
        try {
            CRC32 crc = new CRC32();
            byte[] ring = new byte[WINDOW + CHUNK];
            int r = WINDOW;
            byte[] in = new byte[INPUT];
            long u = 0;
            int nextCp = 0;
            for (int m = 0;; m++) {
                long deflate;
                long header;
                synchronized (this) {
                    while (m >= table.members() && !scanDone) {
                        await();
                    }
                    checkScan();
                    if (m >= table.members()) {
                        if (u != progress) {
                            throw new ZipException("gzip index: scan ended at uncompressed " + progress
                                    + " but inflate at " + u);
                        }
                        return u;
                    }
                    deflate = table.memDeflate(m);
                    header = table.memHeader(m);
                    if (table.memU(m) != u) {
                        throw new ZipException("gzip index: member at offset " + header + " starts at uncompressed "
                                + table.memU(m) + " by the scan but " + u + " by inflate");
                    }
                }
                inf.reset();
                crc.reset();
                long memberStart = u;
                long inPos = deflate;
                while (!inf.finished()) {
                    if (inf.needsInput()) {
                        int n = readAt(ch, ByteBuffer.wrap(in), inPos);
                        if (n <= 0) {
                            throw new EOFException("gzip data ends early: the member at offset " + header
                                    + " is cut at offset " + inPos);
                        }
                        inf.setInput(in, 0, n);
                        inPos += n;
                    }
                    long limit = limit(u, nextCp);
                    if (limit == u) {
                        capture(nextCp++, ring, r, u - memberStart);
                        continue;
                    }
                    if (limit < u) {
                        throw new ZipException("gzip index: checkpoint at uncompressed " + limit + " was passed");
                    }
                    if (r == ring.length) {
                        System.arraycopy(ring, r - WINDOW, ring, 0, WINDOW);
                        r = WINDOW;
                    }
                    int want = (int) Math.min(ring.length - r, limit - u);
                    int n;
                    try {
                        n = inf.inflate(ring, r, want);
                    } catch (DataFormatException e) {
                        throw new ZipException("corrupt deflate data in the member at offset " + header
                                + " near offset " + (inPos - inf.getRemaining()) + ": " + e.getMessage());
                    }
                    if (n == 0 && inf.needsDictionary()) {
                        throw new ZipException("deflate data of the member at offset " + header
                                + " asks for a preset dictionary");
                    }
                    crc.update(ring, r, n);
                    r += n;
                    u += n;
                }
                long trailer = inPos - inf.getRemaining();
                ByteBuffer t = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                if (readAt(ch, t, trailer) < 8) {
                    throw new EOFException("gzip data ends early: the trailer of the member at offset " + header
                            + " is cut (file size " + size + ")");
                }
                long storedCrc = t.getInt(0) & 0xffffffffL;
                if (storedCrc != crc.getValue()) {
                    throw new ZipException(String.format("CRC32 of the member at offset %d: actual 0x%08x != "
                            + "expected 0x%08x", header, crc.getValue(), storedCrc));
                }
                synchronized (this) {
                    while (membersEnded <= m && !scanDone) {
                        await();
                    }
                    checkScan();
                    if (membersEnded <= m || memTrailer[m] != trailer) {
                        throw new ZipException("gzip index: the trailer of the member at offset " + header
                                + " is at " + trailer + " by inflate but not by the scan");
                    }
                    // A checkpoint before an empty last block sits at the member's end: inflate may have run past it.
                    while (nextCp < table.checkpoints() && table.cpU(nextCp) == u && table.cpMember(nextCp) == m) {
                        capture(nextCp++, ring, r, u - memberStart);
                    }
                }
            }
        } finally {
            inf.end();
        }
    }

    /** The window of checkpoint {@code i}: the last {@code min(32 KiB, inMember)} bytes before {@code ring[r]}. */
    private void capture(int i, byte[] ring, int r, long inMember) {
        int len = (int) Math.min(WINDOW, inMember);
        byte[] w = Arrays.copyOfRange(ring, r - len, r);
        synchronized (this) {
            table.window(i, w);
        }
    }

    /** Reads from {@code at} until {@code dst} is full or the file ends; returns the bytes read. */
    static int readAt(FileChannel ch, ByteBuffer dst, long at) throws IOException {
        int n = 0;
        while (dst.hasRemaining()) {
            int k = ch.read(dst, at + n);
            if (k < 0) {
                break;
            }
            n += k;
        }
        return n;
    }
}
