package dev.sluice.text;

import dev.sluice.internal.Checks;
import dev.sluice.internal.DirectBuffers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.Charset;

/**
 * The lines, words, chars, bytes and widest line of a text, counted as GNU coreutils' {@code wc -lwmcL} counts them
 * in a UTF-8 locale ({@code LC_ALL=C.UTF-8}; coreutils 9.1 on glibc 2.36, whose character classes and widths
 * {@code CharClasses} carries, so the answers do not depend on the JDK's Unicode version):
 * <ul>
 *   <li>{@link #lines()}: '\n' bytes (a last line without one is not counted);</li>
 *   <li>{@link #words()}: runs of printable chars between white space (ASCII's and Unicode's, no-break spaces
 *       included); a char that is not printable (a control, NUL, an unassigned code point) neither starts nor ends a
 *       word;</li>
 *   <li>{@link #chars()}: chars that decode; a byte that is not part of a valid sequence (or a sequence cut by the end
 *       of the input) counts as no char and changes nothing else, as in wc;</li>
 *   <li>{@link #maxLineWidth()}: the widest line in display columns (wcwidth: 2 for East Asian wide chars, 0 for
 *       combining marks; a tab to the next multiple of 8; '\r' and '\f' end a line's width as '\n' does).</li>
 * </ul>
 * Bad input is never an exception: malformed text is counted as wc counts it. UTF-8 is decoded as glibc does (one to
 * six bytes, up to 0x7FFFFFFF, neither overlong nor a surrogate); ISO-8859-1 bytes are U+0000..U+00FF; in US-ASCII a
 * byte above 0x7F does not decode. Other charsets are an {@link IllegalArgumentException}.
 *
 * <p>The {@code count} methods read to the end of the input in chunks of 64 KiB (no need to buffer the input), leave a
 * stream or channel they are given open and where it ended, and keep no state between calls: they may run on many
 * threads at once. A {@code TextCounts} is an immutable value.
 *
 * <p>On a file: {@code FastFiles.countText(path, charset)}.
 *
 * <pre>{@code
 * TextCounts c = TextCounts.count(System.in, StandardCharsets.UTF_8);
 * System.out.println(c.lines() + " lines, " + c.words() + " words, widest " + c.maxLineWidth());
 * }</pre>
 */
public final class TextCounts {
    /** Bytes read per call: the JDK's own chunk for reading a FileChannel into a heap buffer is at least this. */
    private static final int CHUNK = 64 * 1024;

    /** The counts of an empty input, and the identity of {@link #plus}. */
    public static final TextCounts EMPTY = new TextCounts(0, 0, 0, 0, 0);

    private final long lines;
    private final long words;
    private final long chars;
    private final long bytes;
    private final long maxLineWidth;

    private TextCounts(long lines, long words, long chars, long bytes, long maxLineWidth) {
        this.lines = lines;
        this.words = words;
        this.chars = chars;
        this.bytes = bytes;
        this.maxLineWidth = maxLineWidth;
    }

    /**
     * The given counts, as a caller that knows them otherwise (a file's size for its bytes) would state them.
     *
     * @throws IllegalArgumentException if a count is negative
     */
    public static TextCounts of(long lines, long words, long chars, long bytes, long maxLineWidth) {
        return new TextCounts(Checks.nonNegative(lines, "lines"), Checks.nonNegative(words, "words"),
                Checks.nonNegative(chars, "chars"), Checks.nonNegative(bytes, "bytes"),
                Checks.nonNegative(maxLineWidth, "maxLineWidth"));
    }

    /**
     * Counts the rest of {@code in}, read to its end and not closed.
     *
     * @throws IllegalArgumentException if {@code charset} is not UTF-8, ISO-8859-1 or US-ASCII
     * @throws IOException if reading fails
     */
    public static TextCounts count(InputStream in, Charset charset) throws IOException {
        Checks.notNull(in, "in");
        TextCounter counter = counter(charset);
        byte[] buf = new byte[CHUNK];
        long bytes = 0;
        int kept = 0;
        for (;;) {
            int n = in.read(buf, kept, buf.length - kept);
            if (n < 0) {
                counter.count(buf, 0, kept, true);
                return of(counter, bytes);
            }
            bytes += n;
            kept = keep(buf, counter.count(buf, 0, kept + n, false), kept + n);
        }
    }

    /**
     * Counts the rest of {@code channel}, read to its end and not closed. A non-blocking channel that has no bytes
     * ready is read again until it has: give this a blocking one.
     *
     * @throws IllegalArgumentException if {@code charset} is not UTF-8, ISO-8859-1 or US-ASCII
     * @throws IOException if reading fails
     */
    public static TextCounts count(ReadableByteChannel channel, Charset charset) throws IOException {
        Checks.notNull(channel, "channel");
        TextCounter counter = counter(charset);
        byte[] buf = new byte[CHUNK];
        ByteBuffer bb = ByteBuffer.wrap(buf);
        long bytes = 0;
        for (;;) {
            int n = channel.read(bb);
            if (n < 0) {
                counter.count(buf, 0, bb.position(), true);
                return of(counter, bytes);
            }
            bytes += n;
            bb.position(keep(buf, counter.count(buf, 0, bb.position(), false), bb.position()));
        }
    }

