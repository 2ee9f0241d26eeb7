package dev.sluice.text;

/**
 * Finds line terminators (CR, LF) in bytes, eight at a time, before any decoding: in UTF-8, ISO-8859-1 and US-ASCII
 * a CR or LF byte is always that char, never part of a sequence. {@link FastReader} decides what a terminator means
 * (BufferedReader's rules); this class only finds it.
 */
final class LineScanner {
    private LineScanner() {}

    private static final long NL = 0x0A0A0A0A0A0A0A0AL;
    private static final long CR = 0x0D0D0D0D0D0D0D0DL;
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long HIGH_BITS = 0x8080808080808080L;
    /** Subtracted from a word in {@link #scan}: the borrow marks the bytes below 0x0E (CR, LF and a few more). */
    private static final long BYTES_0E = 0x0E0E0E0E0E0E0E0EL;
    /** Set in {@link #scan}'s result when a byte before the terminator has its high bit set. */
    static final long NOT_ASCII = 1L << 32;

    /**
     * Returns the index of the first CR or LF in b[from, end), or end, in the low 32 bits; with {@link #NOT_ASCII}
     * set when a byte before it is not ASCII (the line then needs decoding). A cheap test per word (a borrow sets a
     * byte's high bit when it is below 0x0E, with false positives only above a true one) finds the words that may
     * hold CR or LF (or a tab or other control); only those get the exact test.
     */
    static long scan(byte[] b, int from, int end) {
        int i = from;
        long seen = 0;
        while (i + 8 <= end) {
            long w = (long) TextDecoder.LONGS.get(b, i);
            if (((w - BYTES_0E) & ~w & HIGH_BITS) != 0) {
                long hit = zeroBytes(w ^ NL) | zeroBytes(w ^ CR);
                if (hit != 0) {
                    int k = Long.numberOfTrailingZeros(hit) >>> 3; // little-endian: the first such byte
                    return result(i + k, seen | w & ~(-1L << (8 * k))); // k < 8: the bytes before the terminator
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
        return result(i, seen);
    }

    private static long result(int index, long seen) {
        return (seen & HIGH_BITS) != 0 ? index | NOT_ASCII : index;
    }

    /** The high bit of every byte of x that is zero, exactly (no false positives from borrows). */
    private static long zeroBytes(long x) {
        return ~(((x & LOW7) + LOW7) | x) & HIGH_BITS;
    }
}
