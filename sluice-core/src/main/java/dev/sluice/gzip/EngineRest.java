package dev.sluice.gzip;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.DataFormatException;

/**
 * Hands the rest of a speculative chunk's decode to the stream's native engine (ISA-L, about 2.5x the Java decoder's
 * byte phase) once the 32 KiB before the decode's position are known bytes, stopping exactly at the next chunk's
 * block start: ISA-L 2.30 has no stop-at-block-end (rapidgzip patches its copy for that), so it gets the input from
 * the position (started mid-byte with {@link BitStarts#prefix}) up to that bit, then a crafted end there: a final
 * stored block (BFINAL 1, BTYPE 00, zeros to the byte, LEN 16, NLEN) holding {@link #MARK} random bytes of this
 * decoder's own. ISA-L's output is taken only if it finished with every input byte used and ends with the mark (which
 * is dropped): then the stop is a block boundary of the data decoded from the position, and the output up to the mark
 * is exactly the bytes up to the stop. At any other bit (a false candidate) ISA-L reads the crafted bytes as codes of
 * the block that goes on there, and fails, asks for more input, or (in a member's final block, whose end-of-block
 * code the crafted bits can hold) finishes with output that does not end in the mark, but for odds of about 2^-128.
 * Where the member's own final block ends before the crafted bytes, ISA-L's output to there is the member's rest
 * and the trailer follows (the caller's walk checks it as ever). A stored-block candidate gets an end of its own
 * ({@link #storedTail}).
 *
 * <p>The stop is found here, on the decoding worker: the first {@link BlockFinder} candidate in the next chunk's bytes
 * (which every chunk's input array holds) that {@link #plausible} passes, which is the start the next chunk's own
 * decode keeps unless its first candidate was a false stored block that decoded (then the walk decodes that chunk
 * again, as for any mismatch); a candidate ISA-L refuses moves the stop to the next one (at most {@link #TRIES}).
 * Anything else (output past the limit, input that runs out, a stall) turns the handoff off for the decode. A refused
 * handoff leaves the Java decoder's bit position and output as they were: it goes on from the same bit, so
 * speculation costs time, never bytes, and bad data still gets the one-thread path's verdict from the walk's
 * fallback. Memory: the engine's native blocks (about 600 KiB: ISA-L's state and staging buffers) and a probe
 * decoder (tables, and its output of at most 2 Mi symbols). Not thread-safe: one per {@link MarkerInflater}.
 */
final class EngineRest {
    /** {@link #tryRest}: not handed over (the Java decode goes on). */
    static final int NO = -1;
    /** Candidates ISA-L may refuse before the handoff is off for the decode (bad data also fails every one). */
    private static final int TRIES = 2;
    /**
     * Fewer bits than this to the stop (4 KiB of input, about 25 KB of output on text): left to the Java decoder,
     * whose state is warm; an engine start copies a 32 KiB dictionary.
     */
    static final long MIN_BITS = 4L << 13;

    private final InflateEngine engine;
    /** The finder's and {@link #plausible}'s decoder, made at the first search. */
    private MarkerInflater probe;
    /** The crafted end: at most 6 bytes and the mark after a dynamic candidate, 9 and the mark after a stored one. */
    private final byte[] tail = new byte[9 + MARK];
    /**
     * The crafted block's data: {@link #MARK} random bytes, this decoder's own, which the engine's output must end
     * with (and which are then dropped).
     */
    private final byte[] mark = new byte[MARK];
    private static final int MARK = 16;

    // Per decode (begin()).
    private byte[] in;
    private int limit;
    private long stopBit;
    /** The stop: -2 not searched yet, -1 none (the input's end: the member must end before it), else a bit. */
    private long stop;
    /** Where the search for the next stop starts. */
    private long searchFrom;
    private int refused;
    private boolean off;

    // After a handoff that took: where the engine's output starts in the decoder's bytes, and its CRC32 (-1: none).
    int from;
    long crc;

    EngineRest(InflateEngine engine) {
        this.engine = engine;
        new SplittableRandom().nextBytes(mark);
    }