    /**
     * Counts the {@code '\n'} bytes in the rest of {@code channel}, read to its end and not closed: {@link #lines()}
     * alone, what {@code wc -l} prints, for any charset in which a newline is the byte 0x0A (UTF-8, ISO-8859-1,
     * US-ASCII and the other ASCII-compatible ones), so no charset is asked and nothing is decoded. Reads 256 KiB at a
     * time into a cached direct buffer and tests eight bytes per step; about as fast as the file system gives the bytes. A
     * non-blocking channel that has no bytes ready is read again until it has: give this a blocking one. Thread-safe
     * in the sense of {@link #count(ReadableByteChannel, Charset)}: no shared state.
     *
     * @throws IOException if reading fails
     */
    public static long countLines(ReadableByteChannel channel) throws IOException {
        Checks.notNull(channel, "channel");
        // Direct, so that a FileChannel reads into it with no copy; cached, so that many small files cost no memset.
        ByteBuffer[] pair = DirectBuffers.take(Long.MAX_VALUE);
        try {
            ByteBuffer bb = pair[0];
            long lines = 0;
            while (channel.read(bb) >= 0) {
                bb.flip();
                lines += newlines(bb); // byte order does not matter: the count is over all eight bytes
                bb.clear();
            }
            return lines;
        } finally {
            DirectBuffers.release(pair);
        }
    }

    private static final long ONES = 0x0101010101010101L;
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;

    /** The '\n' bytes in {@code bb[0, limit)}. */
    private static long newlines(ByteBuffer bb) {
        int limit = bb.limit();
        long n = 0;
        int i = 0;
        for (; i + 8 <= limit; i += 8) {
            // Bytes equal to 0x0A become zero; each zero byte, and only a zero byte, gets its high bit set below
            // (exact: no carry crosses a byte, unlike the shorter (y - ONES) & ~y test).
            long y = bb.getLong(i) ^ (ONES * '\n');
            n += Long.bitCount(~(((y & LOW7) + LOW7) | y | LOW7));
        }
        for (; i < limit; i++) {
            if (bb.get(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    private static TextCounter counter(Charset charset) {
        int kind = Kind.of(Checks.notNull(charset, "charset"));
        Checks.argument(kind != Kind.OTHER, "charset %s: TextCounts counts UTF-8, ISO-8859-1 and US-ASCII", charset);
        return new TextCounter(kind);
    }

    /** Moves the bytes the counter left, buf[from, to), to the front; returns how many. */
    private static int keep(byte[] buf, int from, int to) {
        System.arraycopy(buf, from, buf, 0, to - from);
        return to - from;
    }

    private static TextCounts of(TextCounter c, long bytes) {
        return new TextCounts(c.lines, c.words, c.chars, bytes, c.maxWidth());
    }

    /** Newline ('\n') bytes. */
    public long lines() {
        return lines;
    }

    /** Words: runs of printable chars that are not white space, as wc -w counts them. */
    public long words() {
        return words;
    }

    /** Chars that decode; malformed bytes are not counted. */
    public long chars() {
        return chars;
    }

    /** Bytes read. */
    public long bytes() {
        return bytes;
    }

    /** The widest line in display columns, as wc -L. */
    public long maxLineWidth() {
        return maxLineWidth;
    }

    /**
     * The counts of two inputs together as wc's total line gives them: each count added, the wider of the two widest
     * lines (a line does not continue from one input into the next).
     */
    public TextCounts plus(TextCounts other) {
        Checks.notNull(other, "other");
        return new TextCounts(lines + other.lines, words + other.words, chars + other.chars, bytes + other.bytes,
                Math.max(maxLineWidth, other.maxLineWidth));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TextCounts t && t.lines == lines && t.words == words && t.chars == chars
                && t.bytes == bytes && t.maxLineWidth == maxLineWidth;
    }

    @Override
    public int hashCode() {
        return Long.hashCode((((lines * 31 + words) * 31 + chars) * 31 + bytes) * 31 + maxLineWidth);
    }

    /** For example {@code TextCounts[lines=2, words=5, chars=31, bytes=33, maxLineWidth=20]}. */
    @Override
    public String toString() {
        return "TextCounts[lines=" + lines + ", words=" + words + ", chars=" + chars + ", bytes=" + bytes
                + ", maxLineWidth=" + maxLineWidth + "]";
    }
}
