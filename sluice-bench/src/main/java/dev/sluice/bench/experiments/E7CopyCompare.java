package dev.sluice.bench.experiments;

import com.google.common.io.ByteStreams;
import dev.sluice.file.FastFiles;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.io.IOUtils;

/**
 * E7: copy the byte corpus to another file, and compare it with an equal copy, by each common means. Streams are
 * FileInputStream/FileOutputStream unless the variant names another way to open the files.
 *
 * <p>Every copy writes a <em>new</em> target (the old one is deleted inside the timed operation, by every variant
 * alike), so that all copies have the same durability: none is fsynced, none replaces a file by rename. Replacing an
 * existing target is not like-for-like: a rename over it makes ext4 start writeback of the new file at once (its
 * replace-by-rename safety), which FastFiles.copy's atomic temp-file-and-rename pays and a truncating loop or
 * Files.copy (delete first) does not.
 */
final class E7CopyCompare extends Experiment {
    static final String COPY = "copy";
    static final String COMPARE = "contentEquals";
    static final String LOOP_4K = "loop 4 KiB";
    static final String LOOP_8K = "loop 8 KiB";
    static final String LOOP_64K = "loop 64 KiB";
    /** Named for what it is: a copy that readers never see half-written (temp file + rename). */
    static final String ATOMIC = "Sluice FastFiles.copy (atomic: temp file + rename)";

    E7CopyCompare() {
        super("E7", "Copy and compare",
                "An 8 KiB copy buffer is about 30% faster than a 4 KiB one (Commons IO raised its default for it).");
    }

    @Override
    public List<Case> cases(Corpus corpus) throws IOException {
        Path src = corpus.bytes();
        long n = Files.size(src);
        Path dst = corpus.scratch("e7-copy");
        Path twin = corpus.scratch("e7-twin");
        if (!Files.exists(twin) || Files.mismatch(src, twin) != -1) {
            Files.copy(src, twin, StandardCopyOption.REPLACE_EXISTING);
        }
        Corpus.warm(twin);
        List<Case> c = new ArrayList<>();
        c.add(new Case(LOOP_4K, COPY, n, () -> Loops.copyLoop(in(src), fresh(dst), 4096)));
        c.add(new Case(LOOP_8K, COPY, n, () -> Loops.copyLoop(in(src), fresh(dst), 8192)));
        c.add(new Case(LOOP_64K, COPY, n, () -> Loops.copyLoop(in(src), fresh(dst), 65536)));
        c.add(new Case("Commons IO IOUtils", COPY, n, () -> {
            try (InputStream i = in(src); OutputStream o = fresh(dst)) {
                return IOUtils.copyLarge(i, o);
            }
        }));
        c.add(new Case("Guava ByteStreams", COPY, n, () -> {
            try (InputStream i = in(src); OutputStream o = fresh(dst)) {
                return ByteStreams.copy(i, o);
            }
        }));
        c.add(new Case("InputStream.transferTo", COPY, n, () -> {
            try (InputStream i = in(src); OutputStream o = fresh(dst)) {
                return i.transferTo(o);
            }
        }));
        c.add(new Case("Files.copy", COPY, n, () -> {
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
        c.add(new Case("Commons IO IOUtils", COMPARE, n, () -> {
            try (InputStream a = in(src); InputStream b = in(twin)) {
                return IOUtils.contentEquals(a, b) ? 1 : 0;
            }
        }));
        c.add(new Case("Guava ByteStreams", COMPARE, n,
                () -> com.google.common.io.Files.asByteSource(src.toFile()).contentEquals(
                        com.google.common.io.Files.asByteSource(twin.toFile())) ? 1 : 0));
        c.add(new Case("Files.mismatch", COMPARE, n, () -> Files.mismatch(src, twin) == -1 ? 1 : 0));
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
}
