package dev.sluice.bench.experiments;

import com.google.common.io.ByteStreams;
import dev.sluice.bench.DataFiles;
import dev.sluice.file.FastFiles;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.io.IOUtils;
import org.apache.commons.io.output.NullOutputStream;

/**
 * E7: copy the byte corpus to another file, and compare it with an equal copy, by each common means. Streams are
 * FileInputStream/FileOutputStream unless the variant names another way to open the files. Source E's own set-up,
 * {@code IOUtils.copy(in, NullOutputStream, size)} of a page-cached file, is a comparison of its own
 * ({@link #TO_NULL}); the copies to a new file are the realistic variant beside it.
 *
 * <p>Every copy writes a <em>new</em> target (the old one is deleted inside the timed operation, by every variant
 * alike), so that all copies have the same durability: none is fsynced, none replaces a file by rename. Replacing an
 * existing target is not like-for-like: a rename over it makes ext4 start writeback of the new file at once (its
 * replace-by-rename safety), which FastFiles.copy's atomic temp-file-and-rename pays and a truncating loop or
 * Files.copy (delete first) does not.
 */
final class E7CopyCompare extends Experiment {
    static final String COPY = "copy";
    /** Source E's set-up: IOUtils.copy into a null stream. */
    static final String TO_NULL = "copy into a null stream";
    static final String COMPARE = "contentEquals";
    static final String LOOP_4K = "loop 4 KiB";
    static final String LOOP_8K = "loop 8 KiB";
    static final String LOOP_64K = "loop 64 KiB";
    /** Named for what it is: a copy that readers never see half-written (temp file + rename). */
    static final String ATOMIC = "Sluice FastFiles.copy (atomic: temp file + rename)";
    /** Source A's copyFileNio: FileChannel.transferTo between RandomAccessFile channels. */
    static final String TRANSFER_TO = "FileChannel.transferTo (RandomAccessFile channels)";
    static final String COMMONS = "Commons IO IOUtils";
    static final String FILES_COPY = "Files.copy";
    static final String FILES_MISMATCH = "Files.mismatch";
    static final String GUAVA = "Guava ByteStreams";

    static String ioUtils(int size) {
        return "IOUtils.copy, " + Loops.size(size) + " buffer";
    }

    E7CopyCompare() {
        super("E7", "Copy and compare",
                "Copy and compare buffer sizes (source E: Commons IO raised its default to 8 KiB), and transferTo's CPU "
                        + "(source A).");
    }

    @Override
    public List<Case> cases(Corpus corpus) throws IOException {
        Path src = corpus.bytes();
        long n = Files.size(src);
        Path dst = corpus.scratch("e7-copy");
        Path twin = corpus.scratch("e7-twin");
        if (!Files.exists(twin) || Files.mismatch(src, twin) != -1) {
            // A page at a time, as every data file (DataFiles.inPages); Files.copy's copy_file_range would cache the
            // twin in large folios when memory allows, and the comparisons read it beside src.
            try (InputStream i = Files.newInputStream(src);
                 OutputStream o = DataFiles.inPages(Files.newOutputStream(twin))) {
                i.transferTo(o);
            }
        }
        Corpus.warm(twin);
        List<Case> c = new ArrayList<>();
        for (int size : new int[] {4096, 8192, 16384, 65536}) {
            c.add(new Case(ioUtils(size), TO_NULL, n, () -> {
                try (InputStream i = in(src)) {
                    return IOUtils.copy(i, NullOutputStream.INSTANCE, size);
                }
            }));
        }
        c.add(new Case(LOOP_4K, COPY, n, () -> Loops.copyLoop(in(src), fresh(dst), 4096)));
        c.add(new Case(LOOP_8K, COPY, n, () -> Loops.copyLoop(in(src), fresh(dst), 8192)));
        c.add(new Case(LOOP_64K, COPY, n, () -> Loops.copyLoop(in(src), fresh(dst), 65536)));
        c.add(new Case(TRANSFER_TO, COPY, n, () -> {
            Files.deleteIfExists(dst);
            try (RandomAccessFile from = new RandomAccessFile(src.toFile(), "r");
                 RandomAccessFile to = new RandomAccessFile(dst.toFile(), "rw")) {
                FileChannel in = from.getChannel();
                long pos = 0;
                for (long left = from.length(); left > 0; ) {
                    long done = in.transferTo(pos, left, to.getChannel());
                    pos += done;
                    left -= done;
                }
                return pos;
            }
        }));
        c.add(new Case(COMMONS, COPY, n, () -> {
            try (InputStream i = in(src); OutputStream o = fresh(dst)) {
                return IOUtils.copyLarge(i, o);
            }
        }));
        c.add(new Case(GUAVA, COPY, n, () -> {
            try (InputStream i = in(src); OutputStream o = fresh(dst)) {
                return ByteStreams.copy(i, o);
            }
        }));
        c.add(new Case("InputStream.transferTo", COPY, n, () -> {
            try (InputStream i = in(src); OutputStream o = fresh(dst)) {
                return i.transferTo(o);
            }
        }));
        c.add(new Case(FILES_COPY, COPY, n, () -> {
            Files.deleteIfExists(dst);
            Files.copy(src, dst);
            return Files.size(dst);
        }));
        c.add(new Case("Sluice FastFiles streams transferTo", COPY, n, () -> {
            Files.deleteIfExists(dst);
            try (InputStream i = FastFiles.newInputStream(src); OutputStream o = FastFiles.newOutputStream(dst)) {
                return i.transferTo(o);
            }
        }));
        c.add(new Case(ATOMIC, COPY, n, () -> {
            Files.deleteIfExists(dst);
            FastFiles.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
            return Files.size(dst);
        }));
        c.add(new Case("Sluice Streams.copy", COPY, n, () -> {
            try (InputStream i = in(src); OutputStream o = fresh(dst)) {
                return dev.sluice.io.Streams.copy(i, o);
            }
        }));
        c.add(new Case("Sluice FastFiles.mismatch", COMPARE, n, () -> FastFiles.mismatch(src, twin) == -1 ? 1 : 0));
        c.add(new Case(LOOP_4K, COMPARE, n, () -> Loops.equalsLoop(in(src), in(twin), 4096)));
        c.add(new Case(LOOP_8K, COMPARE, n, () -> Loops.equalsLoop(in(src), in(twin), 8192)));
        c.add(new Case(LOOP_64K, COMPARE, n, () -> Loops.equalsLoop(in(src), in(twin), 65536)));
        c.add(new Case(COMMONS, COMPARE, n, () -> {
            try (InputStream a = in(src); InputStream b = in(twin)) {
                return IOUtils.contentEquals(a, b) ? 1 : 0;
            }
        }));
        c.add(new Case(GUAVA, COMPARE, n,
                () -> com.google.common.io.Files.asByteSource(src.toFile()).contentEquals(
                        com.google.common.io.Files.asByteSource(twin.toFile())) ? 1 : 0));
        c.add(new Case(FILES_MISMATCH, COMPARE, n, () -> Files.mismatch(src, twin) == -1 ? 1 : 0));
        return c;
    }

