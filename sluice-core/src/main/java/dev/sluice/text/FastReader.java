package dev.sluice.text;

import dev.sluice.internal.Checks;
import dev.sluice.internal.Defaults;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A buffered {@link Reader} that decodes bytes itself, from its own byte buffer straight into the caller's array:
 * the equivalent of {@code new BufferedReader(new InputStreamReader(in, charset))} in one object, without the
 * locks and the intermediate buffers.
 *
 * <p><b>Charsets.</b> UTF-8, ISO-8859-1 and US-ASCII are decoded by hand (TextDecoder: ASCII runs eight bytes at a
 * time, runs of 2- and 3-byte UTF-8 chars each in a loop of their own). Any other charset is decoded by the JDK's
 * {@link CharsetDecoder} through an {@link InputStreamReader} inside, so it behaves exactly as the JDK does and is not
 * faster than it.
 *
 * <p><b>Bad input.</b> By default each malformed sequence becomes one U+FFFD, exactly as {@code InputStreamReader}
 * and {@code new String(bytes, charset)} replace it (Unicode's "maximal subpart" rule: overlong forms, surrogates
 * encoded in UTF-8, 5- and 6-byte leaders and bytes past U+10FFFF give one U+FFFD per offending byte or subpart; a
 * sequence cut short by the end of input gives one). In {@linkplain Builder#strict() strict mode} the first
 * malformed sequence throws {@link MalformedTextException} (a {@link java.nio.charset.MalformedInputException})
 * naming its byte offset; the characters before it are returned first. For charsets other than the three above,
 * strict mode throws the JDK's exception, which carries no offset.
 *
 * <p><b>Lines.</b> {@link #readLine()} follows {@link java.io.BufferedReader#readLine()} exactly: a line ends at
 * {@code \n}, {@code \r} or {@code \r\n} (also when the {@code \r} and the {@code \n} arrive in different reads), the
 * terminator is not returned, and a last line without terminator is returned. {@link #forEachLine} hands each line as
 * a {@link CharSequence} that is a window on this reader's buffer, reused for the next line: nothing is allocated per
 * line for lines shorter than the buffer. A longer line grows the buffer to hold it.
 *
 * <p><b>Not thread-safe</b>: no method locks, unlike {@code BufferedReader}. Confine a reader to one thread or lock
 * around it. {@code mark} and {@code reset} are not supported. {@link #close()} closes the underlying stream or
 * channel; closing twice is harmless; any other method after {@code close} throws {@code IOException("Stream
 * closed")}. Reads block as the underlying source blocks; a channel must be in blocking mode.
 */
public final class FastReader extends Reader {
    /**
     * The default size of the byte buffer (and of the first char buffer that lines use), overridable with
     * {@code -Dsluice.text.bufferSize}. 8 KiB, the JDK readers' size, so that TextReadBench compares decoders rather
     * than buffer sizes; no sweep has tuned it yet. {@code FastFiles.newReader} uses less for smaller files.
     */
    public static final int DEFAULT_BUFFER_SIZE = Defaults.intProperty("sluice.text.bufferSize", 8192);

    private static final int MIN_BUFFER_SIZE = 16;

    /** Where the current line is ({@link #lineMode}): in chars; in bytes, one char per byte; in bytes, to decode. */
    private static final int LINE_CHARS = 0;
    private static final int LINE_BYTES_LATIN = 1;
    private static final int LINE_BYTES = 2;

    private final int kind;
    private final int bufferSize;
    private final boolean strict;
    private final String charsetName;
    private boolean bomPending;

    // The byte source: exactly one of in / channel is set (for Kind.OTHER, delegate instead).
    private InputStream in;
    private ReadableByteChannel channel;
    private ByteBuffer channelView;
    private Reader delegate;
    private boolean closed;

    /** Bytes not yet decoded are bytes[bp, bl); 0 <= bp <= bl <= bytes.length. */
    private byte[] bytes;
    /** Turns bytes into chars (null for Kind.OTHER); holds a surrogate pair's pending low half. */
    private final TextDecoder decoder;
    private int bp;
    private int bl;
    private boolean eof;
    /** The input offset of bytes[0], for the offsets strict mode reports. */
    private long bytesBefore;

    /** Decoded chars not yet returned are chars[cp, cl); used by lines and by reads after a line. */
    private char[] chars;
    private int cp;
    private int cl;
    /** The last line ended with '\r': a '\n' that comes next belongs to it (BufferedReader's rule). */
    private boolean skipLF;
    /** The current line, chars[lineStart, lineEnd), set by {@link #nextLine()}. */
    private int lineStart;
    private int lineEnd;
    /** Where the current line is: 0 in chars; LINE_BYTES_LATIN in bytes, one char per byte; LINE_BYTES in bytes. */
    private int lineMode;
    private LineView view;
    /** Chars of the current line when it had to be decoded for {@link #forEachLine}. */
    private char[] scratch;

    private FastReader(Builder b, InputStream in, ReadableByteChannel channel) {
        Charset cs = b.charset;
        this.charsetName = cs.name();
        this.strict = b.strict;
        this.bufferSize = b.bufferSize;
        kind = Kind.of(cs);
        this.bomPending = b.skipBom && kind == Kind.UTF8;
        decoder = kind == Kind.OTHER ? null : new TextDecoder(kind, strict);
        if (kind == Kind.OTHER) {
            CodingErrorAction action = strict ? CodingErrorAction.REPORT : CodingErrorAction.REPLACE;
            CharsetDecoder dec = cs.newDecoder().onMalformedInput(action).onUnmappableCharacter(action);
            delegate = in != null ? new InputStreamReader(in, dec) : Channels.newReader(channel, dec, b.bufferSize);
            bytes = new byte[0];
        } else {
            bytes = new byte[b.bufferSize];
            this.in = in;
            this.channel = channel;
            if (channel != null) {
                channelView = ByteBuffer.wrap(bytes);
            }
        }
        chars = new char[0];
    }

    /**
     * A reader of {@code in} in {@code charset} with the default options: replacement of malformed input, a
     * {@link #DEFAULT_BUFFER_SIZE} buffer, a byte order mark kept as U+FEFF (as {@code InputStreamReader} keeps it).
     */
    public static FastReader of(InputStream in, Charset charset) {
        return builder(charset).build(in);
    }

    /** A reader of {@code channel} (which must be blocking) in {@code charset}, with the default options. */
    public static FastReader of(ReadableByteChannel channel, Charset charset) {
        return builder(charset).build(channel);
    }

    /** Starts a reader with options other than the defaults. */
    public static Builder builder(Charset charset) {
        return new Builder(Checks.notNull(charset, "charset"));
    }

    /** The options of a {@link FastReader}. Not thread-safe; reusable for several readers. */
    public static final class Builder {
        private final Charset charset;
        private boolean strict;
        private boolean skipBom;
        private int bufferSize = DEFAULT_BUFFER_SIZE;

        private Builder(Charset charset) {
            this.charset = charset;
        }

        /** Throw {@link MalformedTextException} at malformed input instead of replacing it with U+FFFD. */
        public Builder strict() {
            strict = true;
            return this;
        }

        /** Drop a UTF-8 byte order mark (EF BB BF) at the start of the input. No effect on other charsets. */
        public Builder skipBom() {
            skipBom = true;
            return this;
        }

        /**
         * The byte buffer size (at least 16; smaller values are raised to 16).
         *
         * @throws IllegalArgumentException if {@code size} is not positive
         */
        public Builder bufferSize(int size) {
            bufferSize = Math.max(MIN_BUFFER_SIZE, Checks.positive(size, "bufferSize"));
            return this;
        }

        /** The reader; it closes {@code in} when it is closed. */
        public FastReader build(InputStream in) {
            return new FastReader(this, Checks.notNull(in, "in"), null);
        }

        /** The reader; it closes {@code channel} when it is closed. */
        public FastReader build(ReadableByteChannel channel) {
            return new FastReader(this, null, Checks.notNull(channel, "channel"));
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reader

    @Override
    public int read() throws IOException {
        ensureOpen();
        for (;;) {
            if (cp == cl && fillChars() < 0) {
                return -1;
            }
            if (skipLF) {
                skipLF = false;
                if (chars[cp] == '\n') {
                    cp++;
                    continue;
                }
            }
            return chars[cp++];
        }
    }

    /**
     * Reads up to {@code len} chars, at least one unless the input is exhausted (then -1). Blocks at most once: when
     * some chars are decoded and the bytes at hand are used up, it returns rather than read more.
     */
    @Override
    public int read(char[] cbuf, int off, int len) throws IOException {
        ensureOpen();
        Checks.checkRange(cbuf.length, off, len);
        if (len == 0) {
            return 0;
        }
        if (skipLF) {
            if (cp == cl && fillChars() < 0) {
                return -1;
            }
            skipLF = false;
            if (chars[cp] == '\n') {
                cp++;
            }
        }
        int buffered = cl - cp;
        if (buffered > 0) {
            int n = Math.min(buffered, len);
            System.arraycopy(chars, cp, cbuf, off, n);
            cp += n;
            return n;
        }
        return decode(cbuf, off, len);
    }

    @Override
    public long skip(long n) throws IOException {
        Checks.nonNegative(n, "n");
        ensureOpen();
        long left = n;
        while (left > 0) {
            if (cp == cl && fillChars() < 0) {
                break;
            }
            if (skipLF) {
                skipLF = false;
                if (chars[cp] == '\n') {
                    cp++;
                    continue;
                }
            }
            int k = (int) Math.min(left, cl - cp);
            cp += k;
            left -= k;
        }
        return n - left;
    }

    /** True when chars are buffered, or bytes are, or the source says it has bytes without blocking. */
    @Override
    public boolean ready() throws IOException {
        ensureOpen();
        if (cp < cl || bp < bl || decoder != null && decoder.pendingLow != 0) {
            return true;
        }
        if (delegate != null) {
            return delegate.ready();
        }
        return in != null && in.available() > 0;
    }

    /** Closes the underlying stream or channel. Closing twice is harmless. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        chars = null;
        if (delegate != null) {
            delegate.close();
        } else if (in != null) {
            in.close();
        } else {
            channel.close();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Lines

    /**
     * Reads a line, with {@link java.io.BufferedReader#readLine()}'s rules; {@code null} at the end of the input.
     */
    public String readLine() throws IOException {
        if (!nextLine()) {
            return null;
        }
        int len = lineEnd - lineStart;
        switch (lineMode) {
            case LINE_CHARS:
                return new String(chars, lineStart, len);
            case LINE_BYTES_LATIN:
                // One byte per char: the String keeps the bytes as they are (compact strings), no decoding at all.
                return new String(bytes, lineStart, len, StandardCharsets.ISO_8859_1);
            default:
                // Same replacements as ours: tested; a line never splits a sequence, CR and LF are never inside one.
                return new String(bytes, lineStart, len, kind == Kind.UTF8 ? StandardCharsets.UTF_8
                        : StandardCharsets.US_ASCII);
        }
    }

    /**
     * Hands every remaining line (terminator removed, rules as {@link #readLine()}) to {@code action}, as a
     * {@link CharSequence} that is valid only during the call: the same object is re-aimed at the next line, so keep
     * {@code line.toString()} rather than {@code line}. Does not close this reader.
     *
     * @return the number of lines
     */
    public long forEachLine(Consumer<? super CharSequence> action) throws IOException {
        Checks.notNull(action, "action");
        LineView v = view;
        if (v == null) {
            v = view = new LineView();
        }
        long count = 0;
        for (;;) {
            count += linesInBuffer(v, action);
            if (!nextLine()) {
                return count;
            }
            int len = lineEnd - lineStart;
            switch (lineMode) {
                case LINE_CHARS -> v.set(chars, lineStart, len);
                case LINE_BYTES_LATIN -> v.set(bytes, lineStart, len);
                default -> {
                    int n = decodeLine(lineStart, lineEnd); // may replace scratch: read it afterwards
                    v.set(scratch, 0, n);
                }
            }
            action.accept(v);
            count++;
        }
    }

    /**
     * forEachLine's fast path: hands over the lines that end inside bytes[bp, bl) without a refill, one tight loop
     * with no per-line call into {@link #nextLine()}; returns how many. Leaves the rest (a line that continues past
     * bl, a CR at bl - 1, chars already decoded, strict mode) to nextLine(). bp moves past each line before the
     * action runs, so an action that throws leaves the reader after its line, as nextLine() does.
     */
    private long linesInBuffer(LineView v, Consumer<? super CharSequence> action) throws IOException {
        long count = 0;
        while (!closed && cp == cl && kind != Kind.OTHER && decoder.pendingLow == 0 && !strict && !skipLF
                && !bomPending) {
            byte[] b = bytes;
            int end = bl;
            int start = bp;
            long scan = LineScanner.scan(b, start, end);
            int i = (int) scan;
            int next;
            if (i + 1 < end) {
                next = b[i] == '\n' || b[i + 1] != '\n' ? i + 1 : i + 2;
            } else if (i + 1 == end && b[i] == '\n') {
                next = end;
            } else {
                return count; // no terminator before bl, or a CR whose LF may follow after a refill
            }
            bp = next;
            if ((scan & LineScanner.NOT_ASCII) == 0 || kind == Kind.LATIN1) {
                v.set(b, start, i - start);
            } else {
                int n = decodeLine(start, i); // may replace scratch: read it afterwards
                v.set(scratch, 0, n);
            }
            action.accept(v);
            count++;
        }
        return count;
    }

    /** Decodes bytes[start, end), one line of non-strict UTF-8 or ASCII, into {@link #scratch}; returns its length. */
    private int decodeLine(int start, int end) throws IOException {
        char[] d = scratch;
        if (d == null || d.length < end - start) {
            d = scratch = new char[Math.max(end - start, bufferSize)];
        }
        int sp = start;
        int dp = 0;
        while (sp < end) {
            long r = decoder.decode(bytes, sp, end, d, dp, d.length);
            sp = TextDecoder.bytePos(r);
            dp = TextDecoder.charPos(r);
            if (sp < end) {
                // A sequence cut short by the line end: the JDK replaces the whole of it, as at the end of input.
                d[dp++] = TextDecoder.REPLACEMENT;
                sp = end;
            }
        }
        return dp;
    }

    /**
     * The remaining lines as a lazily read stream, as {@link java.io.BufferedReader#lines()}; an {@link IOException}
     * is rethrown as {@link UncheckedIOException}. Closing the stream closes this reader.
     */
    public Stream<String> lines() {
        Iterator<String> it = new Iterator<>() {
            private String next;

            @Override
            public boolean hasNext() {
                if (next != null) {
                    return true;
                }
                try {
                    next = readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return next != null;
            }

            @Override
            public String next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                String s = next;
                next = null;
                return s;
            }
        };
        return StreamSupport.stream(
                        Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(() -> {
                    try {
                        close();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    /**
     * Finds the next line and leaves it in chars or bytes [lineStart, lineEnd) as {@link #lineMode} says; false at
     * the end of the input. Lines are found in the bytes, before decoding, whenever no decoded chars are waiting:
     * then an ASCII line is never widened to chars at all.
     */
    private boolean nextLine() throws IOException {
        ensureOpen();
        if (cp == cl && kind != Kind.OTHER && decoder.pendingLow == 0 && !strict) {
            return nextLineInBytes();
        }
        lineMode = LINE_CHARS;
        if (skipLF) {
            if (cp == cl && fillChars() < 0) {
                skipLF = false;
                return false;
            }
            skipLF = false;
            if (chars[cp] == '\n') {
                cp++;
            }
        }
        int scan = cp;
        for (;;) {
            char[] c = chars;
            int end = cl;
            int i = scan;
            // Both terminators are <= '\r': one comparison rejects almost every char.
            while (i < end) {
                char ch = c[i];
                if (ch <= '\r' && (ch == '\n' || ch == '\r')) {
                    break;
                }
                i++;
            }
            if (i < end) {
                lineStart = cp;
                lineEnd = i;
                if (c[i] == '\n') {
                    cp = i + 1;
                } else if (i + 1 < end) {
                    cp = c[i + 1] == '\n' ? i + 2 : i + 1;
                } else {
                    cp = i + 1;
                    skipLF = true;
                }
                return true;
            }
            int scanned = end - cp;
            if (fillChars() < 0) {
                if (cp == cl) {
                    return false;
                }
                lineStart = cp;
                lineEnd = cl;
                cp = cl;
                return true;
            }
            scan = cp + scanned;
        }
    }

    /** nextLine() on bytes[bp, bl): no chars are buffered, so the next line starts at bp. */
    private boolean nextLineInBytes() throws IOException {
        while (bomPending) {
            skipBom();
        }
        if (skipLF) {
            if (bp == bl && !eof) {
                fillBytes();
            }
            skipLF = false;
            if (bp < bl && bytes[bp] == '\n') {
                bp++;
            }
        }
        int scan = bp;
        boolean ascii = true;
        for (;;) {
            byte[] b = bytes;
            int end = bl;
            long found = LineScanner.scan(b, scan, end);
            int i = (int) found;
            if ((found & LineScanner.NOT_ASCII) != 0) {
                ascii = false;
            }
            if (i < end) {
                lineStart = bp;
                lineEnd = i;
                if (b[i] == '\n') {
                    bp = i + 1;
                } else if (i + 1 < end) {
                    bp = b[i + 1] == '\n' ? i + 2 : i + 1;
                } else {
                    bp = i + 1;
                    skipLF = true;
                }
                lineMode = ascii || kind == Kind.LATIN1 ? LINE_BYTES_LATIN : LINE_BYTES;
                return true;
            }
            if (eof) {
                if (bp == bl) {
                    return false;
                }
                lineStart = bp;
                lineEnd = bl;
                bp = bl;
                lineMode = ascii || kind == Kind.LATIN1 ? LINE_BYTES_LATIN : LINE_BYTES;
                return true;
            }
            int scanned = bl - bp;
            if (bp == 0 && bl == bytes.length) {
                growBytes(); // a line longer than the buffer
            }
            fillBytes();
            scan = bp + scanned;
        }
    }

    private void growBytes() {
        int size = bytes.length * 2;
        if (size < 0 || size > Integer.MAX_VALUE - 8) {
            throw new OutOfMemoryError("line longer than " + bytes.length + " bytes");
        }
        bytes = Arrays.copyOf(bytes, size);
        if (channel != null) {
            channelView = ByteBuffer.wrap(bytes);
        }
    }

    /**
     * Decodes more chars into chars[cl..], keeping chars[cp, cl) (moved to the front, the buffer doubled when they
     * fill it). Returns the number of chars added, or -1 at the end of the input.
     */
    private int fillChars() throws IOException {
        if (cp == cl) {
            cp = cl = 0;
        } else if (cp > 0) {
            System.arraycopy(chars, cp, chars, 0, cl - cp);
            cl -= cp;
            cp = 0;
        }
        if (cl == chars.length) {
            // The first buffer matches the byte buffer: at most one char per byte in the hand-decoded charsets.
            int size = chars.length == 0 ? bufferSize : chars.length * 2;
            if (size < 0 || size > Integer.MAX_VALUE - 8) {
                throw new OutOfMemoryError("line longer than " + chars.length + " chars");
            }
            chars = Arrays.copyOf(chars, size);
        }
        int n = decode(chars, cl, chars.length - cl);
        if (n > 0) {
            cl += n;
        }
        return n;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Decoding

    /** Decodes into dst[off, off + len), len > 0: at least one char, or -1 at the end of the input. */
    private int decode(char[] dst, int off, int len) throws IOException {
        if (kind == Kind.OTHER) {
            return delegate.read(dst, off, len);
        }
        int dp = off;
        int dl = off + len;
        TextDecoder dec = decoder;
        if (dec.pendingLow != 0) {
            dst[dp++] = dec.pendingLow;
            dec.pendingLow = 0;
            if (dp == dl) {
                return 1;
            }
        }
        for (;;) {
            if (bomPending && !skipBom()) {
                continue;
            }
            if (bp < bl) {
                long r = dec.decode(bytes, bp, bl, dst, dp, dl);
                bp = TextDecoder.bytePos(r);
                dp = TextDecoder.charPos(r);
                if (dec.malformed > 0 && dp == off) {
                    throw malformed(dec.malformed); // strict mode; chars before it are returned first
                }
            }
            if (dp > off) {
                return dp - off;
            }
            // Nothing decoded: the bytes at hand are used up, or they end in the middle of a sequence.
            if (eof) {
                if (bp == bl) {
                    return -1;
                }
                // A sequence cut short by the end of input: one U+FFFD for all of it, as CharsetDecoder does.
                if (strict) {
                    throw malformed(bl - bp);
                }
                bp = bl;
                dst[dp++] = TextDecoder.REPLACEMENT;
                return 1;
            }
            fillBytes();
        }
    }

    /** Reads more bytes after bytes[bp, bl) (moved to the front); sets {@link #eof} at the end of the input. */
    private void fillBytes() throws IOException {
        if (bp > 0) {
            int keep = bl - bp;
            System.arraycopy(bytes, bp, bytes, 0, keep);
            bytesBefore += bp;
            bp = 0;
            bl = keep;
        }
        int n;
        if (in != null) {
            n = in.read(bytes, bl, bytes.length - bl);
            if (n == 0) {
                // As InputStreamReader: a stream that returns 0 for a non-empty request breaks its contract.
                throw new IOException("Underlying input stream returned zero bytes");
            }
        } else {
            ByteBuffer b = channelView;
            b.limit(bytes.length).position(bl);
            do {
                n = channel.read(b);
            } while (n == 0);
        }
        if (n < 0) {
            eof = true;
        } else {
            bl += n;
        }
    }

    /** Returns false when more bytes are needed to decide whether the input starts with a byte order mark. */
    private boolean skipBom() throws IOException {
        if (bl - bp < 3 && !eof) {
            fillBytes();
            return false;
        }
        bomPending = false;
        if (bl - bp >= 3 && bytes[bp] == (byte) 0xEF && bytes[bp + 1] == (byte) 0xBB && bytes[bp + 2] == (byte) 0xBF) {
            bp += 3;
        }
        return true;
    }

    /** A {@link MalformedTextException} (typed as its superclass: see {@link MalformedTextException#of}). */
    private IOException malformed(int length) {
        return MalformedTextException.of(length, bytesBefore + bp, charsetName);
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw Checks.streamClosed();
        }
    }
}
