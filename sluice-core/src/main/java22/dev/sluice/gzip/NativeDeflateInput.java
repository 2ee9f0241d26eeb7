package dev.sluice.gzip;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The input side of the streaming native deflaters ({@link IsalDeflateEngine}, {@link SystemZlibDeflateEngine}),
 * whose stream structs both begin with {@code next_in} (a pointer) and {@code avail_in} (a u32 at offset 8): ISA-L's
 * {@code isal_zstream} and zlib's {@code z_stream}. A direct buffer is read where it is, all at once; an array is
 * copied into a native block of {@link #CHUNK} bytes at a time; a dictionary is the last 32 KiB of what is given,
 * read in place from a direct buffer or copied into the same block. Not thread-safe.
 */
final class NativeDeflateInput {
    /** Bytes of array input copied to C at a time, and the block's size (at least a dictionary's 32 KiB). */
    static final int CHUNK = 256 * 1024;
    private static final long NEXT_IN = 0;
    private static final long AVAIL_IN = 8;
    private static final int DICT_MAX = 32 * 1024;

    private final MemorySegment stream;
    private final MemorySegment in;
    /** The caller's direct buffer that C reads in place, held so that its memory lives until the next input. */
    private ByteBuffer direct;
    /** Caller's input not yet copied to C: input[inOff, inOff + inLen). */
    private byte[] input;
    private int inOff;
    private int inLen;

    /** Input for {@code stream}, through {@code in} ({@link #CHUNK} bytes at least) for arrays and dictionaries. */
    NativeDeflateInput(MemorySegment stream, MemorySegment in) {
        this.stream = stream;
        this.in = in;
    }

    /** Forgets any input; {@code next_in} points at the block, empty. */
    void clear() {
        stream.set(ValueLayout.ADDRESS, NEXT_IN, in);
        stream.set(ValueLayout.JAVA_INT, AVAIL_IN, 0);
        input = null;
        direct = null;
        inLen = 0;
    }

    /** The next input, an array: copied to C by {@link #refill()} as C takes it. */
    void set(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        direct = null;
        input = b;
        inOff = off;
        inLen = len;
    }

    /** The next input, a direct buffer's bytes between its position and limit, read where they are. */
    void set(ByteBuffer b) {
        input = null;
        inLen = 0;
        direct = b;
        stream.set(ValueLayout.ADDRESS, NEXT_IN, MemorySegment.ofBuffer(b)); // exactly [position, limit)
        stream.set(ValueLayout.JAVA_INT, AVAIL_IN, b.remaining());
    }

    /**
     * Once C has taken what it was given, copies the next chunk of array input; returns true if what C now has is
     * the last of the caller's input (a flush or the end of the stream applies to it).
     */
    boolean refill() {
        if (availIn() == 0 && inLen > 0) {
            int n = Math.min(inLen, CHUNK);
            MemorySegment.copy(input, inOff, in, ValueLayout.JAVA_BYTE, 0, n);
            inOff += n;
            inLen -= n;
            stream.set(ValueLayout.ADDRESS, NEXT_IN, in);
            stream.set(ValueLayout.JAVA_INT, AVAIL_IN, n);
        }
        return inLen == 0;
    }

    /** Bytes C has been given and not taken. */
    int availIn() {
        return stream.get(ValueLayout.JAVA_INT, AVAIL_IN);
    }

    /** True when every byte given has been taken by C. */
    boolean needsInput() {
        return inLen == 0 && availIn() == 0;
    }

    /** The last 32 KiB (at most) of {@code b[off, off + len)}, copied into the block: only those can be referred to. */
    MemorySegment dictionary(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        int n = Math.min(len, DICT_MAX);
        MemorySegment.copy(b, off + len - n, in, ValueLayout.JAVA_BYTE, 0, n);
        return in.asSlice(0, n);
    }

    /** The last 32 KiB (at most) of a direct buffer's bytes between its position and limit, where they are. */
    static MemorySegment dictionary(ByteBuffer direct) {
        int n = Math.min(direct.remaining(), DICT_MAX);
        return MemorySegment.ofBuffer(direct).asSlice(direct.remaining() - n);
    }
}
