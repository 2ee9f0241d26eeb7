package dev.sluice.text;

import dev.sluice.internal.Checks;
import dev.sluice.internal.Defaults;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;

/**
 * A buffered {@link Writer} that encodes chars itself into its own byte buffer: the equivalent of
 * {@code new BufferedWriter(new OutputStreamWriter(out, charset))} in one object, without the locks and the
 * intermediate buffers.
 *
 * <p><b>Charsets.</b> UTF-8, ISO-8859-1 and US-ASCII are encoded by hand; any other charset goes through an
 * {@link OutputStreamWriter} inside and behaves exactly as the JDK does.
 *
 * <p><b>Bad input</b> is replaced as {@code OutputStreamWriter} and {@code String.getBytes} replace it: a lone
 * surrogate, and (in ISO-8859-1 and US-ASCII) a char or surrogate pair the charset cannot represent, become one
 * {@code '?'}. A high surrogate at the end of one {@code write} waits for the next; if {@link #close()} finds it still
 * waiting it becomes {@code '?'}.
 *
 * <p><b>Not thread-safe</b> (no method locks). {@link #flush()} writes the buffer and flushes the underlying stream;
 * {@link #close()} flushes and closes it; closing twice is harmless; writing after {@code close} throws
 * {@code IOException("Stream closed")}.
 */
public final class FastWriter extends Writer {
    /**
     * The default byte buffer size, overridable with {@code -Dsluice.text.writeBufferSize}: 8 KiB, the JDK writers'
     * size. No benchmark has tuned it yet.
     */
    public static final int DEFAULT_BUFFER_SIZE = Defaults.intProperty("sluice.text.writeBufferSize", 8192);

    /** Longest encoding of one char or surrogate pair in the hand-encoded charsets. */
    private static final int MAX_BYTES_PER_UNIT = 4;

    private final int kind;
    private OutputStream out;
    private WritableByteChannel channel;
    private ByteBuffer channelView;
    private Writer delegate;
    private boolean closed;

    /** Encoded bytes not yet written are bytes[0, bp). */
    private final byte[] bytes;
    private int bp;
    /** A high surrogate that ended the last write, or 0. */
    private char pendingHigh;
    /** Scratch for write(String): chars are copied out of the String in chunks of this size. */
    private char[] scratch;

    private FastWriter(OutputStream out, WritableByteChannel channel, Charset cs, int bufferSize) {
        Checks.notNull(cs, "charset");
        Checks.positive(bufferSize, "bufferSize");
        kind = Kind.of(cs);
        if (kind == Kind.OTHER) {
            var enc = cs.newEncoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
            delegate = out != null ? new OutputStreamWriter(out, enc) : Channels.newWriter(channel, enc, bufferSize);
            bytes = new byte[0];
        } else {
            bytes = new byte[Math.max(bufferSize, 16)];
            this.out = out;
            this.channel = channel;
            if (channel != null) {
                channelView = ByteBuffer.wrap(bytes);
            }
        }
    }

    /** A writer to {@code out} in {@code charset} with a {@link #DEFAULT_BUFFER_SIZE} buffer. */
    public static FastWriter of(OutputStream out, Charset charset) {
        return new FastWriter(Checks.notNull(out, "out"), null, charset, DEFAULT_BUFFER_SIZE);
    }

    /**
     * A writer to {@code out} in {@code charset} with a buffer of {@code bufferSize} bytes (at least 16).
     *
     * @throws IllegalArgumentException if {@code bufferSize} is not positive
     */
    public static FastWriter of(OutputStream out, Charset charset, int bufferSize) {
        return new FastWriter(Checks.notNull(out, "out"), null, charset, bufferSize);
    }

    /** A writer to {@code channel} (which must be blocking) in {@code charset}. */
    public static FastWriter of(WritableByteChannel channel, Charset charset) {
        return new FastWriter(null, Checks.notNull(channel, "channel"), charset, DEFAULT_BUFFER_SIZE);
    }

    @Override
    public void write(int c) throws IOException {
        ensureOpen();
        if (delegate != null) {
            delegate.write(c);
            return;
        }
        char ch = (char) c;
        if (ch < 0x80 && pendingHigh == 0) {
            if (bp == bytes.length) {
                flushBuffer();
            }
            bytes[bp++] = (byte) ch;
            return;
        }
        encode(new char[] {ch}, 0, 1);
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        ensureOpen();
        Checks.checkRange(cbuf.length, off, len);
        if (delegate != null) {
            delegate.write(cbuf, off, len);
            return;
        }
        encode(cbuf, off, off + len);
    }

    @Override
    public void write(String str, int off, int len) throws IOException {
        ensureOpen();
        Checks.checkRange(str.length(), off, len);
        if (delegate != null) {
            delegate.write(str, off, len);
            return;
        }
        char[] s = scratch;
        if (s == null) {
            s = scratch = new char[1024];
        }
        int end = off + len;
        while (off < end) {
            int n = Math.min(s.length, end - off);
            str.getChars(off, off + n, s, 0);
            encode(s, 0, n);
            off += n;
        }
    }

