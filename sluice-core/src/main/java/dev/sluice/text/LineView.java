package dev.sluice.text;

import java.util.Objects;

/**
 * The reusable line handed to {@link FastReader#forEachLine}: a window on the reader's own char buffer, re-aimed for
 * every line so that a caller who does not keep lines allocates nothing per line. {@link #toString()} and
 * {@link #subSequence} copy, so their results may be kept.
 */
final class LineView implements CharSequence {
    private char[] chars;
    private int start;
    private int length;

    void set(char[] chars, int start, int length) {
        this.chars = chars;
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
        return chars[start + index];
    }

    @Override
    public boolean isEmpty() {
        return length == 0;
    }

    @Override
    public CharSequence subSequence(int from, int to) {
        Objects.checkFromToIndex(from, to, length);
        return new String(chars, start + from, to - from);
    }

    @Override
    public String toString() {
        return new String(chars, start, length);
    }
}
