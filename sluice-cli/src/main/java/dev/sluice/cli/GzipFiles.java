package dev.sluice.cli;

import dev.sluice.file.FastFiles;
import dev.sluice.gzip.GzipStats;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * What {@code sluice gzip} and {@code sluice gunzip} share: gzip's exit codes (0 ok, 1 error or usage error, 2
 * warning; an error wins over a warning; a failing file does not stop the next one), messages in gzip's words, and
 * safe output. Output goes to a temporary file in the target's directory that is renamed over the target only once it
 * is complete and closed, so a failure or Ctrl-C never leaves a partial file; the input is removed only after that
 * rename.
 */
final class GzipFiles {
    static final int OK = 0;
    static final int ERROR = 1;
    static final int WARNING = 2;
    /**
     * The exit status once stdout is a pipe whose reader has gone ({@code sluice gunzip -c big.gz | head}): 141, what
     * a shell reports for gzip there (killed by SIGPIPE: 128 + 13), and no message, as gzip prints none. The JVM
     * ignores SIGPIPE, so the write fails with EPIPE instead, which the JDK reports as an IOException whose message
     * is the C library's "Broken pipe".
     */
    static final int BROKEN_PIPE = 141;

    /** What {@code --help} of both commands says about several files and the exit status. */
    static final String FILES_AND_EXIT_STATUS = "Each FILE is done on its own: one that cannot be read or is corrupt"
            + " is reported on stderr, left as it was (no partial output), and the next FILE is still done."
            + "%nExit status (as gzip): 0 ok; 1 if any FILE failed or the command line is wrong (a usage error);"
            + " 2 if there were only warnings (trailing garbage, a directory or a name skipped); 141, with no"
            + " message, if stdout is a pipe whose reader has gone (as a shell reports gzip, killed by SIGPIPE).";

    /** Files at least this large get a progress bar when stderr is a terminal. */
    static final long PROGRESS_THRESHOLD = 64L << 20;

    /** Temporary files to delete if the JVM is stopped (Ctrl-C) while they are written. */
    private static final Set<Path> TEMPS = ConcurrentHashMap.newKeySet();

