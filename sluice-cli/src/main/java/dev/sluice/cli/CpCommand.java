package dev.sluice.cli;

import dev.sluice.file.FastFiles;
import dev.sluice.file.SluiceCopyOption;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice cp SRC DST}: {@link FastFiles#copy(Path, Path, CopyOption...)} from the command line. Like
 * {@code cp}, an existing DST is replaced and a DST that is a directory receives SRC under its own name; unlike
 * {@code cp}, the copy is put in place atomically, so an interrupted copy leaves the old DST (or none).
 */
@Command(name = "cp", mixinStandardHelpOptions = true,
        description = {"Copy a file inside the kernel, atomically: the copy is written to a temporary file next to "
                + "DST and renamed into place, so an interrupted copy never leaves a partial DST.",
            "A progress bar is shown on a terminal for files of 64 MiB or more."})
final class CpCommand implements Callable<Integer> {

    /** Files smaller than this copy in well under a second from the page cache: a progress bar would only flicker. */
    static final long PROGRESS_THRESHOLD = 64L << 20;

    @Parameters(index = "0", paramLabel = "SRC", description = "The file to copy.")
    Path source;

    @Parameters(index = "1", paramLabel = "DST", description = "The target file, or a directory to copy into.")
    Path target;

    @Option(names = {"-n", "--no-clobber"}, description = "Fail instead of replacing an existing DST.")
    boolean noClobber;

    @Option(names = "--sync", description = "Force the copy to the storage device before it replaces DST.")
    boolean sync;

    @Option(names = {"-p", "--preserve"}, description = "Keep the modification and access times (and the mode, "
            + "which is always kept).")
    boolean preserve;

    /**
     * The common form, {@code sluice cp [-n] [-p] SRC DST}, without picocli (see {@link PlainForm}).
     *
     * @return the exit code, or null when picocli must handle these arguments
     */
    static Integer runPlainForm(String[] args, PrintWriter err) {
        if (args.length < 3 || !args[0].equals("cp")) {
            return null;
        }
        CpCommand c = new CpCommand();
        Plain plain = c.new Plain();
        List<String> names = PlainForm.parse(args, plain);
        if (names == null || names.size() != 2) {
            return null;
        }
        try {
            c.source = Path.of(names.get(0));
            c.target = Path.of(names.get(1));
        } catch (InvalidPathException e) {
            return null; // picocli reports the argument it cannot convert
        }
        return PlainForm.run(plain, null, err, Main.EXIT_TROUBLE);
    }

    /** The plain form's options (-n, -p) and work. */
    private final class Plain implements PlainForm.Options, PlainForm.Body {
        @Override
        public boolean letter(char ch) {
            if (ch == 'n') {
                noClobber = true;
            } else if (ch == 'p') {
                preserve = true;
            } else {
                return false;
            }
            return true;
        }

        @Override
        public int run(PrintWriter unused, PrintWriter err) throws IOException {
            return call();
        }
    }

    @Override
    public Integer call() throws IOException {
        Path dst = Files.isDirectory(target) && !Files.isDirectory(source)
                ? target.resolve(source.getFileName().toString()) : target;
        List<CopyOption> opts = new ArrayList<>();
        if (!noClobber) {
            opts.add(StandardCopyOption.REPLACE_EXISTING);
        }
        if (sync) {
            opts.add(SluiceCopyOption.DURABLE);
        }
        if (preserve) {
            opts.add(StandardCopyOption.COPY_ATTRIBUTES);
        }
        CopyOption[] options = opts.toArray(new CopyOption[0]);
        long size = Files.isRegularFile(source) ? Files.size(source) : 0;
        if (size < PROGRESS_THRESHOLD || !GzipFiles.Terminals.interactive()) {
            FastFiles.copy(source, dst, options);
            return 0;
        }
        try (ProgressBar bar = new ProgressBarBuilder().setTaskName("cp").setInitialMax(size)
                .setUnit("MiB", 1 << 20).setStyle(ProgressBarStyle.ASCII).showSpeed().build()) {
            FastFiles.copy(source, dst, bar::stepTo, options);
        }
        return 0;
    }
}
