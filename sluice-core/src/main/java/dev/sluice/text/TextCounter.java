package dev.sluice.text;

import java.lang.invoke.VarHandle;

/**
 * The engine behind {@link TextCounts}: GNU wc's loop (coreutils 9.1 src/wc.c, multibyte branch) fed with chunks of
 * bytes. Per char, as wc: '\n' counts a line; '\n', '\r' and '\f' end a line's width, '\t' moves it to the next
 * multiple of 8; those, '\v', ' ' and printable separators end a word; another printable char is in a word and adds
 * its width; a char that is not printable (controls, NUL, unassigned, above U+10FFFF) changes neither. A sequence
 * that does not decode counts as nothing: wc skips its first byte and tries again at the next.
 *
 * <p>Most text is ASCII, so the hot loop looks at eight bytes at a time: a word of printable ASCII (or one with a
 * single '\n', or eight NULs, as tar pads with) is counted in a few bit operations; anything else, byte by byte here,
 * and a byte of 0x80 or more by the exact decoder. Not thread-safe; one per count.
 */
final class TextCounter {
    private static final VarHandle LONGS = TextDecoder.LONGS;
    private static final long HIGH = 0x8080808080808080L;
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long NL = 0x0A0A0A0A0A0A0A0AL;
    /** Added to bytes below 0x80: the high bit is set exactly where a byte is at least 0x20 (0x21, 0x7F). */
    private static final long PLUS_GE20 = 0x6060606060606060L;
    private static final long PLUS_GE21 = 0x5F5F5F5F5F5F5F5FL;
    private static final long PLUS_GE7F = 0x0101010101010101L;
    /** Longest sequence glibc decodes (RFC 2279's six bytes, up to 0x7FFFFFFF): a shorter tail waits for more. */
    static final int MAX_SEQUENCE = 6;

    // What an ASCII byte does in wc's switch.
    private static final byte NEUTRAL = 0; // not printable: NUL, other controls, DEL
    private static final byte WORD = 1;
    private static final byte SPACE = 2;
    private static final byte NEWLINE = 3;
    private static final byte LINE_END = 4; // '\r', '\f'
    private static final byte TAB = 5;
    private static final byte VTAB = 6;
    private static final byte[] ASCII = new byte[128];

    static {
        for (int c = 0x21; c < 0x7F; c++) {
            ASCII[c] = WORD;
        }
        ASCII[' '] = SPACE;
        ASCII['\n'] = NEWLINE;
        ASCII['\r'] = LINE_END;
        ASCII['\f'] = LINE_END;
        ASCII['\t'] = TAB;
        ASCII[0x0B] = VTAB;
    }

    private final int kind;
    /** CharClasses' blocks, made when a char of the block first shows up; per counter, so never shared. */
    private final byte[][] blocks = new byte[0x1100][];
    long lines;
    long words;
    long chars;
    /** The widest line that has ended; {@link #maxWidth()} adds the open one. */
    long widest;
    /** Display columns of the open line so far. */
    long column;
    /** 1 while in a word. */
    int inWord;

    /** @param kind {@link Kind#UTF8}, {@link Kind#LATIN1} or {@link Kind#ASCII} */
    TextCounter(int kind) {
        this.kind = kind;
    }

    long maxWidth() {
        return Math.max(widest, column);
    }

