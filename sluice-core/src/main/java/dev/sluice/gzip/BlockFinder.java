package dev.sluice.gzip;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds bit offsets in compressed bytes where a non-final DEFLATE block plausibly starts, for decoding a chunk before
 * the data before it is known (rapidgzip's and pugz's method, Sluice's code): a dynamic-Huffman block whose header
 * passes zlib's checks (HLIT at most 286, HDIST at most 30, a complete code-length code, code lengths that decode
 * without a bad repeat, an end-of-block code, literal/length and distance codes neither over-subscribed nor
 * incomplete, as zlib judges them), or a stored block (three zero header bits, then at the next byte LEN and its
 * complement). Cheap filters on a 64-bit peek come first, so most offsets cost a few instructions. A candidate can be
 * false (random bits that pass every filter); the caller decodes from it and moves on when that fails, and the
 * ordered resolver compares it with the true boundary. Fixed-Huffman blocks and final blocks are not looked for (too
 * weak a filter; the caller then decodes from the true boundary). Not thread-safe: it uses the caller's
 * {@link MarkerInflater} for the full header check.
 */
final class BlockFinder {
    private BlockFinder() {}

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    /**
     * The first candidate bit in {@code [fromBit, toBit)} of {@code in[0..limit)}, or -1. {@code in} must have 16
     * bytes after {@code limit} (their values are never trusted as data).
     */
    static long next(MarkerInflater inflater, byte[] in, int limit, long fromBit, long toBit) {
        long end = Math.min(toBit, ((long) limit << 3) - 3);
        for (long bit = fromBit; bit < end; bit++) {
            int at = (int) (bit >>> 3);
            long v = (long) LONG_LE.get(in, at) >>> (bit & 7);
            int head = (int) v & 7;
            if (head == 4) { // BFINAL 0, BTYPE 10
                if (((v >>> 3) & 31) <= 29 && ((v >>> 8) & 31) <= 29 && completeCodeLengthCode(in, bit, v)
                        && dynamic(inflater, in, limit, bit)) {
                    return bit;
                }
            } else if (head == 0) { // BFINAL 0, BTYPE 00
                int b = (int) ((bit + 3 + 7) >>> 3);
                if (b + 4 <= limit) {
                    int len = (in[b] & 0xff) | (in[b + 1] & 0xff) << 8;
                    int nlen = (in[b + 2] & 0xff) | (in[b + 3] & 0xff) << 8;
                    if (len == (~nlen & 0xffff) && b + 4 + len <= limit) {
                        return bit;
                    }
                }
            }
        }
        return -1;
    }

    /**
     * {@code KRAFT[g]}: the sum of 2^(7 - length) over the four 3-bit code lengths in the 12 bits {@code g} (0 for a
     * length of 0). One bit in nine or so gets this far, so the sum is five table reads (up to 19 lengths, 57 bits)
     * and no branch per length.
     */
    private static final short[] KRAFT = new short[1 << 12];

    static {
        for (int g = 0; g < KRAFT.length; g++) {
            int k = 0;
            for (int i = 0; i < 4; i++) {
                int l = g >>> (3 * i) & 7;
                k += l == 0 ? 0 : 128 >>> l;
            }
            KRAFT[g] = (short) k;
        }
    }

    /** The code-length code's lengths (3 bits each after the 17 header bits) make a complete code. */
    private static boolean completeCodeLengthCode(byte[] in, long bit, long v) {
        int hclen = (int) (v >>> 13 & 15) + 4;
        long w = (long) LONG_LE.get(in, (int) ((bit + 17) >>> 3)) >>> ((bit + 17) & 7);
        // 4 to 19 lengths: 12 to 57 bits of the 57 or more that w holds after a shift of at most 7.
        w &= -1L >>> (64 - 3 * hclen);
        // Sum of 2^(7 - length): 128 exactly is a complete, not over-subscribed code.
        int kraft = KRAFT[(int) w & 0xfff] + KRAFT[(int) (w >>> 12) & 0xfff] + KRAFT[(int) (w >>> 24) & 0xfff]
                + KRAFT[(int) (w >>> 36) & 0xfff] + KRAFT[(int) (w >>> 48) & 0xfff];
        return kraft == 128;
    }

    private static boolean dynamic(MarkerInflater inflater, byte[] in, int limit, long bit) {
        inflater.seek(in, limit, bit + 3);
        return inflater.dynamicHeader();
    }
}
