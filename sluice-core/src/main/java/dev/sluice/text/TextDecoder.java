package dev.sluice.text;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Decodes UTF-8, ISO-8859-1 and US-ASCII from a byte array into a char array, replacing malformed input exactly as
 * the JDK's decoders do (sun.nio.cs.UTF_8: one U+FFFD per maximal subpart). It knows nothing of streams, buffers or
 * lines: {@link FastReader} hands it a range of bytes and a range of chars, and it returns how far it got in both
 * ({@link #decode}, packed in a long so that the hot loops keep their indices in registers).
 *
 * <p>UTF-8 has a loop per length class: ASCII runs eight bytes at a time (long runs through the JDK's vectorised
 * ASCII path), 3-byte chars (CJK) two at a time from one eight-byte load in a loop that also takes the short ASCII
 * runs between them, and runs of 2-byte chars (Latin, Greek, Cyrillic, Hebrew, Arabic). Anything else (4-byte chars
 * included), and every sequence cut by the end of the bytes, goes one sequence at a time through
 * {@link #utf8Sequence}, which holds the JDK's rules. Each loop is a small method of its own, so that a fresh JVM
 * compiles it early (see the note above {@link #utf8}). One per reader; not thread-safe.
 */
final class TextDecoder {
    static final char REPLACEMENT = '\uFFFD';

    /**
     * ASCII runs at least this long are widened by the JDK's ISO-8859-1 decoder, whose inner loop is a HotSpot
     * intrinsic (vectorised), rather than by a Java loop that C2 does not vectorise on JDK 17; an ad-hoc comparison
     * on the Java-source corpus made the intrinsic 1.5-3x faster on long runs. Shorter runs do not repay wrapping the
     * arrays (two small objects and a call); 64 is a judgement, not a sweep. TextReadBench measures the whole path.
     */
    private static final int INFLATE_THRESHOLD = 64;
    /**
     * When 64 ASCII bytes come in a row, up to the next {@link #window} bytes go to the JDK's US-ASCII decoder, in
     * pieces of {@code JDK_CHUNK} ({@link #longAscii}): its ASCII intrinsics (a vectorised test and widening) beat
     * scanning and widening here (JDK 17, ad hoc, 90 MB of Java source: 14 ms of CPU against 21, measured with the
     * UTF-8 decoder that took these runs before). Japanese text rarely has 64 ASCII bytes in a row and stays on the
     * hand loop, which is faster on multi-byte text. The window starts at {@code JDK_WINDOW} bytes and doubles (up
     * to {@code JDK_WINDOW_MAX}) while windows come back all ASCII, so that text which has not shown itself to be
     * long ASCII pays for few JDK calls.
     */
    private static final int JDK_WINDOW = 1024;
    private static final int JDK_WINDOW_MAX = 16 * 1024;
    private static final int JDK_WINDOW_MIN = 64;
    /**
     * The most bytes one {@link #asciiChunk} call takes: small, so that the method is called often and HotSpot
     * compiles it with C2 early (see asciiChunk). FirstReadsBench-style runs of 11 MB of Java source, five reads per
     * fresh JVM (docs/benchmarks/text.md, 2026-11-28, sixth session): with one JDK call per window (8 KiB per
     * read(char[8192])) the JDK's intrinsics came in read 5 or later; with pieces of 512, 1024 or 2048 bytes (JDK 17
     * and 25) or 4096 (JDK 17) in read 3 or 4, with 1024 and 2048 in read 3 in every JVM. 1024 is a judgement
     * between those two.
     */
    private static final int JDK_CHUNK = 1024;
    /**
     * After a JDK window that was not all ASCII ({@link #window} 0), runs are found here; one at least this long
     * brings the windows back. On the Japanese corpus (roff sources: 6,990 ASCII runs of 64 bytes or more, 674 of
     * 1 KiB or more) a 1 KiB window after each long run sent the Japanese text after it through the JDK's
     * char-by-char loop: 28% of the reader's profile (JDK 17, JMH perfasm, cpu-clock). With this and the word-at-a-time
     * runs below, TextReadBench ja went from 19.5 to 16.3 ms on JDK 17 and 18.9 to 16.1 ms on JDK 25
     * (docs/benchmarks/text.md, 2026-11-25).
     */
    private static final int EXACT_RUN_MAX = 4096;
    /**
     * {@link #utf8} widens eight bytes at once at a short ASCII run only when this many bytes are left to decode (and
     * not in strict mode, which may stop early): a char takes at most three bytes, so the bytes after the run decode
     * to more than the seven chars the wide write may have put past it, and overwrite them before the call returns.
     * The caller's array never keeps a char past the count returned (tested: TextSamples.readAll).
     */
    private static final int WIDE_SLACK = 32;
    private static final long HIGH_BITS = 0x8080808080808080L;
    /** Two 3-byte forms in the low six bytes of a little-endian word: 1110xxxx 10xxxxxx 10xxxxxx, twice. */
    private static final long PAIR3_MASK = 0xC0C0F0C0C0F0L;
    private static final long PAIR3_BITS = 0x8080E08080E0L;
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int kind;
    private final boolean strict;
    /**
     * Widens long ASCII and Latin-1 runs; stateless for ISO-8859-1, so one per reader. Made at first use, as is
     * {@link #jdkAscii}: a reader of a small file or of text without long runs never needs them.
     */
    private CharsetDecoder inflater;
    /**
     * The JDK's US-ASCII decoder (malformed input reported, not replaced), for long ASCII runs: it widens ASCII and
     * stops at the first byte that is not, which this class then decodes.
     */
    private CharsetDecoder jdkAscii;

    /**
     * Set by {@link #decode} in strict mode when it stopped at malformed input: the length of the malformed subpart,
     * which starts where decoding stopped; 0 otherwise. The caller throws, or returns the chars decoded before it.
     */
    int malformed;
    /** The low half of a surrogate pair whose high half filled the char array, or 0; the caller writes it next. */
    char pendingLow;
    /**
     * The bytes the next JDK window may take: JDK_WINDOW, doubled after every window that was all ASCII; 0 after one
     * that was not, until a run of EXACT_RUN_MAX ASCII bytes comes.
     */
    private int window = JDK_WINDOW;

    TextDecoder(int kind, boolean strict) {
        this.kind = kind;
        this.strict = strict;
    }

    static long pack(int sp, int dp) {
        return (long) sp << 32 | dp & 0xFFFFFFFFL;
    }

    static int bytePos(long packed) {
        return (int) (packed >>> 32);
    }

    static int charPos(long packed) {
        return (int) packed;
    }

    /**
     * Decodes b[sp, sl) into d[dp, dl), dp < dl; returns {@link #pack}(new sp, new dp). Stops when d is full, when the
     * bytes are used up or end inside a sequence (the caller brings more, or at the end of input replaces the rest),
     * or in strict mode at malformed input ({@link #malformed} then says how long it is).
     */
    long decode(byte[] b, int sp, int sl, char[] d, int dp, int dl) {
        malformed = 0;
        switch (kind) {
            case Kind.UTF8:
                return utf8(b, sp, sl, d, dp, dl);
            case Kind.LATIN1:
                int n = Math.min(sl - sp, dl - dp);
                inflate(b, sp, d, dp, n);
                return pack(sp + n, dp + n);
            default:
                return ascii(b, sp, sl, d, dp, dl);
        }
    }

    /** Widens b[sp, sp + n) (ISO-8859-1, so also ASCII) into d[dp, dp + n). */
    private void inflate(byte[] b, int sp, char[] d, int dp, int n) {
        if (n >= INFLATE_THRESHOLD) {
            if (inflater == null) {
                inflater = StandardCharsets.ISO_8859_1.newDecoder();
            }
            inflater.decode(ByteBuffer.wrap(b, sp, n), CharBuffer.wrap(d, dp, n), false);
        } else {
            for (int i = 0; i < n; i++) {
                d[dp + i] = (char) (b[sp + i] & 0xFF);
            }
        }
    }

    private long ascii(byte[] b, int sp, int sl, char[] d, int dp, int dl) {
        while (sp < sl && dp < dl) {
            int run = asciiRun(b, sp, sp + Math.min(sl - sp, dl - dp));
            inflate(b, sp, d, dp, run);
            sp += run;
            dp += run;
            if (sp < sl && dp < dl) {
                if (strict) {
                    malformed = 1;
                    break;
                }
                d[dp++] = REPLACEMENT;
                sp++;
            }
        }
        return pack(sp, dp);
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

    /** Widens the eight bytes of w (little-endian) into d[dp, dp + 8), each as a char of its own value. */
    private static void widen8(long w, char[] d, int dp) {
        d[dp] = (char) (w & 0xFF);
        d[dp + 1] = (char) ((w >>> 8) & 0xFF);
        d[dp + 2] = (char) ((w >>> 16) & 0xFF);
        d[dp + 3] = (char) ((w >>> 24) & 0xFF);
        d[dp + 4] = (char) ((w >>> 32) & 0xFF);
        d[dp + 5] = (char) ((w >>> 40) & 0xFF);
        d[dp + 6] = (char) ((w >>> 48) & 0xFF);
        d[dp + 7] = (char) (w >>> 56);
    }

    /**
     * The char of a 3-byte sequence in the low three bytes of w, from its bits alone. The callers check the form
     * ({@code PAIR3_MASK}) and the char: its top five bits ({@code c & 0xF800}) are 00000 when it is overlong (below
     * U+0800) and 11011 when it is a surrogate, and either makes it malformed. (The check is written out at each
     * caller: as a boolean method it made the mixed loop slower on JDK 17, docs/benchmarks/text.md, 2026-11-27.)
     */
    private static int first3(long w) {
        return (int) (((w & 0x0F) << 12) | ((w >>> 2) & 0xFC0) | ((w >>> 16) & 0x3F));
    }

    /** The char of a 3-byte sequence in bytes 3 to 5 of w, from its bits alone (no checks). */
    private static int second3(long w) {
        return (int) (((w >>> 12) & 0xF000) | ((w >>> 26) & 0xFC0) | ((w >>> 40) & 0x3F));
    }

    /*
     * UTF-8 is decoded by a small dispatcher (utf8) and one small method per class of text, each with its own loop,
     * because a fresh JVM runs what compiles early (issue 34; docs/benchmarks/text.md, "the decoder in a fresh JVM").
     * As one 1,646-byte method called once per read(char[8192]), the decoder ran in C1's profiling code for most of
     * the first reads: its OSR'd C2 code helps only a call that stays in one loop long enough to migrate, its full C2
     * compile waits for 600 calls (Tier4MinInvocationThreshold), two thirds of the Japanese corpus, and after a
     * loop_limit_check trap in the near-end 3-byte loop (JDK 17 and 25) it waited as long again. Each method here is
     * under FreqInlineSize (325 bytes of bytecode) and called once per run of its class, thousands of times per MB,
     * so it reaches C2 within the first read, a compile takes milliseconds, and a trap recompiles that method alone.
     * The JDK's decoder (sun.nio.cs.UTF_8) has the same shape: a short loop, the rare cases in methods of their own.
     */

    private long utf8(byte[] b, int sp, int sl, char[] d, int dp, int dl) {
        // Mixed text (Japanese man pages: ASCII runs of median 6 bytes between runs of 3-byte chars) widens a short
        // ASCII run eight bytes at once while at least WIDE_SLACK bytes are left: no loop whose exit is a coin toss.
        final int wideEnd = strict ? -1 : sl - WIDE_SLACK;
        while (sp < sl && dp < dl) {
            int b1 = b[sp];
            long r;
            if (b1 >= 0) {
                r = utf8Ascii(b, sp, sl, d, dp, dl, wideEnd);
            } else if ((b1 >> 4) == -2) {
                r = mixed3(b, sp, d, dp, wideEnd, dl - 8);
                r = run3(b, bytePos(r), sl, d, charPos(r), dl);
            } else if ((b1 >> 5) == -2) {
                r = run2(b, sp, sl, d, dp, dl);
            } else {
                r = pack(sp, dp);
            }
            if (bytePos(r) == sp) {
                // Malformed, cut by sl, a pair that does not fit, or a 4-byte char: one sequence with the JDK's rules.
                r = utf8Exact(b, sp, sl, d, dp, dl);
                if (r < 0) {
                    break; // more bytes needed, or (strict) malformed input
                }
            }
            sp = bytePos(r);
            dp = charPos(r);
        }
        return pack(sp, dp);
    }

    /** The ASCII run at b[sp] (sp < sl, dp < dl, b[sp] ASCII), or its first part: {@link #pack}(sp, dp) after it. */
    private long utf8Ascii(byte[] b, int sp, int sl, char[] d, int dp, int dl, int wideEnd) {
        boolean wide = sp <= wideEnd && dp <= dl - 8;
        if (wide) {
            long w = (long) LONGS.get(b, sp);
            long high = w & HIGH_BITS;
            if (high != 0) {
                // A short ASCII run: widen all eight bytes and keep the run's part. The chars written past it are
                // overwritten before utf8 returns, as WIDE_SLACK explains.
                widen8(w, d, dp);
                int run = Long.numberOfTrailingZeros(high) >>> 3;
                return pack(sp + run, dp + run);
            }
        }
        int limit = Math.min(sl - sp, dl - dp);
        if (limit >= JDK_WINDOW_MIN && !strict && isAscii64(b, sp)) {
            return longAscii(b, sp, sl, d, dp, dl, limit);
        }
        if (!wide) {
            return asciiTail(b, sp, d, dp, limit);
        }
        // A run of 8 to 63 bytes (the first word is all ASCII, and longer runs with 64 bytes at hand took longAscii):
        // widened a word at a time up to the word that holds its end, which is widened whole as above (WIDE_SLACK).
        int wideDstEnd = dl - 8;
        do {
            long w = (long) LONGS.get(b, sp);
            widen8(w, d, dp);
            long high = w & HIGH_BITS;
            if (high != 0) {
                int run = Long.numberOfTrailingZeros(high) >>> 3;
                return pack(sp + run, dp + run);
            }
            sp += 8;
            dp += 8;
        } while (sp <= wideEnd && dp <= wideDstEnd);
        return pack(sp, dp);
    }

    /**
     * The ASCII run at b[sp] in strict mode, or near the end of the bytes or of d (limit = min(sl - sp, dl - dp)):
     * found eight bytes at a time and widened, or char by char when it is short.
     */
    private long asciiTail(byte[] b, int sp, char[] d, int dp, int limit) {
        if (limit >= 8 && ((long) LONGS.get(b, sp) & HIGH_BITS) == 0) {
            int run = asciiRun(b, sp, sp + limit);
            inflate(b, sp, d, dp, run);
            return pack(sp + run, dp + run);
        }
        int end = sp + limit;
        do {
            d[dp++] = (char) b[sp++];
        } while (sp < end && b[sp] >= 0);
        return pack(sp, dp);
    }

    /** A run of at least 64 ASCII bytes at b[sp] (limit = min(sl - sp, dl - dp), not strict). */
    private long longAscii(byte[] b, int sp, int sl, char[] d, int dp, int dl, int limit) {
        if (window == 0) {
            // Mixed text (a long ASCII run between multi-byte runs, as in roff sources): find the run's end here, so
            // that the JDK never decodes the text after it, and widen exactly the run.
            int run = JDK_WINDOW_MIN + asciiRun(b, sp + JDK_WINDOW_MIN, sp + limit);
            inflate(b, sp, d, dp, run);
            if (run >= EXACT_RUN_MAX) {
                window = JDK_WINDOW; // ASCII-heavy after all: back to the JDK's windows
            }
            return pack(sp + run, dp + run);
        }
        // ASCII-heavy text (source code): the JDK's US-ASCII decoder finds the run's end and widens it with its
        // intrinsics (which we cannot call), a chunk at a time; after a window that was not all ASCII the runs are
        // found here instead (window 0).
        if (jdkAscii == null) {
            jdkAscii = StandardCharsets.US_ASCII.newDecoder();
        }
        int n = Math.min(limit, window);
        int done = 0;
        while (done < n) {
            int k = Math.min(JDK_CHUNK, n - done);
            int ascii = asciiChunk(b, sp + done, d, dp + done, k);
            done += ascii;
            if (ascii < k) {
                break;
            }
        }
        window = done == n ? Math.min(window * 2, JDK_WINDOW_MAX) : 0;
        return pack(sp + done, dp + done);
    }

    /**
     * Widens the ASCII bytes at the start of b[sp, sp + n) into d[dp, dp + n) through {@link #jdkAscii}; returns how
     * many there were (n when all are ASCII). The JDK's ASCII intrinsics (StringCoding.hasNegatives or
     * countPositives, and StringLatin1.inflate) run only inside C2-compiled code that inlines them; until then they
     * are plain loops, 3-4x slower. This method is small enough for C2 to inline the decoder's whole path into it
     * (CharsetDecoder.decode, 276 bytes of bytecode, and the US-ASCII decoder's loop, 153), and it is called once per
     * {@link #JDK_CHUNK} bytes, so it reaches C2's call threshold (Tier4InvocationThreshold, 5,000 calls) within the
     * first 5 MB of ASCII text. One call per read(char[8192]), as with the JDK's UTF-8 decoder before, got there in
     * the fifth read of 11 MB (issue 34; docs/benchmarks/text.md, 2026-11-28).
     */
    private int asciiChunk(byte[] b, int sp, char[] d, int dp, int n) {
        ByteBuffer in = ByteBuffer.wrap(b, sp, n);
        jdkAscii.decode(in, CharBuffer.wrap(d, dp, n), false);
        return in.position() - sp;
    }

    /**
     * Japanese and Chinese text: runs of 3-byte chars (1110xxxx 10xxxxxx 10xxxxxx: U+0800..U+FFFF but not
     * surrogates) between short ASCII runs (a class boundary every 29 bytes in the man-page corpus), from b[sp].
     * One loop takes both, so that a boundary costs one mispredicted branch, not the exits of two loops and the
     * dispatch in utf8. The 3-byte paths add a constant to sp, so that the next load need not wait for this word's
     * checks; a branch-free version, whose conditional moves made it wait, was slower (docs/benchmarks/text.md,
     * 2026-11-27). Four all-ASCII words in a row send a long run back to utf8; a byte that is neither ASCII nor a
     * well-formed 3-byte char ends the loop, and {@link #run3} or utf8Exact take it. Like the short-run widening,
     * only while sp <= wideEnd and dp <= wideDstEnd (never in strict mode, where wideEnd is -1).
     */
    private static long mixed3(byte[] b, int sp, char[] d, int dp, int wideEnd, int wideDstEnd) {
        int full = 0;
        while (sp <= wideEnd && dp <= wideDstEnd) {
            long w = (long) LONGS.get(b, sp);
            if ((w & 0x80) == 0) {
                widen8(w, d, dp);
                long high = w & HIGH_BITS;
                if (high == 0) {
                    sp += 8;
                    dp += 8;
                    if (++full == 4) {
                        break;
                    }
                } else {
                    int run = Long.numberOfTrailingZeros(high) >>> 3;
                    sp += run;
                    dp += run;
                }
                continue;
            }
            full = 0;
            int c1 = first3(w);
            int t1 = c1 & 0xF800;
            if ((w & PAIR3_MASK) == PAIR3_BITS) {
                int c2 = second3(w);
                int t2 = c2 & 0xF800;
                if (t1 == 0 | t1 == 0xD800 | t2 == 0 | t2 == 0xD800) {
                    break;
                }
                d[dp] = (char) c1;
                d[dp + 1] = (char) c2;
                sp += 6;
                dp += 2;
                continue;
            }
            if ((w & 0xC0C0F0) != 0x8080E0 | t1 == 0 | t1 == 0xD800) {
                break;
            }
            d[dp] = (char) c1;
            sp += 3;
            dp += 1;
        }
        return pack(sp, dp);
    }

    /**
     * 3-byte chars at b[sp] near the end of the bytes or of d, or in strict mode (or after {@link #mixed3} stopped):
     * two at a time from one eight-byte load, then one at a time; the run ends at the first byte that is anything
     * else.
     */
    private static long run3(byte[] b, int sp, int sl, char[] d, int dp, int dl) {
        while (sp <= sl - 8 && dp <= dl - 2) {
            long w = (long) LONGS.get(b, sp);
            if ((w & PAIR3_MASK) != PAIR3_BITS) {
                break;
            }
            int c1 = first3(w);
            int c2 = second3(w);
            int t1 = c1 & 0xF800;
            int t2 = c2 & 0xF800;
            if (t1 == 0 | t1 == 0xD800 | t2 == 0 | t2 == 0xD800) {
                break;
            }
            d[dp] = (char) c1;
            d[dp + 1] = (char) c2;
            dp += 2;
            sp += 6;
        }
        while (sp + 2 < sl && dp < dl) {
            int x = b[sp];
            int b2 = b[sp + 1];
            int b3 = b[sp + 2];
            int c = ((x & 0x0F) << 12) | ((b2 & 0x3F) << 6) | (b3 & 0x3F);
            if ((x >> 4) != -2 || ((b2 & 0xC0) ^ 0x80 | (b3 & 0xC0) ^ 0x80) != 0 || c < 0x800
                    || (c >= 0xD800 && c <= 0xDFFF)) {
                break;
            }
            d[dp++] = (char) c;
            sp += 3;
        }
        return pack(sp, dp);
    }

    /**
     * A run of 2-byte chars at b[sp] (110xxxxx 10xxxxxx: U+0080..U+07FF; C0 and C1 are overlong: Latin, Greek,
     * Cyrillic, Hebrew, Arabic), four at a time from one eight-byte load, then one at a time.
     */
    private static long run2(byte[] b, int sp, int sl, char[] d, int dp, int dl) {
        while (sp <= sl - 8 && dp <= dl - 4) {
            long w = (long) LONGS.get(b, sp);
            // Each lead 110xxxxx but not 1100000x, each second byte 10xxxxxx.
            if ((w & 0xC0E0C0E0C0E0C0E0L) != 0x80C080C080C080C0L
                    || ((w & 0x1E001E001E001EL) + 0x7FFF7FFF7FFF7FFFL & 0x8000800080008000L) != 0x8000800080008000L) {
                break;
            }
            d[dp] = (char) (((w & 0x1F) << 6) | ((w >>> 8) & 0x3F));
            d[dp + 1] = (char) (((w >>> 10) & 0x7C0) | ((w >>> 24) & 0x3F));
            d[dp + 2] = (char) (((w >>> 26) & 0x7C0) | ((w >>> 40) & 0x3F));
            d[dp + 3] = (char) (((w >>> 42) & 0x7C0) | ((w >>> 56) & 0x3F));
            dp += 4;
            sp += 8;
        }
        while (sp + 1 < sl && dp < dl) {
            int x = b[sp];
            int b2 = b[sp + 1];
            if ((x >> 5) != -2 || (b2 & 0xC0) != 0x80 || (x & 0x1E) == 0) {
                break;
            }
            d[dp++] = (char) (((x & 0x1F) << 6) | (b2 & 0x3F));
            sp += 2;
        }
        return pack(sp, dp);
    }

    /**
    /**
     * One non-ASCII sequence at b[sp] with all of the JDK decoder's rules: writes its char(s) or one U+FFFD and
     * returns {@link #pack}(new sp, new dp); or returns -1 when the sequence is well-formed so far but continues past
     * sl, or when it is malformed in strict mode ({@link #malformed} set).
     */
    private long utf8Exact(byte[] b, int sp, int sl, char[] d, int dp, int dl) {
        int n = utf8Sequence(b, sp, sl);
        if (n == 0) {
            return -1;
        }
        if (n < 0) {
            if (strict) {
                malformed = -n;
                return -1;
            }
            d[dp] = REPLACEMENT;
            return pack(sp - n, dp + 1);
        }
        int b1 = b[sp] & 0xFF;
        if (n == 2) {
            d[dp] = (char) (((b1 & 0x1F) << 6) | (b[sp + 1] & 0x3F));
        } else if (n == 3) {
            d[dp] = (char) (((b1 & 0x0F) << 12) | ((b[sp + 1] & 0x3F) << 6) | (b[sp + 2] & 0x3F));
        } else {
            int cp = ((b1 & 0x07) << 18) | ((b[sp + 1] & 0x3F) << 12) | ((b[sp + 2] & 0x3F) << 6)
                    | (b[sp + 3] & 0x3F);
            d[dp++] = Character.highSurrogate(cp);
            if (dp < dl) {
                d[dp] = Character.lowSurrogate(cp);
            } else {
                pendingLow = Character.lowSurrogate(cp);
                return pack(sp + 4, dp);
            }
        }
        return pack(sp + n, dp + 1);
    }

    /**
     * The UTF-8 sequence at b[sp] (sp < sl, b[sp] not ASCII) by the JDK decoder's rules (sun.nio.cs.UTF_8): its length
     * 2..4 if it is well-formed and complete; minus the length of the malformed subpart that one U+FFFD replaces if it
     * is malformed; 0 if it is well-formed so far but continues past sl.
     */
    static int utf8Sequence(byte[] b, int sp, int sl) {
        int rem = sl - sp;
        int b1 = b[sp] & 0xFF;
        if (b1 >= 0xC2 && b1 <= 0xDF) {
            if (rem < 2) {
                return 0;
            }
            return isContinuation(b[sp + 1]) ? 2 : -1;
        } else if (b1 >= 0xE0 && b1 <= 0xEF) {
            if (rem < 3) {
                return rem > 1 && isMalformed3Prefix(b1, b[sp + 1]) ? -1 : 0;
            }
            int b2 = b[sp + 1];
            int b3 = b[sp + 2];
            if (isMalformed3Prefix(b1, b2)) {
                return -1;
            } else if (!isContinuation(b3)) {
                return -2;
            }
            char c = (char) (((b1 & 0x0F) << 12) | ((b2 & 0x3F) << 6) | (b3 & 0x3F));
            return Character.isSurrogate(c) ? -3 : 3;
        } else if (b1 >= 0xF0 && b1 <= 0xF7) {
            if (b1 > 0xF4 || rem > 1 && isMalformed4Prefix(b1, b[sp + 1] & 0xFF)) {
                return -1;
            } else if (rem > 2 && !isContinuation(b[sp + 2])) {
                return -2;
            } else if (rem < 4) {
                return 0;
            }
            return isContinuation(b[sp + 3]) ? 4 : -3;
        }
        return -1; // a continuation byte, C0, C1 (always overlong), or F8..FF (5- and 6-byte leaders)
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
}