    /** For a new decode of {@code in[0..limit)} that stops at the first block end at or after {@code stopBit}. */
    void begin(byte[] in, int limit, long stopBit) {
        this.in = in;
        this.limit = limit;
        this.stopBit = stopBit;
        this.stop = -2;
        this.searchFrom = stopBit;
        this.refused = 0;
        this.off = false;
        this.from = -1;
    }

    /**
     * At a block boundary {@code at} of the decode, with {@code dict[dictOff..dictOff+dictLen)} the bytes before it
     * (all of them in the member up to 32 KiB): decodes the rest with the engine into {@code m.bytes} from
     * {@code m.length}, at most up to {@code cap} bytes of output in all. Returns {@link MarkerInflater#BOUNDARY}
     * (ended at the stop: {@code m.endBit} there) or {@link MarkerInflater#MEMBER_END} (the member ended first:
     * {@code m.endBit} at the byte after its final block), {@code m.length} grown, {@link #from} and {@link #crc}
     * set; or {@link #NO}, nothing of the decoder's state changed but its tables and bytes past its output.
     */
    int tryRest(MarkerInflater m, long at, byte[] dict, int dictOff, int dictLen, int cap) {
        if (off) {
            return NO;
        }
        long end = (long) limit << 3;
        if (stop == -2) {
            // The next chunk's first candidate (the same search its own decode makes, from its first bit); none for
            // the last chunk, whose input ends with the stream.
            stop = stopBit >= end ? -1 : find(end);
            if (stop < 0 && stopBit < end) {
                off = true; // no candidate in the next chunk: ISA-L would decode it all to find out nothing
                return NO;
            }
        }
        if (stop >= 0 && stop - at < MIN_BITS) {
            off = true; // each later block end is closer still
            return NO;
        }
        int r = run(m, at, dict, dictOff, dictLen, cap);
        if (r == REFUSED) {
            if (++refused >= TRIES) {
                off = true;
            } else {
                searchFrom = stop + 1;
                stop = -2; // the next candidate, searched at the next block end
            }
            return NO;
        }
        if (r == NO) {
            off = true;
        }
        return r;
    }

    /** {@link #run}'s and {@link #decodeTo}'s result where the stop looks false: another candidate may do. */
    static final int REFUSED = -2;

    /**
     * One handoff with a stop of the caller's choosing, for a walk that decodes from block end to block end with the
     * engine alone (the index's engine build): decodes {@code in[0..limit)} from bit {@code at} (a block boundary
     * whose preceding bytes are {@code dict[dictOff..dictOff+dictLen)}) to the candidate {@code stop}, or with
     * {@code stop} -1 to the member's end within the input, into {@code m.bytes} from {@code m.length} (at most
     * {@code cap} bytes there in all). Returns {@link MarkerInflater#BOUNDARY} ({@code stop} is a block boundary:
     * {@code m.endBit} there), {@link MarkerInflater#MEMBER_END} (the member's final block ended first, at the byte
     * before {@code m.endBit}), with {@code m.length}, {@link #from} and {@link #crc} set as by {@link #tryRest};
     * {@link #REFUSED} (the stop is no block boundary of this data, or the data is bad), or {@link #NO} (past
     * {@code cap}, or the input ran out before the member's end).
     */
    int decodeTo(MarkerInflater m, byte[] in, int limit, long at, long stop, byte[] dict, int dictOff, int dictLen,
            int cap) {
        this.in = in;
        this.limit = limit;
        this.stop = stop;
        this.from = -1;
        return run(m, at, dict, dictOff, dictLen, cap);
    }

