package dev.sluice.gzip;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the parallel gzip streams share: their pools of daemon worker threads, and the idle engines (compressors or
 * decoders, each with native memory) that workers borrow. A class rather than lambdas: the first lambda of a run costs
 * the JVM milliseconds to link, which a short {@code sluice gzip} notices.
 */
final class Workers implements ThreadFactory {
    private static final AtomicInteger POOL_NUMBER = new AtomicInteger();

    private final String prefix;
    private final AtomicInteger count = new AtomicInteger();

    private Workers(String name) {
        this.prefix = name + "-" + POOL_NUMBER.incrementAndGet() + "-";
    }

    /**
     * A pool of {@code threads} daemon threads named {@code name-N-M}, started as tasks come, each ending after a
     * second idle, so that a stream nobody closes leaks no threads.
     */
    static ThreadPoolExecutor pool(String name, int threads) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), new Workers(name));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * A worker's result, waiting for it: its exception is rethrown as it was made (ZipException, EOFException, with
     * the offsets in its message), an Error as it is, anything else wrapped in an IOException naming {@code what}.
     */
    static <T> T await(Future<T> f, String what) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a " + what);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException) {
                throw (IOException) c;
            }
            if (c instanceof Error) {
                throw (Error) c;
            }
            throw new IOException("a worker decoding a " + what + " failed: " + c, c);
        }
    }

    /**
     * A pool that runs each task at once on an idle daemon thread named {@code name-N-M} or a new one, each ending
     * after a second idle: threads are reused by the streams that follow, rather than started for each.
     */
    static ThreadPoolExecutor cached(String name) {
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 1, TimeUnit.SECONDS,
                new java.util.concurrent.SynchronousQueue<>(), new Workers(name));
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, prefix + count.incrementAndGet());
        t.setDaemon(true);
        return t;
    }

    /** Idle engines: workers take one and give it back; after {@link #close()} a given-back engine is refused. */
    static final class Idle<E> {
        private final ArrayDeque<E> idle = new ArrayDeque<>();
        private boolean closed;

        /** An idle engine, or null if the worker must make one. */
        synchronized E poll() {
            return idle.poll();
        }

        /** Keeps {@code e} for the next worker; false once closed: the caller must then free {@code e} itself. */
        synchronized boolean offer(E e) {
            if (closed) {
                return false;
            }
            idle.add(e);
            return true;
        }

        /** Refuses further engines and returns the idle ones, for the caller to free. */
        synchronized List<E> close() {
            closed = true;
            List<E> all = List.copyOf(idle);
            idle.clear();
            return all;
        }
    }
}