    private static InputStream in(Path p) throws IOException {
        return new FileInputStream(p.toFile());
    }

    /** A new file at {@code p}: the old one is deleted first, as every copy variant here does. */
    private static OutputStream fresh(Path p) throws IOException {
        Files.deleteIfExists(p);
        return new FileOutputStream(p.toFile());
    }

    @Override
    public List<Claim> claims(Scale s) {
        String e = "Article E: IOUtils.copy of a page-cached 128 MB file into a NullOutputStream, 1000 times, 4 KiB "
                + "against 8 KiB. Here: the same call on the page-cached " + Loops.size(s.corpusBytes()) + " corpus, held by the "
                + "page cache in single 4 KiB pages as on the article's kernel (newer kernels give a file written in large "
                + "pieces large folios, in which 4 KiB reads cost less)";
        Claim.Also toFile = new Claim.Also("loop 8 KiB over loop 4 KiB, copies to a new file (earlier set-up)",
                Claim.Rule.BETTER, 1.31, Claim.Metric.TIME,
                List.of(new Claim.Pair(Claim.at(LOOP_8K, COPY), Claim.at(LOOP_4K, COPY))));
        return List.of(
                new Claim("C02", Claim.Source.A, "A FileChannel.transferTo copy uses about half the CPU of an 8 KiB "
                        + "read/write loop (4% vs 8-9% of the machine).", "2x less CPU", Claim.Rule.BETTER, 2,
                        Claim.Metric.CPU, "Article A: a 4.5 GB file copied on the same disk, CPU load watched. Here: "
                        + "the page-cached " + Loops.size(s.corpusBytes()) + " corpus copied to a new file, CPU time "
                        + "(user + system) of the copying thread: source A's copyFileNio against its 8 KiB loop.",
                        List.of(new Claim.Pair(Claim.at(TRANSFER_TO, COPY), Claim.at(LOOP_8K, COPY))), false, null),
                new Claim("C25", Claim.Source.E, "IOUtils.copy with an 8 KiB buffer is ~31% faster than with 4 KiB.",
                        "1.31x", Claim.Rule.BETTER, 1.31, Claim.Metric.TIME, e + ".",
                        List.of(new Claim.Pair(Claim.at(ioUtils(8192), TO_NULL), Claim.at(ioUtils(4096), TO_NULL))),
                        false, toFile),
                new Claim("C26", Claim.Source.E, "Comparing two files with 8 KiB buffers is ~37% faster than with 4 KiB "
                        + "(IOUtils.contentEquals, IO-649).", "1.37x", Claim.Rule.BETTER, 1.37, Claim.Metric.TIME,
                        "Article E: IOUtils.contentEquals of two streams on the same page-cached file. Here: two "
                        + "FileInputStreams on equal page-cached copies compared with two arrays of 4 or 8 KiB "
                        + "(IOUtils.contentEquals takes no size).",
                        List.of(new Claim.Pair(Claim.at(LOOP_8K, COMPARE), Claim.at(LOOP_4K, COMPARE))), false, null),
                new Claim("C27", Claim.Source.E, "Past 8 KiB the gains diminish: 16 and 64 KiB gain less over 8 KiB "
                        + "than 8 KiB gains over 4 KiB.", "diminishing", Claim.Rule.DIMINISHING, Claim.FASTER,
                        Claim.Metric.TIME, e + "; (8 KiB over 4 KiB) over (the better of 16 and 64 KiB over 8 KiB).",
                        List.of(new Claim.Pair(Claim.at(ioUtils(8192), TO_NULL), Claim.at(ioUtils(4096), TO_NULL),
                                Claim.each(TO_NULL, List.of(ioUtils(16384), ioUtils(65536))))), false, null));
    }

    @Override
    public List<Advice> advice(Scale s) {
        return List.of(
                Advice.code("E7: copies to a new target file, none fsynced (equal durability)",
                        "To copy a file to a new file use %s", List.of(COPY), List.of(), FILES_COPY),
                Advice.code("E7: compare two equal files", "To compare files use %s", List.of(COMPARE), List.of(), FILES_MISMATCH));
    }
}