    private int run(MarkerInflater m, long at, byte[] dict, int dictOff, int dictLen, int cap) {
        InflateEngine e = engine;
        e.reset();
        if (dictLen > 0) {
            e.setDictionary(dict, dictOff, dictLen);
        }
        int first = (int) (at >>> 3);
        int k = (int) (at & 7);
        int midFrom = first;
        byte[] head = null;
        if (k != 0) {
            head = BitStarts.prefix(k, in[first]);
            midFrom = first + 1;
        }
        int midTo;
        int tailLen = 0;
        int markLen = stop >= 0 ? MARK : 0; // the bytes of the mark the output ends with where it stops at the stop
        if (stop >= 0) {
            if (storedAt(in, stop)) {
                midTo = (int) ((stop + 3 + 7) >>> 3);
                tailLen = storedTail();
            } else {
                midTo = (int) (stop >>> 3);
                tailLen = stoppedTail(in[midTo], (int) (stop & 7));
            }
        } else {
            midTo = limit;
        }
        // The pieces in order: the empty blocks with the first byte, the data, the crafted end; each byte of the last
        // two at its own offset of in (the crafted end's first byte is the stop's), so that positions are offsets.
        int piece = head != null ? 0 : 1;
        long pieceEnd;
        if (head != null) {
            e.setInput(head, 0, head.length);
            pieceEnd = first + 1;
        } else if (midTo > midFrom) {
            e.setInput(in, midFrom, midTo - midFrom);
            pieceEnd = midTo;
        } else {
            piece = 2;
            e.setInput(tail, 0, tailLen);
            pieceEnd = midTo + tailLen;
        }
        int start = m.length;
        int len = start;
        try {
            for (int stalls = 0; ; ) {
                if (len == m.bytes.length) {
                    if (len >= cap) {
                        return NO;
                    }
                    m.bytes = Arrays.copyOf(m.bytes, (int) Math.min((long) cap + MarkerInflater.SLACK,
                            Math.max(2L * len, len + (1 << 16))));
                }
                int got = e.inflate(m.bytes, len, m.bytes.length - len);
                len += got;
                if (len > cap) {
                    return NO;
                }
                if (e.finished()) {
                    long end = pieceEnd - e.remaining(); // the byte after the last block ISA-L decoded
                    if (stop >= 0 && piece == 2 && end == pieceEnd) {
                        if (len - start < markLen || !Arrays.equals(m.bytes, len - markLen, len, mark, 0, markLen)) {
                            return REFUSED;
                        }
                        m.endBit = stop;
                        return took(m, start, len - markLen, markLen, MarkerInflater.BOUNDARY);
                    }
                    if (end <= midTo && piece >= 1) {
                        // The member's final block ended before the crafted bytes: every bit it read was data.
                        m.endBit = end << 3;
                        return took(m, start, len, 0, MarkerInflater.MEMBER_END);
                    }
                    return REFUSED; // it read the crafted bits as data: the stop is no block boundary
                }
                if (got > 0) {
                    stalls = 0;
                } else if (e.needsInput()) {
                    if (piece == 0 && midTo > midFrom) {
                        piece = 1;
                        e.setInput(in, midFrom, midTo - midFrom);
                        pieceEnd = midTo;
                    } else if (piece < 2 && stop >= 0) {
                        piece = 2;
                        e.setInput(tail, 0, tailLen);
                        pieceEnd = midTo + tailLen;
                    } else {
                        return stop >= 0 ? REFUSED : NO; // the crafted end went by mid-block, or the input ran out
                    }
                } else if (++stalls > 2) {
                    return NO;
                }
            }
        } catch (DataFormatException x) {
            return REFUSED; // a false stop, or bad data (the Java decode then fails there and the walk judges it)
        }
    }

    /** The handoff took: {@code m}'s output ends at {@code len}, {@code dropped} bytes the engine wrote after it. */
    private int took(MarkerInflater m, int start, int len, int dropped, int status) {
        from = start;
        // The engine's CRC32 covers all it wrote, the mark too: taken off it again.
        crc = engine.computesCrc() ? Crc32s.unappend(engine.crc(), m.bytes, len, dropped) : -1;
        m.length = len;
        return status;
    }

    /**
     * Writes the crafted end into {@link #tail}: the stop's byte (its {@code k} low bits data), BFINAL 1 and BTYPE 00
     * from bit {@code k}, zeros to the byte (the next one where the header spills over), LEN 16, its NLEN and the
     * mark. Returns its length.
     */
    private int stoppedTail(byte b, int k) {
        tail[0] = (byte) ((b & ((1 << k) - 1)) | (1 << k));
        int at = 1;
        if (k + 3 > 8) {
            tail[at++] = 0; // BTYPE's other bits, then padding
        }
        return marked(at);
    }

