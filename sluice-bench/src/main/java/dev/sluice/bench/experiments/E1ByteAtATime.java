package dev.sluice.bench.experiments;

import dev.sluice.io.FastBufferedInputStream;
import dev.sluice.io.FastBufferedOutputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.io.input.UnsynchronizedBufferedInputStream;

/**
 * E1: read, write and copy a file one byte at a time through each buffered stream (8 KiB buffers where the class
 * takes a size; Sluice at its default). Source B's set-up: its buffered program copies a byte at a time through
 * BufferedInputStream/BufferedOutputStream, its plain one copies with an 8 KiB array over FileInputStream/
 * FileOutputStream and does nothing with the bytes ({@link #ARRAY_COPY}). "plain 8 KiB array" (read, write) is the
 * unbuffered stream with the caller's own array, handled a byte at a time: a reference line, not a stream.
 */
final class E1ByteAtATime extends Experiment {
    static final String READ = "read";
    static final String WRITE = "write";
    static final String COPY = "copy";
    static final String JDK = "JDK Buffered*Stream";
    static final String PLAIN = "plain 8 KiB array";
    /** Source B's plain program: read(byte[8192]) and write the array, over the unbuffered file streams. */
    static final String ARRAY_COPY = "FileInput/OutputStream, 8 KiB array (source B's loop)";
    static final String COMMONS = "Commons IO UnsynchronizedBufferedInputStream";
    /** The unsynchronized buffered streams that both read and write (Commons IO's only reads). */
    static final List<String> UNSYNCHRONIZED = List.of("fastutil FastBuffered*Stream", "Okio buffer()",
            "Sluice FastBuffered*Stream");

    E1ByteAtATime() {
        super("E1", "Byte-at-a-time I/O through buffered streams",
                "BufferedInputStream/BufferedOutputStream are about 3x slower than unsynchronized buffers for "
                        + "byte-at-a-time I/O, because every call takes a lock.");
    }

    @Override
    public List<Case> cases(Corpus corpus) throws IOException {
        Path src = corpus.bytes(corpus.scale().byteLoopBytes());
        long n = Files.size(src);
        Path dst = corpus.scratch("e1");
        List<Case> c = new ArrayList<>();
        // read
        c.add(new Case(JDK, READ, n, () -> Loops.byteAtATime(new BufferedInputStream(new FileInputStream(src.toFile()), 8192))));
        c.add(new Case(COMMONS, READ, n, () -> Loops.byteAtATime(
                new UnsynchronizedBufferedInputStream.Builder().setInputStream(new FileInputStream(src.toFile())).setBufferSize(8192).get())));
        c.add(new Case("fastutil FastBuffered*Stream", READ, n, () -> Loops.byteAtATime(
                new it.unimi.dsi.fastutil.io.FastBufferedInputStream(new FileInputStream(src.toFile()), 8192))));
        c.add(new Case("Okio buffer()", READ, n, () -> Loops.byteAtATime(okio.Okio.buffer(okio.Okio.source(src)).inputStream())));
        c.add(new Case(PLAIN, READ, n, () -> plainRead(new FileInputStream(src.toFile())), false, true));
        c.add(new Case("Sluice FastBuffered*Stream", READ, n, () -> Loops.byteAtATime(
                new FastBufferedInputStream(new FileInputStream(src.toFile())))));
        // write
        c.add(new Case(JDK, WRITE, n, () -> Loops.writeByteAtATime(new BufferedOutputStream(new FileOutputStream(dst.toFile()), 8192), n)));
        c.add(new Case("fastutil FastBuffered*Stream", WRITE, n, () -> Loops.writeByteAtATime(
                new it.unimi.dsi.fastutil.io.FastBufferedOutputStream(new FileOutputStream(dst.toFile()), 8192), n)));
        c.add(new Case("Okio buffer()", WRITE, n, () -> Loops.writeByteAtATime(okio.Okio.buffer(okio.Okio.sink(dst)).outputStream(), n)));
        c.add(new Case(PLAIN, WRITE, n, () -> plainWrite(new FileOutputStream(dst.toFile()), n), false, true));
        c.add(new Case("Sluice FastBuffered*Stream", WRITE, n, () -> Loops.writeByteAtATime(
                new FastBufferedOutputStream(new FileOutputStream(dst.toFile())), n)));
        // copy
        c.add(new Case(JDK, COPY, n, () -> Loops.copyByteAtATime(new BufferedInputStream(new FileInputStream(src.toFile()), 8192),
                new BufferedOutputStream(new FileOutputStream(dst.toFile()), 8192))));
        c.add(new Case("fastutil FastBuffered*Stream", COPY, n, () -> Loops.copyByteAtATime(
                new it.unimi.dsi.fastutil.io.FastBufferedInputStream(new FileInputStream(src.toFile()), 8192),
                new it.unimi.dsi.fastutil.io.FastBufferedOutputStream(new FileOutputStream(dst.toFile()), 8192))));
        c.add(new Case("Okio buffer()", COPY, n, () -> Loops.copyByteAtATime(
                okio.Okio.buffer(okio.Okio.source(src)).inputStream(), okio.Okio.buffer(okio.Okio.sink(dst)).outputStream())));
        c.add(new Case(ARRAY_COPY, COPY, n, () -> Loops.copyLoop(new FileInputStream(src.toFile()),
                new FileOutputStream(dst.toFile()), 8192), false, true));
        c.add(new Case("Sluice FastBuffered*Stream", COPY, n, () -> Loops.copyByteAtATime(
                new FastBufferedInputStream(new FileInputStream(src.toFile())),
                new FastBufferedOutputStream(new FileOutputStream(dst.toFile())))));
        return c;
    }

