package dev.sluice.bench.experiments;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/** The inner loops the experiments share: each touches every byte or char and returns a sum of them. */
final class Loops {
    private Loops() {}

    /** What {@link LoopBody} implements; one implementation per case in the quick harness. */
    interface Body {
        long byteAtATime(InputStream in) throws IOException;

        long sumBytes(InputStream in, int arraySize) throws IOException;

        long sumChars(Reader in) throws IOException;

        long copyByteAtATime(InputStream in, OutputStream out) throws IOException;

        long writeByteAtATime(OutputStream out, long count) throws IOException;

        long copyLoop(InputStream in, OutputStream out, int size) throws IOException;

        long equalsLoop(InputStream a, InputStream b, int size) throws IOException;

        long poll(InputStream in, int piece) throws IOException;

        long drain(InputStream in, int arraySize) throws IOException;

        long readWhileAvailable(InputStream in, int piece) throws IOException;
    }

    /**
     * The copy of every array loop ({@code sumBytes}, {@code sumChars}, {@code copyLoop}, {@code equalsLoop}), and
     * of the byte-at-a-time loops when no harness chose one (JMH runs each case in a JVM of its own). An array loop
     * makes one call per array, so a megamorphic call there costs little, and one copy warmed by every variant
     * measured steadier than a copy per case (three runs with a copy per case for every loop: E4's intervals widened
     * to as much as [0.60, 1.11] in 3 forks × 6 rounds and [0.47, 1.22] in 4 × 4).
     */
    private static final Body SHARED = new LoopBody();
    private static Body current = SHARED;

    /**
     * A copy of {@link LoopBody} of its own: a hidden class defined from the same bytes, with its own JIT profile and
     * compiled code.
     */
    static Body isolated() {
        try (InputStream in = LoopBody.class.getResourceAsStream("LoopBody.class")) {
            if (in == null) {
                throw new IllegalStateException("LoopBody.class not found beside " + Loops.class.getName());
            }
            MethodHandles.Lookup copy = MethodHandles.lookup().defineHiddenClass(in.readAllBytes(), true);
            return (Body) copy.findConstructor(copy.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot copy LoopBody: " + e, e);
        }
    }

    /**
     * Makes the byte-at-a-time loops below ({@code byteAtATime}, {@code copyByteAtATime}, {@code writeByteAtATime},
     * {@code poll}, {@code readWhileAvailable}) run {@code body}, the copy of the case about to be measured; one harness thread at a time.
     */
    static void use(Body body) {
        current = body == null ? SHARED : body;
    }

    /** Reads {@code in} one byte at a time with {@code read()}; closes it. */
    static long byteAtATime(InputStream in) throws IOException {
        return current.byteAtATime(in);
    }

    /** Reads {@code in} into an array of {@code arraySize}, adding up every byte; closes it. */
    static long sumBytes(InputStream in, int arraySize) throws IOException {
        return SHARED.sumBytes(in, arraySize);
    }

    /**
     * As {@link #sumBytes}, the sum made by {@link Sink#addUp}, one call per array read: the same code for every
     * variant of a comparison, whatever the JIT made of each variant's workload (E3: see {@link Sink}).
     */
    static long sumBytesOutOfLine(InputStream in, int arraySize) throws IOException {
        byte[] buf = new byte[arraySize];
        long sum = 0;
        try (in) {
            int n;
            while ((n = in.read(buf, 0, buf.length)) >= 0) {
                sum += Sink.addUp(buf, n);
            }
        }
        return sum;
    }

    /** Reads {@code in} into a char array of 8 KiB, adding up every char; closes it. */
    static long sumChars(Reader in) throws IOException {
        return SHARED.sumChars(in);
    }

    /** Copies one byte at a time with {@code read()} and {@code write(int)}; closes both. Returns the byte sum. */
    static long copyByteAtATime(InputStream in, OutputStream out) throws IOException {
        return current.copyByteAtATime(in, out);
    }

    /** Writes {@code count} bytes one at a time with {@code write(int)}; closes the stream. Returns their sum. */
    static long writeByteAtATime(OutputStream out, long count) throws IOException {
        return current.writeByteAtATime(out, count);
    }

    /** The classic read/write loop with one array of {@code size}; closes both. Returns bytes copied. */
    static long copyLoop(InputStream in, OutputStream out, int size) throws IOException {
        return SHARED.copyLoop(in, out, size);
    }

    /** Compares two streams with two arrays of {@code size}; closes both. Returns 1 if equal, 0 if not. */
    static long equalsLoop(InputStream a, InputStream b, int size) throws IOException {
        return SHARED.equalsLoop(a, b, size);
    }

    /** Reads in pieces, asking {@code available()} after each (experiment E6); closes the stream. */
    static long poll(InputStream in, int piece) throws IOException {
        return current.poll(in, piece);
    }

    /** Reads {@code in} into an array of {@code arraySize} with no per-byte work; closes it. Returns bytes read. */
    static long drain(InputStream in, int arraySize) throws IOException {
        return SHARED.drain(in, arraySize);
    }

    /** Source A's available() loop (experiment E6): read(buf) while available() is not 0; closes the stream. */
    static long readWhileAvailable(InputStream in, int piece) throws IOException {
        return current.readWhileAvailable(in, piece);
    }

    static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        if (bytes >= 1_000_000 && bytes % 1_000_000 == 0) {
            return (bytes / 1_000_000) + " MB";
        }
        if (bytes >= 1000 && bytes % 1000 == 0) {
            return (bytes / 1000) + " KB";
        }
        return bytes + " B";
    }
}
