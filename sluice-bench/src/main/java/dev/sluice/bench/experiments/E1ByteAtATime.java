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
 * takes a size; Sluice at its default). "plain 8 KiB array" is the unbuffered stream with the caller's own array,
 * handled a byte at a time in a loop: what the buffered classes would cost without their locks and indirection.
 */
final class E1ByteAtATime extends Experiment {
    static final String READ = "read";
    static final String WRITE = "write";
    static final String COPY = "copy";
    static final String JDK = "JDK Buffered*Stream";
    static final String PLAIN = "plain 8 KiB array";

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
        c.add(new Case("Commons IO UnsynchronizedBufferedInputStream", READ, n, () -> Loops.byteAtATime(
                new UnsynchronizedBufferedInputStream.Builder().setInputStream(new FileInputStream(src.toFile())).setBufferSize(8192).get())));
        c.add(new Case("fastutil FastBuffered*Stream", READ, n, () -> Loops.byteAtATime(
                new it.unimi.dsi.fastutil.io.FastBufferedInputStream(new FileInputStream(src.toFile()), 8192))));
        c.add(new Case("Okio buffer()", READ, n, () -> Loops.byteAtATime(okio.Okio.buffer(okio.Okio.source(src)).inputStream())));
        c.add(new Case(PLAIN, READ, n, () -> plainRead(new FileInputStream(src.toFile()))));
        c.add(new Case("Sluice FastBuffered*Stream", READ, n, () -> Loops.byteAtATime(
                new FastBufferedInputStream(new FileInputStream(src.toFile())))));
        // write
        c.add(new Case(JDK, WRITE, n, () -> Loops.writeByteAtATime(new BufferedOutputStream(new FileOutputStream(dst.toFile()), 8192), n)));
        c.add(new Case("fastutil FastBuffered*Stream", WRITE, n, () -> Loops.writeByteAtATime(
                new it.unimi.dsi.fastutil.io.FastBufferedOutputStream(new FileOutputStream(dst.toFile()), 8192), n)));
        c.add(new Case("Okio buffer()", WRITE, n, () -> Loops.writeByteAtATime(okio.Okio.buffer(okio.Okio.sink(dst)).outputStream(), n)));
        c.add(new Case(PLAIN, WRITE, n, () -> plainWrite(new FileOutputStream(dst.toFile()), n)));
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
        c.add(new Case(PLAIN, COPY, n, () -> plainCopy(new FileInputStream(src.toFile()), new FileOutputStream(dst.toFile()))));
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

    private static long plainCopy(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[8192];
        byte[] obuf = new byte[8192];
        long sum = 0;
        int pos = 0;
        try (in; out) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                for (int i = 0; i < n; i++) {
                    if (pos == obuf.length) {
                        out.write(obuf, 0, pos);
                        pos = 0;
                    }
                    int b = buf[i] & 0xff;
                    obuf[pos++] = (byte) b;
                    sum += b;
                }
            }
            out.write(obuf, 0, pos);
        }
        return sum;
    }
}