    static {
        // A Thread subclass, not a lambda: linking the first lambda of a run costs milliseconds of start-up.
        Runtime.getRuntime().addShutdownHook(new Thread("sluice-gzip-cleanup") {
            @Override
            public void run() {
                for (Path p : TEMPS) {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException | RuntimeException e) {
                        // best effort while the JVM goes down
                    }
                }
            }
        });
    }

    /** Copies input to output; the caller picks the gzip stream on either side. */
    interface Transform {
        /** Returns true if the data was fine but worth a warning (trailing garbage after gunzip). */
        boolean apply(InputStream in, OutputStream out) throws IOException;

        /**
         * True if {@link #apply} never closes {@code out}: it then gets stdout itself, a plain
         * {@code FileOutputStream} through whose channel {@code GzipInputStream.transferTo} writes a native decoder's
         * output from its memory (no copy into an array and none into the JDK's native write buffer), rather than a
         * wrapper that only guards stdout against {@code close()}.
         */
        default boolean keepsOutputOpen() {
            return false;
        }
    }

    private final PrintWriter err;
    private int exit = OK;
    InputStream stdin = System.in;
    OutputStream stdout = new FileOutputStream(FileDescriptor.out);

    GzipFiles(PrintWriter err) {
        this.err = err;
    }

    int exit() {
        err.flush();
        return exit;
    }

    /** Reports an error (exit status 1); nothing once stdout's pipe has gone, where gzip would have died already. */
    void error(String message) {
        if (exit == BROKEN_PIPE) {
            return;
        }
        err.println("sluice: " + message);
        exit = ERROR;
    }

    /** Reports a warning (exit status 2 unless there is an error); nothing once stdout's pipe has gone. */
    void warning(String message) {
        if (exit == BROKEN_PIPE) {
            return;
        }
        err.println("sluice: " + message);
        if (exit == OK) {
            exit = WARNING;
        }
    }

    /**
     * Whether {@code e} (or a cause) is the failed write to a pipe whose reader has gone. Only writes fail so (a read
     * from a pipe ends at EOF), and a run writes to a pipe only on stdout.
     */
    static boolean brokenPipe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException && "Broken pipe".equals(t.getMessage())) {
                return true;
            }
        }
        return false;
    }

    /** Reports {@code e} for {@code what} as an error, or, for a closed pipe on stdout, ends quietly with 141. */
    private void failed(String what, IOException e) {
        if (brokenPipe(e)) {
            exit = BROKEN_PIPE;
        } else {
            error(what + ": " + Main.describe(e));
        }
    }

    void note(String message) {
        err.println("sluice: " + message);
    }

    /** Prints a run's figures ({@code --stats}): {@link GzipStats#line()}, one line on standard error. */
    void stats(GzipStats stats) {
        err.println(stats.line());
        err.flush();
    }

    /** The sink of a run, counting the bytes written through it (for {@code gzip --stats}). */
    static final class CountingOutput extends java.io.FilterOutputStream {
        long count;

        CountingOutput(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }

    /**
     * True if {@code file} is a regular file to work on; otherwise reports why not, in gzip's words. As gzip, a
     * symbolic link is followed only with {@code force}: replacing a link by a compressed copy surprises people.
     */
    boolean checkInput(Path file, boolean force) {
        if (!force && Files.isSymbolicLink(file)) {
            error(file + ": Too many levels of symbolic links");
            return false;
        }
        if (Files.isDirectory(file)) {
            warning(file + " is a directory -- ignored");
            return false;
        }
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            error(file + ": No such file or directory");
            return false;
        }
        if (!Files.isRegularFile(file)) {
            warning(file + " is not a directory or a regular file - ignored");
            return false;
        }
        return true;
    }

    /** Runs {@code t} from stdin to stdout (never closing stdout); failures are errors naming "stdin". */
    void standardStreams(Transform t) {
        try {
            boolean warn = t.apply(stdin, stdoutFor(t));
            stdout.flush();
            if (warn) {
                warning("stdin: decompression OK, trailing garbage ignored");
            }
        } catch (IOException e) {
            failed("stdin", e);
        }
    }

    /** Runs {@code t} from {@code source} to stdout; {@code source} stays. */
    void toStdout(Path source, Transform t) {
        try (InputStream in = open(source)) {
            if (t.apply(in, stdoutFor(t))) {
                warning(source + ": decompression OK, trailing garbage ignored");
            }
            stdout.flush();
        } catch (IOException e) {
            failed(source.toString(), e);
        }
    }

    /** Stdout as {@code t} may get it: itself if {@code t} never closes it, else a wrapper whose close only flushes. */
    private OutputStream stdoutFor(Transform t) {
        return t.keepsOutputOpen() ? stdout : uncloseable(stdout);
    }

    /**
     * Runs {@code t} from {@code source} into {@code target} through a temporary file, copies the source's time and
     * permissions, renames, then removes the source unless {@code keep}.
     */
    void toFile(Path source, Path target, boolean force, boolean keep, Transform t) {
        if (!force && Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            warning(target + " already exists; not overwritten");
            return;
        }
        Path dir = target.toAbsolutePath().getParent();
        Path temp = null;
        try {
            temp = Files.createTempFile(dir, "." + target.getFileName(), ".sluice-tmp");
            TEMPS.add(temp);
            boolean warn;
            // A FileOutputStream, not Files.newOutputStream: GzipInputStream.transferTo writes a native decoder's
            // output straight from its memory through a FileOutputStream's channel, without copying it to an array.
            try (InputStream in = open(source); OutputStream out = new FileOutputStream(temp.toFile())) {
                warn = t.apply(in, out);
            }
            copyAttributes(source, temp);
            if (!force && Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(target.toString());
            }
            move(temp, target);
            TEMPS.remove(temp);
            temp = null;
            if (warn) {
                warning(source + ": decompression OK, trailing garbage ignored");
            }
            if (!keep) {
                Files.delete(source);
            }
        } catch (IOException e) {
            error(source + ": " + Main.describe(e));
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException e) {
                    note("could not remove temporary file " + temp + ": " + e.getMessage());
                }
                TEMPS.remove(temp);
            }
        }
    }

    private static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** As gzip does: the output gets the input's modification time and permission bits. */
    private static void copyAttributes(Path source, Path target) throws IOException {
        FileTime time = Files.getLastModifiedTime(source);
        Files.setLastModifiedTime(target, time);
        try {
            Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(source));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: keep the default permissions
        }
    }

    /** Opens a file for reading, with a progress bar on stderr when it is large and stderr is a terminal. */
    private static InputStream open(Path source) throws IOException {
        // Sluice's file stream: it reads ahead 256 KiB per system call, and its transferTo copies through a 64 KiB
        // buffer (the JDK's stream makes one system call and one write per 8 KiB).
        InputStream in = FastFiles.newUnbufferedInputStream(source);
        long size = Files.size(source);
        if (size < PROGRESS_THRESHOLD || !Terminals.interactive()) {
            return in;
        }
        ProgressBar bar = new ProgressBarBuilder().setTaskName(source.getFileName().toString())
                .setInitialMax(size).setUnit("MiB", 1 << 20).showSpeed().build();
        return new FilterInputStream(in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n > 0) {
                    bar.stepBy(n);
                }
                return n;
            }

            @Override
            public void close() throws IOException {
                bar.close();
                super.close();
            }
        };
    }

    /** An output stream whose close() only flushes: stdout must survive the gzip stream around it. */
    static OutputStream uncloseable(OutputStream out) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        };
    }

    /** The file name for FNAME if ISO-8859-1 can hold it (RFC 1952), else null. */
    static String headerName(Path file) {
        String name = file.getFileName().toString();
        return StandardCharsets.ISO_8859_1.newEncoder().canEncode(name) && name.indexOf('\0') < 0 ? name : null;
    }

    /** An input stream whose close() does nothing: the caller closes the source it opened. */
    static InputStream uncloseable(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return in.read(b, off, len);
            }

            @Override
            public void close() {
                // the owner of the source closes it
            }
        };
    }

    /** Terminal detection that also works on JDK 22+, where System.console() is non-null when redirected. */
    static final class Terminals {
        private Terminals() {}

        static boolean interactive() {
            java.io.Console c = System.console();
            if (c == null) {
                return false;
            }
            try {
                return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
            } catch (NoSuchMethodException e) {
                return true; // JDK < 22: a console exists only when stdin and stdout are terminals
            } catch (ReflectiveOperationException | RuntimeException e) {
                return false;
            }
        }
    }
}
