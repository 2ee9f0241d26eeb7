package dev.sluice.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Compares two file channels by reading both into large direct buffers and comparing them with the vectorized
 * {@link ByteBuffer#mismatch}. Shared by {@code FastFiles.mismatch} and {@code Streams.contentEquals}.
 *
 * <p>Why reads and not {@code map}: a mapped file that another process truncates makes the next access to the lost
 * pages a {@code SIGBUS}, which the JVM reports as an {@link InternalError} at best and a crash at worst (as far as
 * we read HotSpot, the vectorized mismatch stub is not among the code it can recover in). With {@code pread} a
 * truncated file is an early end of file, reported here as an {@link IOException}.
 *
 * <p>Large comparisons ({@link #PARALLEL_THRESHOLD} bytes or more, on a machine with two or more processors) split
 * in two halves compared by two threads, the second a short-lived daemon thread: the cost of a compare is the
 * kernel copying page-cache pages into the buffers, which a second, idle core can share. On an idle 2-core machine
 * the second thread made an equal 1 GiB pair 1.5-1.7x faster ({@code CompareBench}: 70.5 vs 122.2 ms on JDK 17,
 * 70.6 vs 104.9 on JDK 25); on a fully loaded one it neither gained nor lost (docs/benchmarks/copy.md).
 */
public final class ChannelCompare {
    private ChannelCompare() {}

    /**
     * Comparisons of at least this many bytes use two threads: {@value #PARALLEL_THRESHOLD_BUILT_IN} bytes, or the
     * system property {@code sluice.compare.parallelThreshold}. At 64 MiB a compare takes tens of milliseconds,
     * against some 100 microseconds to start a thread.
     */
    public static final long PARALLEL_THRESHOLD =
            Defaults.intProperty("sluice.compare.parallelThreshold", ChannelCompare.PARALLEL_THRESHOLD_BUILT_IN);

    /** The built-in default of {@link #PARALLEL_THRESHOLD}. */
    static final int PARALLEL_THRESHOLD_BUILT_IN = 64 << 20;

    /**
     * Compares {@code lenA} bytes of {@code a} from {@code posA} with {@code lenB} bytes of {@code b} from
     * {@code posB}, with positional reads (the channels' positions do not move).
     *
     * @return -1 when the lengths are equal and so are the bytes; otherwise the offset, relative to the start
     *         positions, of the first differing byte, or {@code min(lenA, lenB)} when the shorter is a prefix of the
     *         longer (the result contract of {@link java.nio.file.Files#mismatch})
     * @throws IOException if a read fails, or a channel ends before its length (the file shrank while being
     *         compared); the message names {@code nameA} or {@code nameB}
     */
    public static long mismatch(FileChannel a, long posA, long lenA, Object nameA,
                                FileChannel b, long posB, long lenB, Object nameB) throws IOException {
        boolean twoThreads = Math.min(lenA, lenB) >= PARALLEL_THRESHOLD
                && Runtime.getRuntime().availableProcessors() > 1;
        return mismatch(a, posA, lenA, nameA, b, posB, lenB, nameB, twoThreads);
    }

    /** As {@link #mismatch(FileChannel, long, long, Object, FileChannel, long, long, Object)}, choosing the threads. */
    public static long mismatch(FileChannel a, long posA, long lenA, Object nameA,
                                FileChannel b, long posB, long lenB, Object nameB, boolean twoThreads)
            throws IOException {
        long common = Math.min(lenA, lenB);
        Range whole = new Range(a, posA, lenA, nameA, b, posB, lenB, nameB);
        long m = twoThreads ? whole.compareInTwoHalves(common) : whole.compare(0, common);
        if (m >= 0) {
            return m;
        }
        return lenA == lenB ? -1 : common;
    }

    /** One comparison: the two channels, where they start, how long they are, and a flag to stop a helper. */
    private static final class Range {
        final FileChannel a;
        final long posA;
        final long lenA;
        final Object nameA;
        final FileChannel b;
        final long posB;
        final long lenB;
        final Object nameB;
        /** Set when the first half found a difference or failed: the second half's answer no longer matters. */
        volatile boolean stop;

        Range(FileChannel a, long posA, long lenA, Object nameA, FileChannel b, long posB, long lenB, Object nameB) {
            this.a = a;
            this.posA = posA;
            this.lenA = lenA;
            this.nameA = nameA;
            this.b = b;
            this.posB = posB;
            this.lenB = lenB;
            this.nameB = nameB;
        }

        /** The first differing offset in {@code [from, to)}, or -1 (also when stopped early). */
        long compare(long from, long to) throws IOException {
            ByteBuffer[] bufs = DirectBuffers.take(to - from);
            try {
                ByteBuffer ba = bufs[0];
                ByteBuffer bb = bufs[1];
                for (long done = from; done < to && !stop; ) {
                    int n = (int) Math.min(ba.capacity(), to - done);
                    readFully(a, ba, posA + done, n, posA + lenA, nameA);
                    readFully(b, bb, posB + done, n, posB + lenB, nameB);
                    int m = ba.mismatch(bb);
                    if (m >= 0) {
                        return done + m;
                    }
                    done += n;
                }
                return -1;
            } finally {
                DirectBuffers.release(bufs);
            }
        }

        long compareInTwoHalves(long common) throws IOException {
            long half = common / 2 / DirectBuffers.SIZE * DirectBuffers.SIZE; // whole buffers for the first half
            long[] second = {-1};
            Throwable[] failure = {null};
            Thread helper = new Thread(() -> {
                try {
                    second[0] = compare(half, common);
                } catch (Throwable t) {
                    failure[0] = t;
                }
            }, "sluice-compare");
            helper.setDaemon(true);
            helper.start();
            long first;
            try {
                first = compare(0, half);
            } catch (Throwable t) {
                stop = true;
                joinUninterruptibly(helper);
                throw t;
            }
            if (first >= 0) {
                stop = true; // an earlier difference wins whatever the second half finds
            }
            boolean interrupted = joinUninterruptibly(helper);
            if (interrupted) {
                throw new InterruptedIOException("interrupted while comparing");
            }
            if (first >= 0) {
                return first;
            }
            Throwable t = failure[0]; // visible: Thread.join happens-before
            if (t instanceof IOException) {
                throw (IOException) t;
            }
            if (t instanceof RuntimeException) {
                throw (RuntimeException) t;
            }
            if (t instanceof Error) {
                throw (Error) t;
            }
            if (t != null) {
                throw new UncheckedIOException(new IOException(t));
            }
            return second[0];
        }
    }

    /** Joins {@code t}; returns whether this thread was interrupted meanwhile (the interrupt status is restored). */
    private static boolean joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return interrupted;
    }

    /** Reads exactly {@code n} bytes at {@code pos} into {@code buf}, which it leaves flipped for reading. */
    private static void readFully(FileChannel ch, ByteBuffer buf, long pos, int n, long end, Object name)
            throws IOException {
        buf.clear().limit(n);
        while (buf.hasRemaining()) {
            int r = ch.read(buf, pos + buf.position());
            if (r < 0) {
                throw new IOException(name + ": file shrank while being compared: end of file at byte "
                        + (pos + buf.position()) + ", expected " + end);
            }
        }
        buf.flip();
    }
}
