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

    private final long spacing;
    private long lastEntryU;

    // Published by the scanner under this object's lock; elements below the counts are never changed again.
    private long[] memHeader = new long[8];
    private long[] memDeflate = new long[8];
    private long[] memU = new long[8];
    private long[] memTrailer = new long[8];
    private int members;
    private int membersEnded;
    private long[] cpBit = new long[8];
    private long[] cpU = new long[8];
    private int[] cpMember = new int[8];
    private int cps;
    private long progress;
    private boolean scanDone;
    private Throwable scanFailure;
    private boolean waiting;
    private volatile boolean cancelled;

    /** Inflater side: the window of each checkpoint. */
    private byte[][] windows = new byte[8][];

    GzipIndexBuild(long spacing) {
        this.spacing = spacing;
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
            return new GzipIndex(size, total, spacing, Arrays.copyOf(b.memHeader, b.members),
                    Arrays.copyOf(b.memDeflate, b.members), Arrays.copyOf(b.memU, b.members),
                    Arrays.copyOf(b.cpBit, b.cps), Arrays.copyOf(b.cpU, b.cps), Arrays.copyOf(b.cpMember, b.cps),
                    Arrays.copyOf(b.windows, b.cps), GzipIndex.fileCheck(ch, size));
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
        if (members == memU.length) {
            int n = members * 2;
            memHeader = Arrays.copyOf(memHeader, n);
            memDeflate = Arrays.copyOf(memDeflate, n);
            memU = Arrays.copyOf(memU, n);
            memTrailer = Arrays.copyOf(memTrailer, n);
        }
        memHeader[members] = headerOffset;
        memDeflate[members] = deflateOffset;
        memU[members] = u;
        members++;
        lastEntryU = u;
        wake();
    }

    @Override
    public void boundary(long bit, long u) {
        if (u - lastEntryU < spacing) {
            return;
        }
        lastEntryU = u;
        synchronized (this) {
            if (cps == cpU.length) {
                int n = cps * 2;
                cpBit = Arrays.copyOf(cpBit, n);
                cpU = Arrays.copyOf(cpU, n);
                cpMember = Arrays.copyOf(cpMember, n);
            }
            cpBit[cps] = bit;
            cpU[cps] = u;
            cpMember[cps] = members - 1;
            cps++;
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
            if (nextCp < cps) {
                return cpU[nextCp];
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
                    while (m >= members && !scanDone) {
                        await();
                    }
                    checkScan();
                    if (m >= members) {
                        if (u != progress) {
                            throw new ZipException("gzip index: scan ended at uncompressed " + progress
                                    + " but inflate at " + u);
                        }
                        return u;
                    }
                    deflate = memDeflate[m];
                    header = memHeader[m];
                    if (memU[m] != u) {
                        throw new ZipException("gzip index: member at offset " + header + " starts at uncompressed "
                                + memU[m] + " by the scan but " + u + " by inflate");
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
                        windows = capture(windows, nextCp++, ring, r, u - memberStart);
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
                    while (nextCp < cps && cpU[nextCp] == u && cpMember[nextCp] == m) {
                        windows = capture(windows, nextCp++, ring, r, u - memberStart);
                    }
                }
            }
        } finally {
            inf.end();
        }
    }

    private static byte[][] capture(byte[][] windows, int i, byte[] ring, int r, long inMember) {
        if (i == windows.length) {
            windows = Arrays.copyOf(windows, i * 2);
        }
        int len = (int) Math.min(WINDOW, inMember);
        windows[i] = Arrays.copyOfRange(ring, r - len, r);
        return windows;
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
