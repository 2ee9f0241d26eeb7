package dev.sluice.text;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The reusable line handed to {@link FastReader#forEachLine}: a window on the reader's own char buffer, re-aimed for
 * every line so that a caller who does not keep lines allocates nothing per line. {@link #toString()} and
 * {@link #subSequence} copy, so their results may be kept.
 */
final class LineView implements CharSequence {
    /** The line is chars[start, start + length), or, when chars is null, latin[start, start + length). */
    private char[] chars;
    private byte[] latin;
    private int start;
    private int length;

    void set(char[] chars, int start, int length) {
        this.chars = chars;
        this.latin = null;
        this.start = start;
        this.length = length;
    }

    /** Aims at ISO-8859-1 (or ASCII) bytes, one char per byte: lines that need no decoding are not decoded. */
    void set(byte[] latin, int start, int length) {
        this.chars = null;
        this.latin = latin;
        this.start = start;
        this.length = length;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        Objects.checkIndex(index, length);
        char[] c = chars;
        return c != null ? c[start + index] : (char) (latin[start + index] & 0xFF);
    }

    @Override
    public boolean isEmpty() {
        return length == 0;
    }

    @Override
    public CharSequence subSequence(int from, int to) {
        Objects.checkFromToIndex(from, to, length);
        return chars != null ? new String(chars, start + from, to - from)
                : new String(latin, start + from, to - from, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
        return chars != null ? new String(chars, start, length)
                : new String(latin, start, length, StandardCharsets.ISO_8859_1);
    }
}
