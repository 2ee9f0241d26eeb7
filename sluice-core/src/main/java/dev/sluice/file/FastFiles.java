package dev.sluice.file;

import dev.sluice.internal.Checks;
import dev.sluice.io.FastBufferedInputStream;
import dev.sluice.io.FastBufferedOutputStream;
import dev.sluice.io.Streams;
import dev.sluice.text.FastReader;
import dev.sluice.text.FastWriter;
import dev.sluice.text.TextCounts;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import java.util.zip.Checksum;

/**
 * Streams on files, opened through {@link FileChannel} rather than {@link java.io.FileInputStream} or
 * {@link java.io.FileOutputStream}: no finalizer or cleaner registration, no lock per call, and a stream that knows
 * the file's size.
 *
 * <p>The buffered streams are {@link FastBufferedInputStream} and {@link FastBufferedOutputStream}: single-threaded,
 * and closing them closes the file. Copying one into the other with {@code transferTo} happens inside the kernel.
 *
 * <p>Text: {@code newReader}, {@code newWriter}, {@code lines} and {@code forEachLine} open {@link FastReader} and
 * {@link FastWriter} on a file; this class is their one front door for paths (dev.sluice.text knows streams and
 * channels, not files).
 *
 * <p>Whole-file operations: {@code copy} (inside the kernel, through a temporary file renamed into place, so a
 * failed copy never leaves a partial target), {@code mismatch} and {@code contentEquals} (large direct buffers and
 * vectorized comparison), and {@code checksum} (any {@link Checksum}, e.g. {@code CRC32C}). They are stateless and
 * safe to call from any thread; each opens and closes its own files and never closes a stream it is given.
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
            return new FastBufferedInputStream(new ChannelInputStream(ch));
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
            return new FastBufferedOutputStream(ChannelOutputStream.of(ch));
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
        return ChannelOutputStream.of(openForWriting(path, options));
    }

    /**
     * Copies the file {@code source} to {@code target}, inside the kernel ({@code copy_file_range} or
     * {@code sendfile} on Linux), and returns when the copy is in place.
     *
     * <p><b>Atomic:</b> the bytes go to a temporary file ({@code .NAME.RANDOM.sluice-tmp}) in the target's directory,
     * which is then renamed onto {@code target}; readers see the old target or the complete copy, never a partial
     * one. On any failure (a full disk, an interrupt, a read error) the temporary file is deleted and the target is
     * untouched. The copy gets the source's permissions, as with {@link java.nio.file.Files#copy}.
     *
     * <p><b>Options:</b> {@link StandardCopyOption#REPLACE_EXISTING} replaces an existing target (a file or a symbolic
     * link, never a directory); without it an existing target gets {@link FileAlreadyExistsException} before anything
     * is written, and a target that appears during the copy is not overwritten either (the copy is put in place with
     * a hard link where the file system has them). {@link StandardCopyOption#COPY_ATTRIBUTES} also copies the
     * last-modified and last-access times. {@link SluiceCopyOption#DURABLE} forces the copy to the device before the
     * rename and the directory after it. Symbolic links in {@code source} are followed.
     *
     * <p>If {@code source} and {@code target} are the same file (also through a link), returns without doing
     * anything, with or without {@code REPLACE_EXISTING}: a copy onto itself never truncates the file.
     *
     * <p><b>Bad input:</b> null arguments get {@link NullPointerException}; another option gets
     * {@link UnsupportedOperationException}; a missing source gets {@link java.nio.file.NoSuchFileException} naming
     * it; a directory as source or target gets a {@link java.nio.file.FileSystemException} "PATH: Is a directory"; a
     * missing target directory gets {@code NoSuchFileException} naming the directory, one that cannot be written
     * {@link java.nio.file.AccessDeniedException} naming it; a full disk an {@code IOException} naming the target.
     *
     * @throws IOException if the copy fails; no partial target and no temporary file remain then
     */
    public static void copy(Path source, Path target, CopyOption... options) throws IOException {
        FileCopier.copy(source, target, null, options);
    }

    /**
     * As {@link #copy(Path, Path, CopyOption...)}, and tells {@code progress} the number of bytes copied so far
     * after each piece of at most 64 MiB (from the calling thread; a few calls per second on a page-cached file).
     *
     * @throws NullPointerException if {@code progress} or another argument is null
     */
    public static void copy(Path source, Path target, LongConsumer progress, CopyOption... options)
            throws IOException {
        FileCopier.copy(source, target, Checks.notNull(progress, "progress"), options);
    }

    /**
     * Copies everything left in {@code in} to the file {@code target} and returns the number of bytes copied,
     * atomically as {@link #copy(Path, Path, CopyOption...)} does: through a temporary file in the target's
     * directory, deleted if {@code in} or the write fails. Inside the kernel when {@code in} is file-backed (see
     * {@link Streams}). Does not close {@code in}. Options: {@code REPLACE_EXISTING} and
     * {@link SluiceCopyOption#DURABLE}; the new file gets the default permissions.
     *
     * @throws IOException if reading or writing fails; no partial target and no temporary file remain then
     */
    public static long copy(InputStream in, Path target, CopyOption... options) throws IOException {
        return FileCopier.copy(in, target, options);
    }

    /**
     * Writes the whole file {@code source} to {@code out} and returns the number of bytes written, inside the
     * kernel when {@code out} is file-backed (see {@link Streams}). Does not close or flush {@code out}.
     *
     * @throws java.nio.file.NoSuchFileException if {@code source} does not exist
     * @throws IOException if reading or writing fails (bytes already written stay written), or {@code source} is a
     *         directory
     */
    public static long copy(Path source, OutputStream out) throws IOException {
        return FileCopier.copy(source, out);
    }

    /**
     * Finds the first byte where the files {@code a} and {@code b} differ, with the result contract of
     * {@link java.nio.file.Files#mismatch}: -1 when they are equal, else the offset of the first differing byte, or
     * the smaller size when one file is a prefix of the other. The files are read in 256 KiB pieces into direct
     * buffers ({@code sluice.compare.bufferSize}) and compared with vectorized instructions, without the extra
     * copy into heap arrays that {@code Files.mismatch} makes 8 KiB at a time (docs/benchmarks/copy.md has the
     * numbers; the kernel's copy out of the page cache is the floor for both). Sizes are taken when the
     * files are opened; the same file (also through a link) is equal to itself without being read.
     *
     * @throws java.nio.file.NoSuchFileException if either file does not exist, naming it
     * @throws IOException if reading fails, either path is a directory, or a file shrinks while it is compared
     *         (reads, not memory mapping, so this is an exception and never a crash)
     */
    public static long mismatch(Path a, Path b) throws IOException {
        return FileComparator.mismatch(a, b);
    }

    /**
     * Returns whether the files {@code a} and {@code b} hold the same bytes: false at once when their sizes differ,
     * else as {@link #mismatch} reads them. Exceptions as for {@link #mismatch}.
     */
    public static boolean contentEquals(Path a, Path b) throws IOException {
        return FileComparator.contentEquals(a, b);
    }

    /**
     * Feeds the whole file into {@code checksum} and returns {@link Checksum#getValue()}: for example
     * {@code checksum(path, new CRC32C())}. Reads 256 KiB at a time into a direct buffer, which the JDK's
     * {@code CRC32}, {@code CRC32C} and {@code Adler32} digest with their vectorized intrinsics. The checksum is
     * not reset first, so a running checksum can continue over several files; it must not be shared between
     * threads during the call.
     *
     * @throws java.nio.file.NoSuchFileException if the file does not exist, naming it
     * @throws IOException if reading fails or the path is a directory
     */
    public static long checksum(Path file, Checksum checksum) throws IOException {
        return FileComparator.checksum(file, checksum);
    }

    /**
     * Counts the lines, words, chars, bytes and widest line of the text in {@code file} as GNU wc does in a UTF-8
     * locale ({@link TextCounts}: invalid bytes are counted, never an exception). Opens and closes the file.
     *
     * @throws IllegalArgumentException if {@code charset} is not UTF-8, ISO-8859-1 or US-ASCII
     * @throws IOException if the file cannot be opened or read (a directory included)
     */
    public static TextCounts countText(Path file, Charset charset) throws IOException {
        Checks.notNull(file, "file");
        Checks.notNull(charset, "charset");
        try (FileChannel ch = FileChannel.open(file)) {
            return TextCounts.count(ch, charset);
        }
    }

    /**
     * Counts the {@code '\n'} bytes in {@code file}, as {@code wc -l} does ({@link TextCounts#countLines}: any
     * ASCII-compatible charset, nothing decoded, several times faster than {@link #countText}). Opens and closes the
     * file.
     *
     * @throws IOException if the file cannot be opened or read (a directory included)
     */
    public static long countLines(Path file) throws IOException {
        Checks.notNull(file, "file");
        try (FileChannel ch = FileChannel.open(file)) {
            return TextCounts.countLines(ch);
        }
    }

    /**
     * Opens {@code path} for reading text in {@code charset}: a {@link FastReader} (buffered, not thread-safe, closes
     * the file when closed). Its buffer is {@link FastReader#DEFAULT_BUFFER_SIZE}, or the file's size for a smaller
     * file. Malformed input becomes U+FFFD, as {@link java.io.InputStreamReader} replaces it
     * ({@link java.nio.file.Files#newBufferedReader} throws instead: for that, use {@link FastReader#builder} with
     * {@link FastReader.Builder#strict()} on a stream of your own). A byte order mark is kept.
     *
     * @throws IOException if the file cannot be opened; nothing is left open then
     */
    public static FastReader newReader(Path path, Charset charset) throws IOException {
        Checks.notNull(charset, "charset");
        FileChannel ch = openForReading(path);
        try {
            // The size alone (one fstat; a new channel is at 0): the stream's available() would also ask the position,
            // a second system call, which shows on a 4 KiB file (E4).
            long size = sizeOrZero(ch);
            int buffer = size <= 0 ? FastReader.DEFAULT_BUFFER_SIZE // unknown (procfs, pipes): no 16-byte reads
                    : (int) Math.min(FastReader.DEFAULT_BUFFER_SIZE, Math.max(16, size + 1));
            // The file stream reads ahead (one system call per 256 KiB into a pooled direct buffer), so the reader's
            // own refills cost a copy each, not a system call each.
            return FastReader.builder(charset).bufferSize(buffer).build(new ChannelInputStream(ch));
        } catch (Throwable t) {
            closeAfterFailure(ch, t);
            throw t;
        }
    }

    /**
     * Opens or creates {@code path} for writing text in {@code charset}: a {@link FastWriter} (buffered, not
     * thread-safe, flushes and closes the file when closed). Options as {@link java.nio.file.Files#newBufferedWriter}:
     * with none, {@code CREATE}, {@code TRUNCATE_EXISTING} and {@code WRITE}. Unencodable chars become {@code '?'}.
     *
     * @throws IllegalArgumentException if {@code options} contains {@code READ}
     * @throws IOException if the file cannot be opened or created
     */
    public static FastWriter newWriter(Path path, Charset charset, OpenOption... options) throws IOException {
        Checks.notNull(charset, "charset");
        return FastWriter.of(openForWriting(path, options), charset);
    }

    /**
     * The lines of {@code path}, read lazily, with {@link java.io.BufferedReader#readLine()}'s rules; close the stream
     * to close the file. Read errors are thrown as {@link java.io.UncheckedIOException}.
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

    /** The channel's size, or 0 when it has none to tell (0 also means unknown: procfs, pipes); reads will say why. */
    private static long sizeOrZero(FileChannel ch) {
        try {
            return ch.size();
        } catch (IOException e) {
            return 0;
        }
    }

    private static final Set<OpenOption> READ_ONLY = Set.of(StandardOpenOption.READ);
    private static final FileAttribute<?>[] NO_ATTRIBUTES = new FileAttribute<?>[0];

    private static FileChannel openForReading(Path path, OpenOption... options) throws IOException {
        Checks.notNull(path, "path");
        Checks.notNull(options, "options");
        if (options.length == 0) {
            // Constant arguments: FileChannel.open(path, READ) makes a HashSet per call, which shows in the
            // open-read-close of small files (E3), where Files.newInputStream passes an empty set.
            return FileChannel.open(path, READ_ONLY, NO_ATTRIBUTES);
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

    private static void closeAfterFailure(Closeable c, Throwable failure) {
        try {
            c.close();
        } catch (Throwable t) {
            failure.addSuppressed(t);
        }
    }
}
