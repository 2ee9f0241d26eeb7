package dev.sluice.cli;

import dev.sluice.gzip.GzipIndex;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice extract FILE.gz --offset N --length M}: writes bytes {@code [N, N+M)} of FILE's uncompressed data to
 * stdout through its {@link GzipIndex}: {@code --index}, else {@code FILE.gz.sgzi}, else {@code FILE.gz.gzidx}, else
 * gztool's {@code FILE.gzi}, else one built in memory (a full pass over the file; save one with {@code sluice index}).
 */
@Command(name = "extract", mixinStandardHelpOptions = true,
        description = {"Write a byte range of a gzip FILE's uncompressed data to stdout, using its index.",
            "The index is --index, else FILE.sgzi, else FILE.gzidx (from 'sluice index'), else gztool's index (FILE"
                + " without .gz, plus .gzi), else built in memory.",
            "A range past the end is cut at the end.",
            "Exit status: 0 ok; 2 trouble: a usage error (a negative or too large -s or -n included), or an"
                + " unreadable or corrupt FILE or index; 141, with no message, if stdout is a pipe whose reader has"
                + " gone (as a shell reports a C tool killed by SIGPIPE)."})
final class ExtractCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE.gz")
    Path file;

    @Option(names = {"-s", "--offset"}, paramLabel = "N", defaultValue = "0",
            description = "First uncompressed byte to write (default 0).")
    long offset;

    @Option(names = {"-n", "--length"}, paramLabel = "M",
            description = "Bytes to write (default: to the end).")
    Long length;

    @Option(names = {"-i", "--index"}, paramLabel = "INDEX",
            description = "Index file (Sluice's, indexed_gzip's or gztool's).")
    Path index;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Write to OUT instead of stdout.")
    Path output;

    @Override
    public Integer call() throws IOException {
        if (offset < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--offset must not be negative: " + offset);
        }
        if (length != null && length < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--length must not be negative: " + length);
        }
        GzipIndex ix = index != null ? GzipIndex.load(index) : findIndex(file);
        try {
            extract(ix);
        } catch (IOException e) {
            if (output == null && GzipFiles.brokenPipe(e)) {
                return GzipFiles.BROKEN_PIPE; // `sluice extract big.gz | head`: quiet, as the C tools
            }
            throw e;
        }
        return 0;
    }

    /** Writes the range through {@code ix} to {@link #output} or stdout. */
    private void extract(GzipIndex ix) throws IOException {
        try (SeekableByteChannel ch = ix.openChannel(file);
                OutputStream sink = output != null ? Files.newOutputStream(output)
                        : new FileOutputStream(FileDescriptor.out)) {
            long end = length == null ? ch.size()
                    : Math.min(ch.size(), offset + Math.min(length, Long.MAX_VALUE - offset));
            ch.position(offset);
            ByteBuffer buf = ByteBuffer.allocate(256 * 1024);
            for (long p = offset; p < end; ) {
                buf.clear().limit((int) Math.min(buf.capacity(), end - p));
                int n = ch.read(buf);
                if (n <= 0) {
                    break;
                }
                sink.write(buf.array(), 0, n);
                p += n;
            }
            sink.flush();
        }
    }

    static GzipIndex findIndex(Path gz) throws IOException {
        Path beside = IndexBeside.beside(gz);
        return beside != null ? GzipIndex.load(beside) : GzipIndex.build(gz);
    }
}