    /** Writes LEN {@link #MARK}, its NLEN and the mark at {@code tail[at..]}; returns the end. */
    private int marked(int at) {
        tail[at++] = MARK;
        tail[at++] = 0;
        tail[at++] = ~MARK;
        tail[at++] = (byte) 0xff;
        System.arraycopy(mark, 0, tail, at, MARK);
        return at + MARK;
    }

    /**
     * The first candidate from {@link #searchFrom} that is plausible (see {@link #plausible}), or -1. The finder and
     * the probe use a decoder of their own: the chunk's is in the middle of its decode.
     */
    private long find(long end) {
        if (probe == null) {
            probe = new MarkerInflater();
        }
        return firstPlausible(probe, in, limit, searchFrom, end);
    }

    /**
     * The first {@link BlockFinder} candidate in {@code [from, end)} of {@code in[0..limit)} that {@link #plausible}
     * passes, or -1: the one search for a stop, used by this class and by the index's engine build.
     * {@code probe} is the caller's own decoder (not one in the middle of a decode); {@code in} needs 16 bytes after
     * {@code limit}, as for {@link BlockFinder#next}.
     */
    static long firstPlausible(MarkerInflater probe, byte[] in, int limit, long from, long end) {
        while (from < end) {
            long s = BlockFinder.next(probe, in, limit, from, end);
            if (s < 0 || plausible(probe, in, limit, s)) {
                return s;
            }
            from = s + 1;
        }
        return -1;
    }

    /**
     * False for a stored-block candidate that does not decode on for {@link #PROBE_BITS} past its data: the finder's
     * stored filter (three zero bits, LEN and NLEN complements) passes random bits about once every 2^19 bits, tens
     * of times in a 4 MiB chunk, often before its first true block start, and ISA-L would find out only after decoding
     * the whole chunk to it. A dynamic candidate has passed the full header check already. (A true stored block
     * closer than that to {@code limit} is refused too: the caller's input must reach past its candidates.)
     */
    private static boolean plausible(MarkerInflater probe, byte[] in, int limit, long s) {
        if (!storedAt(in, s)) {
            return true;
        }
        int b = (int) ((s + 3 + 7) >>> 3);
        long dataEnd = (long) b + 4 + ((in[b] & 0xff) | (in[b + 1] & 0xff) << 8);
        return probe.decode(in, limit, s, (dataEnd << 3) + PROBE_BITS, false, 1 << 18, 1 << 21)
                == MarkerInflater.BOUNDARY;
    }

    /** How far a stored candidate must decode on past its data: 8 KiB of input, a few blocks. */
    static final long PROBE_BITS = 8L << 13;

    /** True if the candidate at {@code bit} is a stored block's (three zero bits), not a dynamic block's. */
    static boolean storedAt(byte[] in, long bit) {
        return ((in[(int) (bit >>> 3)] & 0xff | (in[(int) (bit >>> 3) + 1] & 0xff) << 8) >>> (bit & 7) & 7) == 0;
    }

    /**
     * The crafted end for a stored-block candidate, written in place of its LEN and NLEN (at the byte its header
     * aligns to): LEN 16, its NLEN and the mark (the block, whichever bit of its header and padding it truly started
     * at, now holds the mark), then a final empty stored block. The finder may have put the candidate anywhere in the
     * header's zero bits and padding (decoding from any of them is the same, as the walk's {@code sameStart} knows),
     * so the engine ends the chunk at the header's true start, a block end it finds itself, and the chunk's end is
     * reported at the candidate, from which the next chunk's decode reads on to the same bytes.
     */
    private int storedTail() {
        int at = marked(0);
        tail[at++] = 1; // a final empty stored block
        tail[at++] = 0;
        tail[at++] = 0;
        tail[at++] = (byte) 0xff;
        tail[at++] = (byte) 0xff;
        return at;
    }

    /** For tests, after {@link #begin}: the stop to use in place of the finder's first candidate. */
    void stopAt(long bit) {
        stop = bit;
    }

    /** Frees the engine. */
    void end() {
        engine.end();
    }
}
