package dev.sluice.file;

import dev.sluice.internal.Checks;
import dev.sluice.io.FastBufferedInputStream;
import dev.sluice.io.FastBufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * Streams on files, opened through {@link FileChannel} rather than {@link java.io.FileInputStream} or
 * {@link java.io.FileOutputStream}: no finalizer or cleaner registration, no lock per call, and a stream that knows
 * the file's size.
 *
 * <p>The buffered streams are {@link FastBufferedInputStream} and {@link FastBufferedOutputStream}: single-threaded,
 * and closing them closes the file. Copying one into the other with {@code transferTo} happens inside the kernel.
 *
 * <p><b>Bad input:</b> a null path or option gets {@link NullPointerException}; a missing file gets
 * {@link java.nio.file.NoSuchFileException} naming the path; options that make no sense for the direction
 * ({@code WRITE} or {@code APPEND} to read, {@code READ} to write) get the same exceptions as
 * {@link java.nio.file.Files#newInputStream} and {@link java.nio.file.Files#newOutputStream}. Reading a directory
 * fails with an {@link IOException} on the first read.
 */
public final class FastFiles {
    private FastFiles() {}

    /**
     * Opens {@code path} for reading, buffered. With no options the file is opened as by
     * {@link StandardOpenOption#READ}. The buffer is {@link FastBufferedInputStream#DEFAULT_BUFFER_SIZE} bytes, or
     * less for a file smaller than that (allocating 64 KiB to read 16 bytes would cost more than the read).
     *
     * @throws IOException if the file cannot be opened; nothing is left open then
     */
    public static FastBufferedInputStream newInputStream(Path path, OpenOption... options) throws IOException {
        FileChannel ch = openForReading(path, options);
        try {
            return new FastBufferedInputStream(new ChannelInputStream(ch), bufferSizeFor(ch.size()));
        } catch (Throwable t) {
            closeAfterFailure(ch, t);
            throw t;
        }
    }

    /**
     * Opens {@code path} for reading, unbuffered: every read is one {@link FileChannel#read} straight into the
     * caller's array. For callers that read in large pieces of their own; single-byte reads are slow. Not
     * thread-safe; closing the stream closes the file.
     *
     * @throws IOException if the file cannot be opened
     */
    public static InputStream newUnbufferedInputStream(Path path, OpenOption... options) throws IOException {
        return new ChannelInputStream(openForReading(path, options));
    }

    /**
     * Opens or creates {@code path} for writing, buffered. With no options, as
     * {@link java.nio.file.Files#newOutputStream}: {@code CREATE}, {@code TRUNCATE_EXISTING} and {@code WRITE}.
     * Closing the stream flushes it and closes the file. Does not force bytes to the storage device: call
     * {@code getChannel().force} on a channel of your own when you need durability.
     *
     * @throws IOException if the file cannot be opened or created; nothing is left open then
     */
    public static FastBufferedOutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
        FileChannel ch = openForWriting(path, options);
        try {
            return new FastBufferedOutputStream(new ChannelOutputStream(ch));
        } catch (Throwable t) {
            closeAfterFailure(ch, t);
            throw t;
        }
    }

    /**
     * Opens or creates {@code path} for writing, unbuffered: every write is one or more {@link FileChannel#write}
     * calls. Options as for {@link #newOutputStream}. Not thread-safe; closing the stream closes the file.
     *
     * @throws IOException if the file cannot be opened or created
     */
    public static OutputStream newUnbufferedOutputStream(Path path, OpenOption... options) throws IOException {
        return new ChannelOutputStream(openForWriting(path, options));
    }

    private static FileChannel openForReading(Path path, OpenOption... options) throws IOException {
        Checks.notNull(path, "path");
        Checks.notNull(options, "options");
        if (options.length == 0) {
            return FileChannel.open(path, StandardOpenOption.READ);
        }
        Set<OpenOption> opts = new HashSet<>(options.length + 1);
        for (OpenOption opt : options) {
            Checks.notNull(opt, "option");
            if (opt == StandardOpenOption.APPEND || opt == StandardOpenOption.WRITE) {
                throw new UnsupportedOperationException("'" + opt + "' not allowed");
            }
            opts.add(opt);
        }
        opts.add(StandardOpenOption.READ);
        return FileChannel.open(path, opts);
    }

    private static FileChannel openForWriting(Path path, OpenOption... options) throws IOException {
        Checks.notNull(path, "path");
        Checks.notNull(options, "options");
        Set<OpenOption> opts = new HashSet<>(options.length + 3);
        if (options.length == 0) {
            opts.add(StandardOpenOption.CREATE);
            opts.add(StandardOpenOption.TRUNCATE_EXISTING);
        } else {
            for (OpenOption opt : options) {
                Checks.notNull(opt, "option");
                if (opt == StandardOpenOption.READ) {
                    throw new IllegalArgumentException("READ not allowed");
                }
                opts.add(opt);
            }
        }
        opts.add(StandardOpenOption.WRITE);
        return FileChannel.open(path, opts);
    }

    /** The read buffer for a file of {@code size} bytes: the default, or less for small files (never under 8 KiB). */
    static int bufferSizeFor(long size) {
        int max = FastBufferedInputStream.DEFAULT_BUFFER_SIZE;
        if (size >= max) {
            return max;
        }
        // The file may grow while it is read; any size stays correct, a small buffer just costs more calls then.
        return (int) Math.min(max, Math.max(8192, size + 1));
    }

    private static void closeAfterFailure(FileChannel ch, Throwable failure) {
        try {
            ch.close();
        } catch (Throwable t) {
            failure.addSuppressed(t);
        }
    }
}