    @Override
    public Writer append(CharSequence csq) throws IOException {
        String s = String.valueOf(csq);
        write(s, 0, s.length());
        return this;
    }

    @Override
    public Writer append(CharSequence csq, int start, int end) throws IOException {
        CharSequence c = csq == null ? "null" : csq;
        return append(c.subSequence(start, end));
    }

    /** Writes the buffered bytes and flushes the underlying stream; a waiting high surrogate keeps waiting. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        if (delegate != null) {
            delegate.flush();
            return;
        }
        flushBuffer();
        if (out != null) {
            out.flush();
        }
    }

    /** Flushes and closes the underlying stream or channel. Closing twice is harmless. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        if (delegate != null) {
            closed = true;
            delegate.close();
            return;
        }
        try {
            if (pendingHigh != 0) {
                pendingHigh = 0;
                put((byte) '?');
            }
            flushBuffer();
        } finally {
            closed = true;
            if (out != null) {
                out.close();
            } else {
                channel.close();
            }
        }
    }

    private void put(byte b) throws IOException {
        if (bp == bytes.length) {
            flushBuffer();
        }
        bytes[bp++] = b;
    }

    private void flushBuffer() throws IOException {
        if (bp == 0) {
            return;
        }
        if (out != null) {
            out.write(bytes, 0, bp);
        } else {
            ByteBuffer b = channelView;
            b.limit(bp).position(0);
            while (b.hasRemaining()) {
                channel.write(b);
            }
        }
        bp = 0;
    }

    /** Encodes src[sp, sl). */
    private void encode(char[] src, int sp, int sl) throws IOException {
        if (pendingHigh != 0 && sp < sl) {
            char high = pendingHigh;
            pendingHigh = 0;
            if (Character.isLowSurrogate(src[sp])) {
                if (bytes.length - bp < MAX_BYTES_PER_UNIT) {
                    flushBuffer();
                }
                if (kind == Kind.UTF8) {
                    bp = pair(high, src[sp], bytes, bp);
                } else {
                    bytes[bp++] = '?';
                }
                sp++;
            } else {
                put((byte) '?');
            }
        }
        final int max = kind == Kind.UTF8 ? 0x80 : kind == Kind.LATIN1 ? 0x100 : 0x80;
        byte[] b = bytes;
        while (sp < sl) {
            int room = b.length - bp;
            if (room < MAX_BYTES_PER_UNIT) {
                flushBuffer();
                room = b.length;
            }
            // The run of chars that take one byte each.
            int n = Math.min(sl - sp, room);
            int dp = bp;
            int i = 0;
            while (i < n) {
                char c = src[sp + i];
                if (c >= max) {
                    break;
                }
                b[dp + i] = (byte) c;
                i++;
            }
            sp += i;
            dp += i;
            // Multi-byte chars until the next one-byte char or the buffer is nearly full.
            int limit = b.length - MAX_BYTES_PER_UNIT;
            while (sp < sl && dp <= limit) {
                char c = src[sp];
                if (c < max) {
                    break;
                }
                if (Character.isSurrogate(c)) {
                    if (Character.isHighSurrogate(c)) {
                        if (sp + 1 == sl) {
                            pendingHigh = c; // its low half may come in the next write
                            sp++;
                            break;
                        }
                        char low = src[sp + 1];
                        if (Character.isLowSurrogate(low)) {
                            if (kind == Kind.UTF8) {
                                dp = pair(c, low, b, dp);
                            } else {
                                b[dp++] = '?'; // unmappable: one '?' for the pair, as the JDK's encoders do
                            }
                            sp += 2;
                            continue;
                        }
                    }
                    b[dp++] = '?'; // a lone surrogate is malformed
                    sp++;
                } else if (kind != Kind.UTF8) {
                    b[dp++] = '?';
                    sp++;
                } else if (c < 0x800) {
                    b[dp] = (byte) (0xC0 | c >> 6);
                    b[dp + 1] = (byte) (0x80 | c & 0x3F);
                    dp += 2;
                    sp++;
                } else {
                    b[dp] = (byte) (0xE0 | c >> 12);
                    b[dp + 1] = (byte) (0x80 | c >> 6 & 0x3F);
                    b[dp + 2] = (byte) (0x80 | c & 0x3F);
                    dp += 3;
                    sp++;
                }
            }
            bp = dp;
        }
    }

    private static int pair(char high, char low, byte[] b, int dp) {
        int cp = Character.toCodePoint(high, low);
        b[dp] = (byte) (0xF0 | cp >> 18);
        b[dp + 1] = (byte) (0x80 | cp >> 12 & 0x3F);
        b[dp + 2] = (byte) (0x80 | cp >> 6 & 0x3F);
        b[dp + 3] = (byte) (0x80 | cp & 0x3F);
        return dp + 4;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw Checks.streamClosed();
        }
    }
}
