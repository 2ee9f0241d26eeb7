package dev.sluice.text;

import dev.sluice.internal.Checks;
import dev.sluice.file.FastFiles;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Text files read with {@link FastReader} and written with {@link FastWriter}, opened through {@link FileChannel}
 * (the classic small-file experiment found channels faster to open than {@code FileInputStream}). The readers and
 * writers are single-threaded and close the file when closed.
 *
 * <p><b>Bad input:</b> a null argument gets {@link NullPointerException}; a missing file gets
 * {@link java.nio.file.NoSuchFileException}; malformed bytes become U+FFFD (use {@link FastReader#builder} with
 * {@link FastReader.Builder#strict()} on a channel of your own to have them throw).
 */
public final class TextFiles {
    private TextFiles() {}

    /**
     * Opens {@code path} for reading text in {@code charset}. The buffer is {@link FastReader#DEFAULT_BUFFER_SIZE},
     * or the file's size for a smaller file. Malformed input becomes U+FFFD; a byte order mark is kept.
     *
     * @throws IOException if the file cannot be opened; nothing is left open then
     */
    public static FastReader newReader(Path path, Charset charset) throws IOException {
        Checks.notNull(path, "path");
        Checks.notNull(charset, "charset");
        // The file stream reads ahead (one system call per 256 KiB into a pooled direct buffer), so the reader's
        // own 8 KiB refills cost a copy each, not a system call each.
        InputStream in = FastFiles.newUnbufferedInputStream(path);
        try {
            long size = in.available(); // the file's size: nothing is read yet
            int buffer = (int) Math.min(FastReader.DEFAULT_BUFFER_SIZE, Math.max(16, size + 1));
            return FastReader.builder(charset).bufferSize(buffer).build(in);
        } catch (Throwable t) {
            closeAfterFailure(in, t);
            throw t;
        }
    }

    /**
     * Opens or creates {@code path} for writing text in {@code charset}. With no options, as
     * {@link java.nio.file.Files#newBufferedWriter}: {@code CREATE}, {@code TRUNCATE_EXISTING}, {@code WRITE}.
     * Unencodable chars become {@code '?'}.
     *
     * @throws IllegalArgumentException if {@code options} contains {@code READ}
     * @throws IOException if the file cannot be opened or created
     */
    public static FastWriter newWriter(Path path, Charset charset, OpenOption... options) throws IOException {
        Checks.notNull(path, "path");
        Checks.notNull(charset, "charset");
        Checks.notNull(options, "options");
        Set<OpenOption> opts = new HashSet<>();
        if (options.length == 0) {
            opts.add(StandardOpenOption.CREATE);
            opts.add(StandardOpenOption.TRUNCATE_EXISTING);
        }
        for (OpenOption o : options) {
            Checks.notNull(o, "option");
            Checks.argument(o != StandardOpenOption.READ, "READ not allowed");
            opts.add(o);
        }
        opts.add(StandardOpenOption.WRITE);
        return FastWriter.of(FileChannel.open(path, opts), charset);
    }

    /**
     * The lines of {@code path} as a lazily read stream (rules of {@link java.io.BufferedReader#readLine()}). Close
     * the stream to close the file; read errors are thrown as {@link UncheckedIOException}.
     *
     * @throws IOException if the file cannot be opened
     */
    public static Stream<String> lines(Path path, Charset charset) throws IOException {
        return newReader(path, charset).lines();
    }

    /**
     * Hands every line of {@code path} to {@code action} as a reused {@link CharSequence} (see
     * {@link FastReader#forEachLine}), then closes the file.
     *
     * @return the number of lines
     * @throws IOException if the file cannot be opened or read
     */
    public static long forEachLine(Path path, Charset charset, Consumer<? super CharSequence> action)
            throws IOException {
        Checks.notNull(action, "action");
        try (FastReader r = newReader(path, charset)) {
            return r.forEachLine(action);
        }
    }

    private static void closeAfterFailure(Closeable c, Throwable failure) {
        try {
            c.close();
        } catch (Throwable t) {
            failure.addSuppressed(t);
        }
    }
}