    /** The caller's own 8 KiB array, each byte handled in the loop: buffering without a stream class. */
    private static long plainRead(InputStream in) throws IOException {
        return Loops.sumBytes(in, 8192);
    }

    private static long plainWrite(OutputStream out, long count) throws IOException {
        byte[] buf = new byte[8192];
        long sum = 0;
        int pos = 0;
        try (out) {
            for (long i = 0; i < count; i++) {
                int b = (int) (i * 31 + (i >>> 9)) & 0xff;
                if (pos == buf.length) {
                    out.write(buf, 0, pos);
                    pos = 0;
                }
                buf[pos++] = (byte) b;
                sum += b;
            }
            out.write(buf, 0, pos);
        }
        return sum;
    }

    @Override
    public List<Claim> claims(Scale scale) {
        return List.of(
                new Claim("C11", Claim.Source.B, "A copy with an 8 KiB array over plain FileInputStream/FileOutputStream "
                        + "is ~3.3x faster than a byte-at-a-time copy through BufferedInputStream/BufferedOutputStream.",
                        "3.3x (170 s vs 52 s)", Claim.Rule.BETTER, 170.0 / 52, Claim.Metric.TIME,
                        "Article: a ~700 MB film copied on a Windows disk, each program run once. Here: a page-cached "
                                + Loops.size(scale.byteLoopBytes()) + " file copied to a new file, the same two loops "
                                + "(the array loop writes only the bytes read).",
                        List.of(new Claim.Pair(Claim.at(ARRAY_COPY, COPY), Claim.at(JDK, COPY))), false, null),
                new Claim("C12", Claim.Source.B, "Byte-at-a-time copies through unsynchronized buffered streams are "
                        + "~3x faster than through the JDK's synchronized ones (the lock is the cost).",
                        "3x", Claim.Rule.BETTER, 3, Claim.Metric.TIME,
                        "Article: names synchronization as the cause without measuring it. Here: the same byte-at-a-time "
                                + "copy loop through the fastest of fastutil, Okio and Sluice's unsynchronized streams "
                                + "against the JDK's, 8 KiB buffers.",
                        List.of(new Claim.Pair(Claim.each(COPY, UNSYNCHRONIZED), Claim.at(JDK, COPY))), false, null));
    }

    @Override
    public List<Advice> advice(Scale scale) {
        List<Advice> out = new java.util.ArrayList<>();
        for (String p : List.of(READ, WRITE, COPY)) {
            List<String> candidates = new java.util.ArrayList<>(List.of(JDK));
            if (p.equals(READ)) {
                candidates.add(COMMONS);
            }
            candidates.addAll(UNSYNCHRONIZED);
            out.add(Advice.code("E1: buffered streams, byte-at-a-time " + p + ", 8 KiB buffers",
                    "To " + p + " a byte at a time through a stream use %s", List.of(p), candidates, JDK));
        }
        return out;
    }
}