    /**
     * Counts b[from, to) and returns where it stopped: {@code to}, or before the last few bytes (fewer than
     * {@link #MAX_SEQUENCE}, from a byte of 0x80 or more) when more input may complete a sequence there; the caller
     * hands them in again with what follows. With {@code eof} everything is counted.
     */
    int count(byte[] b, int from, int to, boolean eof) {
        long nLines = lines;
        long nWords = words;
        long nChars = chars;
        long max = widest;
        long col = column;
        int in = inWord;
        int i = from;
        while (i < to) {
            int slowEnd;
            if (i + 8 <= to) {
                long x = (long) LONGS.get(b, i);
                long high = x & HIGH;
                if (high == 0) {
                    long below7F = ~(x + PLUS_GE7F);
                    long word = (x + PLUS_GE21) & below7F & HIGH; // 0x21..0x7E
                    long print = (x + PLUS_GE20) & below7F & HIGH; // 0x20..0x7E
                    if (print == HIGH) {
                        // A word starts at a word byte whose predecessor (the byte below it, or the last chunk's) is
                        // a space; counting starts equals wc's counting of ends plus the one open at the end.
                        nWords += Long.bitCount(word & ~(word << 8 | (long) in << 7));
                        in = (int) (word >>> 63);
                        nChars += 8;
                        col += 8;
                        i += 8;
                        continue;
                    }
                    long y = x ^ NL; // below 0x80 too: adding 0x7F carries out of no byte
                    long nl = ~(y + LOW7) & HIGH;
                    if ((print | nl) == HIGH && (nl & (nl - 1)) == 0) { // one '\n', the rest printable
                        int k = Long.numberOfTrailingZeros(nl) >>> 3;
                        max = Math.max(max, col + k);
                        col = 7 - k;
                        nLines++;
                        nWords += Long.bitCount(word & ~(word << 8 | (long) in << 7));
                        in = (int) (word >>> 63);
                        nChars += 8;
                        i += 8;
                        continue;
                    }
                    if (x == 0) { // NULs: chars that change nothing else
                        nChars += 8;
                        i += 8;
                        continue;
                    }
                    slowEnd = i + 8;
                } else {
                    slowEnd = i + (Long.numberOfTrailingZeros(high) >>> 3) + 1; // through the first byte >= 0x80
                }
            } else {
                slowEnd = to;
            }
            while (i < slowEnd) {
                int c = b[i];
                if (c >= 0) {
                    switch (ASCII[c]) {
                        case WORD:
                            col++;
                            nWords += in ^ 1;
                            in = 1;
                            break;
                        case SPACE:
                            col++;
                            in = 0;
                            break;
                        case NEWLINE:
                            nLines++;
                            max = Math.max(max, col);
                            col = 0;
                            in = 0;
                            break;
                        case LINE_END:
                            max = Math.max(max, col);
                            col = 0;
                            in = 0;
                            break;
                        case TAB:
                            col += 8 - (col & 7);
                            in = 0;
                            break;
                        case VTAB:
                            in = 0;
                            break;
                        default:
                            break;
                    }
                    nChars++;
                    i++;
                    continue;
                }
                int cp;
                int n;
                if (kind == Kind.UTF8) {
                    if (!eof && to - i < MAX_SEQUENCE) {
                        slowEnd = to = i; // ends both loops; the tail waits for more input
                        break;
                    }
                    int b1;
                    int b2;
                    if ((c & 0xF0) == 0xE0 && i + 2 < to && ((b1 = b[i + 1]) & 0xC0) == 0x80
                            && ((b2 = b[i + 2]) & 0xC0) == 0x80
                            && (cp = (c & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F)) >= 0x800
                            && (cp < 0xD800 || cp > 0xDFFF)) {
                        n = 3; // CJK text: the common case written out (utf8's rules for three bytes)
                    } else {
                        long r = utf8(b, i, to);
                        n = (int) (r >>> 32);
                        if (n == 0) {
                            i++; // as wc: an invalid byte is no char, and decoding resumes at the next byte
                            continue;
                        }
                        cp = (int) r;
                    }
                } else if (kind == Kind.LATIN1) {
                    cp = c & 0xFF;
                    n = 1;
                } else {
                    i++; // US-ASCII: a byte above 0x7F does not decode
                    continue;
                }
                int info = info(cp);
                nChars++;
                if ((info & CharClasses.PRINTABLE) != 0) {
                    col += info >>> CharClasses.WIDTH_SHIFT;
                    if ((info & CharClasses.SEPARATOR) != 0) {
                        in = 0;
                    } else {
                        nWords += in ^ 1;
                        in = 1;
                    }
                }
                i += n;
                if (i < to && b[i] < 0) {
                    slowEnd = i + 1; // stay here through a run of non-ASCII chars (Japanese text)
                }
            }
        }
        lines = nLines;
        words = nWords;
        chars = nChars;
        widest = max;
        column = col;
        inWord = in;
        return i;
    }

    private int info(int cp) {
        if (cp >= 0x110000) {
            return 0; // glibc decodes up to 0x7FFFFFFF; none of it is printable
        }
        byte[] block = blocks[cp >>> 8];
        if (block == null) {
            block = block(cp >>> 8);
            blocks[cp >>> 8] = block;
        }
        return block[cp & 0xFF];
    }

    /** The info values of the 256 code points from {@code block << 8}, from CharClasses' runs. */
    static byte[] block(int block) {
        int[] runs = CharClasses.RUNS;
        int first = block << 8;
        int lo = 0;
        int hi = runs.length / 2 - 1;
        while (lo < hi) { // the last run that starts at or before first
            int mid = (lo + hi + 1) >>> 1;
            if (runs[2 * mid] <= first) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        byte[] b = new byte[256];
        for (int cp = first, r = lo; cp < first + 256; cp++) {
            if (2 * r + 2 < runs.length && runs[2 * r + 2] <= cp) {
                r++;
            }
            b[cp - first] = (byte) runs[2 * r + 1];
        }
        return b;
    }

    /**
     * Decodes the sequence at b[i] as glibc's mbrtowc does in a UTF-8 locale: RFC 2279's one to six bytes, up to
     * 0x7FFFFFFF, neither overlong nor a surrogate. Returns the length in the high 32 bits and the code point in the
     * low ones, or 0 when the bytes from i (up to {@code to}) are not one whole valid sequence.
     */
    static long utf8(byte[] b, int i, int to) {
        int c = b[i] & 0xFF;
        int n;
        int cp;
        int min;
        if (c < 0xC2) {
            return 0; // a continuation byte, or C0/C1 (always overlong)
        } else if (c < 0xE0) {
            n = 2;
            cp = c & 0x1F;
            min = 0x80;
        } else if (c < 0xF0) {
            n = 3;
            cp = c & 0x0F;
            min = 0x800;
        } else if (c < 0xF8) {
            n = 4;
            cp = c & 0x07;
            min = 0x10000;
        } else if (c < 0xFC) {
            n = 5;
            cp = c & 0x03;
            min = 0x200000;
        } else if (c < 0xFE) {
            n = 6;
            cp = c & 0x01;
            min = 0x4000000;
        } else {
            return 0;
        }
        if (to - i < n) {
            return 0;
        }
        for (int k = 1; k < n; k++) {
            int t = b[i + k];
            if ((t & 0xC0) != 0x80) {
                return 0;
            }
            cp = cp << 6 | (t & 0x3F);
        }
        if (cp < min || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return 0;
        }
        return (long) n << 32 | cp;
    }
}
