package dev.sluice.text;

import dev.sluice.internal.Checks;
import dev.sluice.internal.Defaults;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
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
 * <p><b>Charsets.</b> UTF-8, ISO-8859-1 and US-ASCII are decoded by hand (ASCII runs eight bytes at a time, 2-, 3-
 * and 4-byte UTF-8 sequences in one loop). Any other charset is decoded by the JDK's {@link CharsetDecoder} through
 * an {@link InputStreamReader} inside, so it behaves exactly as the JDK does and is not faster than it.
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

    /** Result of {@link #utf8Slow} when the sequence at {@code bp} continues past {@code bl}. */
    private static final int NEED_MORE = -1;
    /** Result of {@link #utf8Slow} in strict mode when chars were produced before a malformed sequence. */
    private static final int STOP = -2;

    private static final int LINE_CHARS = 0;
    private static final int LINE_BYTES_LATIN = 1;
    private static final int LINE_BYTES = 2;
    private static final long NL = 0x0A0A0A0A0A0A0A0AL;
    private static final long CR = 0x0D0D0D0D0D0D0D0DL;
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    /** Subtracted from a word in {@link #scanLine}: the borrow marks the bytes below 0x0E (CR, LF and a few more). */
    private static final long BYTES_0E = 0x0E0E0E0E0E0E0E0EL;
    private static final char REPLACEMENT = '\uFFFD';
    /**
     * ASCII runs at least this long are widened by the JDK's ISO-8859-1 decoder, whose inner loop is a HotSpot
     * intrinsic (vectorised), rather than by a Java loop that C2 does not vectorise on JDK 17; an ad-hoc comparison
     * on the Java-source corpus made the intrinsic 1.5-3x faster on long runs. Shorter runs do not repay wrapping the
     * arrays (two small objects and a call); 64 is a judgement, not a sweep. TextReadBench measures the whole path.
     */
    private static final int INFLATE_THRESHOLD = 64;
    /**
     * When 64 ASCII bytes come in a row, the next {@code JDK_WINDOW} bytes go to the JDK's own UTF-8 decoder (see
     * {@link #utf8}): on the Java-source corpus its ASCII intrinsic took 14 ms of CPU where scanning and widening
     * separately took 21 (JDK 17, ad hoc, 90 MB). Japanese text rarely has 64 ASCII bytes in a row and stays on the
     * hand loop, which is faster on multi-byte text.
     */
    private static final int JDK_WINDOW = 1024;
    private static final int JDK_WINDOW_MIN = 64;
    /**
     * {@link #utf8} widens eight bytes at once at a short ASCII run only when this many bytes are left to decode (and
     * not in strict mode, which may stop early): a char takes at most three bytes, so the bytes after the run decode
     * to more than the seven chars the wide write may have put past it, and overwrite them before the call returns.
     * The caller's array never keeps a char past the count returned (tested: TextSamples.readAll).
     */
    private static final int WIDE_SLACK = 32;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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
    /** Widens long ASCII and Latin-1 runs; stateless for ISO-8859-1, so one per reader. */
    private final CharsetDecoder inflater = StandardCharsets.ISO_8859_1.newDecoder();
    /** The JDK's UTF-8 decoder, for long ASCII runs; it replaces malformed input just as this class does. */
    private final CharsetDecoder jdkUtf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    private int bp;
    private int bl;
    private boolean eof;
    /** The input offset of bytes[0], for the offsets strict mode reports. */
    private long bytesBefore;
    /** The low half of a surrogate pair whose high half filled the caller's array, or 0. */
    private char pendingLow;

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
    /** Set by {@link #scanLine}: the OR of the bytes it passed. */
    private long scanOr;
    /** Chars of the current line when it had to be decoded for {@link #forEachLine}. */
    private char[] scratch;

    private FastReader(Builder b, InputStream in, ReadableByteChannel channel) {
        Charset cs = b.charset;
        this.charsetName = cs.name();
        this.strict = b.strict;
        this.bufferSize = b.bufferSize;
        kind = Kind.of(cs);
        this.bomPending = b.skipBom && kind == Kind.UTF8;
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
        if (cp < cl || bp < bl || pendingLow != 0) {
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
        while (!closed && cp == cl && pendingLow == 0 && kind != Kind.OTHER && !strict && !skipLF && !bomPending) {
            byte[] b = bytes;
            int end = bl;
            int start = bp;
            int i = scanLine(b, start, end);
            int next;
            if (i + 1 < end) {
                next = b[i] == '\n' || b[i + 1] != '\n' ? i + 1 : i + 2;
            } else if (i + 1 == end && b[i] == '\n') {
                next = end;
            } else {
                return count; // no terminator before bl, or a CR whose LF may follow after a refill
            }
            bp = next;
            if ((scanOr & HIGH_BITS) == 0 || kind == Kind.LATIN1) {
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
        int saveBp = bp;
        int saveBl = bl;
        bp = start;
        bl = end;
        int dp = 0;
        try {
            while (bp < end) {
                dp = kind == Kind.UTF8 ? utf8(d, dp, d.length, 0) : ascii(d, dp, d.length, 0);
                if (bp < end) {
                    // A sequence cut short by the line end: the JDK replaces the whole of it, as at the end of input.
                    d[dp++] = REPLACEMENT;
                    bp = end;
                }
            }
        } finally {
            bp = saveBp;
            bl = saveBl;
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
        if (cp == cl && pendingLow == 0 && kind != Kind.OTHER && !strict) {
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
            int i = scanLine(b, scan, end);
            if ((scanOr & HIGH_BITS) != 0) {
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

    /**
     * Returns the index of the first CR or LF in b[from, end), or end; leaves in {@link #scanOr} the OR of the bytes
     * before it (high bit set: the line is not ASCII). Eight bytes at a time: a cheap test (a borrow sets a byte's
     * high bit when it is below 0x0E, with false positives only above a true one) finds words that may hold CR or LF
     * (or a tab or other control); only those get the exact test.
     */
    private int scanLine(byte[] b, int from, int end) {
        int i = from;
        long seen = 0;
        while (i + 8 <= end) {
            long w = (long) LONGS.get(b, i);
            if (((w - BYTES_0E) & ~w & HIGH_BITS) != 0) {
                long hit = zeroBytes(w ^ NL) | zeroBytes(w ^ CR);
                if (hit != 0) {
                    int k = Long.numberOfTrailingZeros(hit) >>> 3; // little-endian: the first such byte
                    scanOr = seen | w & ~(-1L << (8 * k)); // k < 8: the bytes before the terminator
                    return i + k;
                }
            }
            seen |= w;
            i += 8;
        }
        while (i < end) {
            byte c = b[i];
            if (c == '\n' || c == '\r') {
                break;
            }
            seen |= c;
            i++;
        }
        scanOr = seen;
        return i;
    }

    /** The high bit of every byte of x that is zero, exactly (no false positives from borrows). */
    private static long zeroBytes(long x) {
        return ~(((x & LOW7) + LOW7) | x) & HIGH_BITS;
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
        if (pendingLow != 0) {
            dst[dp++] = pendingLow;
            pendingLow = 0;
            if (dp == dl) {
                return 1;
            }
        }
        for (;;) {
            if (bomPending && !skipBom()) {
                continue;
            }
            if (bp < bl) {
                switch (kind) {
                    case Kind.UTF8 -> dp = utf8(dst, dp, dl, off);
                    case Kind.LATIN1 -> dp = latin1(dst, dp, dl);
                    default -> dp = ascii(dst, dp, dl, off);
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
                dst[dp++] = REPLACEMENT;
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

    private MalformedTextException malformed(int length) {
        return new MalformedTextException(length, bytesBefore + bp, charsetName);
    }

    /** True when b[i, i + 64) is all ASCII. */
    private static boolean isAscii64(byte[] b, int i) {
        long or = 0;
        for (int k = 0; k < 64; k += 8) {
            or |= (long) LONGS.get(b, i + k);
        }
        return (or & HIGH_BITS) == 0;
    }

    /** The length of the ASCII run at b[from, to). Reads eight bytes at a time: a long with no high bit set. */
    private static int asciiRun(byte[] b, int from, int to) {
        int i = from;
        while (i + 8 <= to) {
            long high = (long) LONGS.get(b, i) & HIGH_BITS;
            if (high != 0) {
                // Little-endian: the lowest set bit marks the first non-ASCII byte. No byte-by-byte tail.
                return i + (Long.numberOfTrailingZeros(high) >>> 3) - from;
            }
            i += 8;
        }
        while (i < to && b[i] >= 0) {
            i++;
        }
        return i - from;
    }

    private int latin1(char[] dst, int dp, int dl) {
        int n = Math.min(bl - bp, dl - dp);
        inflate(bytes, bp, dst, dp, n);
        bp += n;
        return dp + n;
    }

    /** Widens b[sp, sp + n) (ISO-8859-1, so also ASCII) into d[dp, dp + n). */
    private void inflate(byte[] b, int sp, char[] d, int dp, int n) {
        if (n >= INFLATE_THRESHOLD) {
            inflater.decode(ByteBuffer.wrap(b, sp, n), CharBuffer.wrap(d, dp, n), false);
        } else {
            for (int i = 0; i < n; i++) {
                d[dp + i] = (char) (b[sp + i] & 0xFF);
            }
        }
    }

    private int ascii(char[] dst, int dp, int dl, int off) throws IOException {
        byte[] b = bytes;
        int sp = bp;
        int sl = bl;
        while (sp < sl && dp < dl) {
            int run = asciiRun(b, sp, sp + Math.min(sl - sp, dl - dp));
            inflate(b, sp, dst, dp, run);
            sp += run;
            dp += run;
            if (sp < sl && dp < dl) {
                if (strict) {
                    bp = sp;
                    if (dp > off) {
                        return dp;
                    }
                    throw malformed(1);
                }
                dst[dp++] = REPLACEMENT;
                sp++;
            }
        }
        bp = sp;
        return dp;
    }

    /**
     * Decodes complete sequences from bytes[bp, bl) into dst[dp, dl); returns the new dp. Stops when dst is full, the
     * bytes are used up or end inside a sequence, or (strict mode) at malformed input after producing chars.
     */
    private int utf8(char[] dst, int dp, int dl, int off) throws IOException {
        final byte[] b = bytes;
        final int sl = bl;
        int sp = bp;
        // Mixed text (Japanese man pages: ASCII runs of median 6 bytes between runs of 3-byte chars) is decoded
        // eight bytes at a time while at least WIDE_SLACK bytes are left: one load answers both "a short ASCII run
        // starts here" and "two 3-byte chars start here", with no loop whose exit is a coin toss.
        final int wideEnd = strict ? -1 : sl - WIDE_SLACK;
        final int wideDstEnd = dl - 8;
        while (sp < sl && dp < dl) {
            if (sp <= wideEnd && dp <= wideDstEnd) {
                long w = (long) LONGS.get(b, sp);
                long high = w & HIGH_BITS;
                if ((w & 0x80) == 0 && high != 0) {
                    // A short ASCII run: widen all eight bytes and keep the run's part. The chars written past it
                    // are overwritten before this call returns, as WIDE_SLACK explains.
                    dst[dp] = (char) (w & 0x7F);
                    dst[dp + 1] = (char) ((w >>> 8) & 0xFF);
                    dst[dp + 2] = (char) ((w >>> 16) & 0xFF);
                    dst[dp + 3] = (char) ((w >>> 24) & 0xFF);
                    dst[dp + 4] = (char) ((w >>> 32) & 0xFF);
                    dst[dp + 5] = (char) ((w >>> 40) & 0xFF);
                    dst[dp + 6] = (char) ((w >>> 48) & 0xFF);
                    dst[dp + 7] = (char) (w >>> 56);
                    int run = Long.numberOfTrailingZeros(high) >>> 3;
                    sp += run;
                    dp += run;
                    continue;
                }
                if ((w & 0xC0C0F0C0C0F0L) == 0x8080E08080E0L) {
                    // Two 3-byte sequences (1110xxxx 10xxxxxx 10xxxxxx twice).
                    int c1 = (int) (((w & 0x0F) << 12) | ((w >>> 2) & 0xFC0) | ((w >>> 16) & 0x3F));
                    int c2 = (int) (((w >>> 12) & 0xF000) | ((w >>> 26) & 0xFC0) | ((w >>> 40) & 0x3F));
                    // Overlong (below U+0800) or a surrogate: the top five bits are 00000 or 11011.
                    int t1 = c1 & 0xF800;
                    int t2 = c2 & 0xF800;
                    if (!(t1 == 0 | t1 == 0xD800 | t2 == 0 | t2 == 0xD800)) {
                        dst[dp] = (char) c1;
                        dst[dp + 1] = (char) c2;
                        dp += 2;
                        sp += 6;
                        continue;
                    }
                }
            }
            int b1 = b[sp];
            if (b1 >= 0) {
                int limit = Math.min(sl - sp, dl - dp);
                if (limit >= JDK_WINDOW_MIN && !strict && isAscii64(b, sp)) {
                    // ASCII-heavy text (source code): the JDK's UTF-8 decoder finds the run's end and widens it in one
                    // vectorised pass (an intrinsic we cannot call); it replaces malformed input exactly as we do.
                    // Its loop after the first non-ASCII char is slower than ours, hence the bounded window.
                    ByteBuffer in = ByteBuffer.wrap(b, sp, Math.min(sl - sp, JDK_WINDOW));
                    CharBuffer out = CharBuffer.wrap(dst, dp, dl - dp);
                    jdkUtf8.decode(in, out, false);
                    sp = in.position();
                    dp = out.position();
                } else if (limit >= 8 && ((long) LONGS.get(b, sp) & HIGH_BITS) == 0) {
                    // A long run (source code, markup): find its end eight bytes at a time, widen in bulk.
                    int run = asciiRun(b, sp, sp + limit);
                    inflate(b, sp, dst, dp, run);
                    sp += run;
                    dp += run;
                } else {
                    // A short run between non-ASCII chars, or near the end of the bytes or of dst: char by char.
                    int end = sp + limit;
                    do {
                        dst[dp++] = (char) b[sp++];
                    } while (sp < end && b[sp] >= 0);
                }
                continue;
            }
            // The common well-formed cases inline; everything else (and every boundary) in utf8Slow.
            if ((b1 >> 4) == -2) { // 1110xxxx: 3 bytes, U+0800..U+FFFF but not surrogates
                if (sp + 2 < sl) {
                    int b2 = b[sp + 1];
                    int b3 = b[sp + 2];
                    int c = ((b1 & 0x0F) << 12) | ((b2 & 0x3F) << 6) | (b3 & 0x3F);
                    if (((b2 & 0xC0) ^ 0x80 | (b3 & 0xC0) ^ 0x80) == 0 && c >= 0x800 && (c < 0xD800 || c > 0xDFFF)) {
                        dst[dp++] = (char) c;
                        sp += 3;
                        continue;
                    }
                }
            } else if ((b1 >> 5) == -2) { // 110xxxxx: 2 bytes, U+0080..U+07FF
                if (sp + 1 < sl) {
                    int b2 = b[sp + 1];
                    if ((b2 & 0xC0) == 0x80 && (b1 & 0x1E) != 0) {
                        dst[dp++] = (char) (((b1 & 0x1F) << 6) | (b2 & 0x3F));
                        sp += 2;
                        continue;
                    }
                }
            } else if ((b1 >> 3) == -2) { // 11110xxx: 4 bytes, U+10000..U+10FFFF as a surrogate pair
                if (sp + 3 < sl && dp + 1 < dl) {
                    int b2 = b[sp + 1];
                    int b3 = b[sp + 2];
                    int b4 = b[sp + 3];
                    int cp = ((b1 & 0x07) << 18) | ((b2 & 0x3F) << 12) | ((b3 & 0x3F) << 6) | (b4 & 0x3F);
                    if (((b2 & 0xC0) ^ 0x80 | (b3 & 0xC0) ^ 0x80 | (b4 & 0xC0) ^ 0x80) == 0
                            && cp >= 0x10000 && cp <= 0x10FFFF) {
                        dst[dp++] = Character.highSurrogate(cp);
                        dst[dp++] = Character.lowSurrogate(cp);
                        sp += 4;
                        continue;
                    }
                }
            }
            bp = sp;
            int r = utf8Slow(dst, dp, dl, off);
            if (r < 0) {
                return dp;
            }
            dp = r;
            sp = bp;
        }
        bp = sp;
        return dp;
    }

    /**
     * One non-ASCII sequence at bytes[bp], with all of the JDK decoder's rules (sun.nio.cs.UTF_8: which prefix of a
     * bad sequence is replaced by one U+FFFD). Returns the new dp and advances bp; or {@link #NEED_MORE} when the
     * sequence is well-formed so far but continues past bl; or {@link #STOP} in strict mode when chars were already
     * produced before this malformed sequence (it throws when none were).
     */
    private int utf8Slow(char[] dst, int dp, int dl, int off) throws IOException {
        byte[] b = bytes;
        int sp = bp;
        int rem = bl - sp;
        int b1 = b[sp] & 0xFF;
        int bad; // length of the malformed subpart, or 0 if well-formed
        if (b1 >= 0xC2 && b1 <= 0xDF) {
            if (rem < 2) {
                return NEED_MORE;
            }
            int b2 = b[sp + 1];
            if (!isContinuation(b2)) {
                bad = 1;
            } else {
                dst[dp] = (char) (((b1 & 0x1F) << 6) | (b2 & 0x3F));
                bp = sp + 2;
                return dp + 1;
            }
        } else if (b1 >= 0xE0 && b1 <= 0xEF) {
            if (rem < 3) {
                if (rem > 1 && isMalformed3Prefix(b1, b[sp + 1])) {
                    bad = 1;
                } else {
                    return NEED_MORE;
                }
            } else {
                int b2 = b[sp + 1];
                int b3 = b[sp + 2];
                if (isMalformed3Prefix(b1, b2)) {
                    bad = 1;
                } else if (!isContinuation(b3)) {
                    bad = 2;
                } else {
                    char c = (char) (((b1 & 0x0F) << 12) | ((b2 & 0x3F) << 6) | (b3 & 0x3F));
                    if (Character.isSurrogate(c)) {
                        bad = 3;
                    } else {
                        dst[dp] = c;
                        bp = sp + 3;
                        return dp + 1;
                    }
                }
            }
        } else if (b1 >= 0xF0 && b1 <= 0xF7) {
            if (b1 > 0xF4 || rem > 1 && isMalformed4Prefix(b1, b[sp + 1] & 0xFF)) {
                bad = 1;
            } else if (rem > 2 && !isContinuation(b[sp + 2])) {
                bad = 2;
            } else if (rem < 4) {
                return NEED_MORE;
            } else if (!isContinuation(b[sp + 3])) {
                bad = 3;
            } else {
                int cp = ((b1 & 0x07) << 18) | ((b[sp + 1] & 0x3F) << 12) | ((b[sp + 2] & 0x3F) << 6)
                        | (b[sp + 3] & 0x3F);
                bp = sp + 4;
                dst[dp++] = Character.highSurrogate(cp);
                if (dp < dl) {
                    dst[dp++] = Character.lowSurrogate(cp);
                } else {
                    pendingLow = Character.lowSurrogate(cp);
                }
                return dp;
            }
        } else {
            bad = 1; // a continuation byte, C0, C1 (always overlong), or F8..FF (5- and 6-byte leaders)
        }
        if (strict) {
            if (dp > off) {
                return STOP;
            }
            throw malformed(bad);
        }
        dst[dp] = REPLACEMENT;
        bp = sp + bad;
        return dp + 1;
    }

    private static boolean isContinuation(int b) {
        return (b & 0xC0) == 0x80;
    }

    /** E0 must be followed by A0..BF (shorter forms are overlong); any other lead by a continuation byte. */
    private static boolean isMalformed3Prefix(int b1, int b2) {
        return b1 == 0xE0 && (b2 & 0xE0) == 0x80 || !isContinuation(b2);
    }

    /** F0 must be followed by 90..BF (overlong otherwise), F4 by 80..8F (past U+10FFFF otherwise). */
    private static boolean isMalformed4Prefix(int b1, int b2) {
        return b1 == 0xF0 && (b2 < 0x90 || b2 > 0xBF) || b1 == 0xF4 && (b2 & 0xF0) != 0x80 || !isContinuation(b2);
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw Checks.streamClosed();
        }
    }
}
