package dev.sluice.gzip;

import dev.sluice.internal.Checks;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.IntFunction;
import java.util.zip.CRC32;

/**
 * What one {@link ParallelGzipOutputStream.Format} writes around and into the blocks that the stream cuts, hands to
 * its workers and writes back in order: the bytes before the first block and after the last, how a block is
 * compressed (with or without the 32 KiB before it, into raw deflate or into a whole member), which compressor does
 * it, and whether the blocks' CRCs make one running CRC. One implementation per format; the stream owns the blocks,
 * the threads and the underlying stream, and asks its layout. {@link #compress} runs on the workers, concurrently on
 * one layout: implementations are immutable and thread-safe.
 */
interface GzipLayout {

    /** Deflate's window: the most history a block can use as its dictionary. */
    int DICTIONARY_SIZE = 32 * 1024;

    /** The layout of {@code format} for a stream with these settings; independentBlocks matters to one member only. */
    static GzipLayout of(ParallelGzipOutputStream.Format format, GzipHeader header, int level, int strategy,
            boolean independentBlocks) {
        switch (format) {
            case SINGLE_MEMBER:
                return new SingleMember(header, level, strategy, independentBlocks);
            case INDEPENDENT_MEMBERS:
                return new IndependentMembers(header, level, strategy);
            case BGZF:
                return new Bgzf(level, strategy);
            default:
                throw new AssertionError(format);
        }
    }

    /** Input bytes per block, given the builder's. */
    int blockSize(int requested);

    /** Bytes of input before a block that its compression may refer to: 32 KiB, or 0 where blocks stand alone. */
    int dictionary();

    /**
     * Whether the last block may be cut into pieces, one per worker, that end together: only where pieces are
     * invisible in the output (one member); each independent member or BGZF block promises a block's worth of input.
     */
    boolean splitsLastBlock();

    /**
     * Whether a last block that holds no input is still written: only where the output would otherwise hold no
     * member at all ({@code anyBefore} false; gzip has at least one), and never for BGZF, whose end-of-file block is
     * its empty member.
     */
    boolean writesEmptyLastBlock(boolean anyBefore);

    /** What goes before the first block: one member's header, or nothing where each block carries its own. */
    byte[] prologue();

    /** What follows the last block: one member's trailer ({@code crc} and {@code size} of all input), BGZF's EOF. */
    byte[] epilogue(long crc, long size);

    /** The running CRC of all input after a block of {@code len} bytes with CRC {@code blockCrc}; 0 if unused. */
    long crc(long crc, long blockCrc, long len);

    /** A new compressor for this layout's blocks, as {@link GzipEngines} chooses it. */
    DeflateEngine newEngine();

    /**
     * Runs on a worker: compresses {@code input[off, off + len)}, with the {@code dictLen} bytes before it as history,
     * into an array from {@code outputs} (which returns one of at least the length asked, reused or new). {@code last}:
     * the end of the input; {@code first}: the first block written. {@code engine} is reset here.
     */
    ParallelGzipOutputStream.Compressed compress(DeflateEngine engine, ByteBuffer input, int off, int dictLen, int len,
            boolean last, boolean first, IntFunction<byte[]> outputs);

    /** The CRC-32 of {@code data}'s remaining bytes (the intrinsic: it runs on the worker that compressed them). */
    private static long crc32(ByteBuffer data) {
        CRC32 c = new CRC32();
        c.update(data.duplicate());
        return c.getValue();
    }

    /**
     * {@link ParallelGzipOutputStream.Format#SINGLE_MEMBER}: one header, blocks of raw deflate primed with the 32 KiB
     * before them (unless independent) and ended with a sync flush so that they concatenate, the last ending the
     * stream; one trailer whose CRC the stream combines from the blocks'. What gzip and pigz write.
     */
    final class SingleMember implements GzipLayout {
        private final GzipHeader header;
        private final int level;
        private final int strategy;
        private final boolean independent;

        SingleMember(GzipHeader header, int level, int strategy, boolean independent) {
            this.header = header;
            this.level = level;
            this.strategy = strategy;
            this.independent = independent;
        }

        @Override
        public int blockSize(int requested) {
            return requested;
        }

        @Override
        public int dictionary() {
            return independent ? 0 : DICTIONARY_SIZE;
        }

        @Override
        public boolean splitsLastBlock() {
            return !independent; // independent blocks promise block-sized pieces to a reader that restarts at them
        }

        @Override
        public boolean writesEmptyLastBlock(boolean anyBefore) {
            return true; // it ends the deflate stream
        }

        @Override
        public byte[] prologue() {
            return header.encode(GzipFormat.xfl(level));
        }

        @Override
        public byte[] epilogue(long crc, long size) {
            return GzipFormat.trailer(crc, size);
        }

        @Override
        public long crc(long crc, long blockCrc, long len) {
            return Crc32s.combine(crc, blockCrc, len);
        }

        @Override
        public DeflateEngine newEngine() {
            return GzipEngines.parallelDeflater(level, strategy);
        }

        /** Raw deflate ending with SYNC_FLUSH, or with the final block if {@code last}. */
        @Override
        public ParallelGzipOutputStream.Compressed compress(DeflateEngine engine, ByteBuffer input, int off,
                int dictLen, int len, boolean last, boolean first, IntFunction<byte[]> outputs) {
            engine.reset();
            if (dictLen > 0) {
                engine.setDictionary(input.slice(off - dictLen, dictLen));
            }
            ByteBuffer data = input.slice(off, len); // a view of the worker's own: the block's position is the caller's
            engine.setInput(data);
            byte[] o = outputs.apply(len + (len >>> 3) + 64);
            int n = 0;
            if (last) {
                engine.finish();
                while (!engine.finished()) {
                    if (n == o.length) {
                        o = Arrays.copyOf(o, o.length * 2);
                    }
                    n += engine.deflate(o, n, o.length - n, DeflateEngine.NO_FLUSH);
                }
            } else {
                for (int idle = 0; ; ) {
                    if (n == o.length) {
                        o = Arrays.copyOf(o, o.length * 2);
                    }
                    int k = engine.deflate(o, n, o.length - n, DeflateEngine.SYNC_FLUSH);
                    n += k;
                    if (n < o.length && engine.needsInput()) {
                        break; // all input taken and room to spare: the flush is complete
                    }
                    // Room to spare with input left would be an engine that made no progress: never loop on it
                    // forever, and never drop the input (which is what ending here on "room to spare" alone did).
                    idle = k == 0 ? idle + 1 : 0;
                    if (idle > 2) {
                        throw new IllegalStateException("deflate engine made no progress with "
                                + "input left (block of " + len + " bytes)");
                    }
                }
            }
            return new ParallelGzipOutputStream.Compressed(len, crc32(data), o, n);
        }
    }

    /**
     * The layouts whose every block is a whole member (header, deflate with no dictionary, trailer), compressed
     * one-shot; they differ in the member's header and its size limit.
     */
    abstract class Members implements GzipLayout {
        private final int level;
        private final int strategy;

        Members(int level, int strategy) {
            this.level = level;
            this.strategy = strategy;
        }

        /** The header of a member of {@code total} bytes holding {@code size} input bytes. */
        abstract byte[] header(boolean first, long total, long size);

        /** Throws IllegalStateException if a member of {@code total} bytes breaks the format's limit. */
        abstract void checkMemberSize(long total);

        @Override
        public int dictionary() {
            return 0;
        }

        @Override
        public boolean splitsLastBlock() {
            return false;
        }

        @Override
        public byte[] prologue() {
            return new byte[0];
        }

        @Override
        public long crc(long crc, long blockCrc, long len) {
            // Each member has its own CRC: nothing to combine. At level 1 the combine (then zlib's matrix method)
            // was 2% of the CPU of a 1.1 GB run.
            return 0;
        }

        @Override
        public DeflateEngine newEngine() {
            return GzipEngines.memberDeflater(level, strategy);
        }

        @Override
        public ParallelGzipOutputStream.Compressed compress(DeflateEngine engine, ByteBuffer input, int off,
                int dictLen, int len, boolean last, boolean first, IntFunction<byte[]> outputs) {
            int headerLen = header(first, 0, 0).length; // the sizes do not change the header's length
            engine.reset();
            ByteBuffer data = input.slice(off, len);
            engine.setInput(data);
            engine.finish();
            byte[] o = outputs.apply(headerLen + len + (len >>> 3) + 64 + 8);
            int n = headerLen;
            while (!engine.finished()) {
                if (n == o.length) {
                    o = Arrays.copyOf(o, o.length * 2);
                }
                n += engine.deflate(o, n, o.length - n, DeflateEngine.NO_FLUSH);
            }
            if (o.length < n + 8) {
                o = Arrays.copyOf(o, n + 8);
            }
            long total = n + 8L;
            checkMemberSize(total);
            System.arraycopy(header(first, total, len), 0, o, 0, headerLen);
            long crc = crc32(data);
            GzipMembers.putLe(o, n, crc, 4);
            GzipMembers.putLe(o, n + 4, len, 4);
            return new ParallelGzipOutputStream.Compressed(len, crc, o, n + 8);
        }
    }

    /**
     * {@link ParallelGzipOutputStream.Format#INDEPENDENT_MEMBERS}: each block a member whose header carries Sluice's
     * {@code SL} subfield; the first member has the builder's header, the others {@link #LATER_MEMBERS}'.
     */
    final class IndependentMembers extends Members {
        /** The header of every independent member but the first. */
        private static final GzipHeader LATER_MEMBERS = GzipHeader.builder().os(GzipHeader.OS_UNKNOWN).build();

        private final GzipHeader header;
        private final int level;
        /** FEXTRA payload of the builder's header (empty if none): the first member keeps it beside SL. */
        private final byte[] userExtra;

        IndependentMembers(GzipHeader header, int level, int strategy) {
            super(level, strategy);
            this.header = header;
            this.level = level;
            this.userExtra = header.extra().orElse(new byte[0]);
            Checks.argument(userExtra.length + 20 <= 0xffff,
                    "header's extra field too long to add the 20-byte SL subfield: %s", userExtra.length);
        }

        @Override
        public int blockSize(int requested) {
            return requested;
        }

        @Override
        public boolean writesEmptyLastBlock(boolean anyBefore) {
            return !anyBefore;
        }

        @Override
        public byte[] epilogue(long crc, long size) {
            return new byte[0];
        }

        @Override
        byte[] header(boolean first, long total, long size) {
            byte[] extra = GzipMembers.withSl(first ? userExtra : new byte[0], total, size);
            return (first ? header : LATER_MEMBERS).withExtra(extra).encode(GzipFormat.xfl(level));
        }

        @Override
        void checkMemberSize(long total) {
            // SL holds a u64: any member fits.
        }
    }

    /** {@link ParallelGzipOutputStream.Format#BGZF}: htslib's members of at most 65,280 input bytes and its EOF block. */
    final class Bgzf extends Members {
        /** Input bytes per BGZF member, htslib's BGZF_BLOCK_SIZE: stored in the worst case it still fits in 64 KiB. */
        static final int BLOCK_SIZE = 0xff00;

        Bgzf(int level, int strategy) {
            super(level, strategy);
        }

        @Override
        public int blockSize(int requested) {
            return BLOCK_SIZE;
        }

        @Override
        public boolean writesEmptyLastBlock(boolean anyBefore) {
            return false; // bgzip writes only the end-of-file block
        }

        @Override
        public byte[] epilogue(long crc, long size) {
            return GzipMembers.BGZF_EOF.clone();
        }

        @Override
        byte[] header(boolean first, long total, long size) {
            return GzipMembers.bgzfHeader(total);
        }

        @Override
        void checkMemberSize(long total) {
            if (total > GzipMembers.BGZF_MAX_MEMBER) {
                // zlib's worst case for 65,280 bytes is far below 64 KiB; a backend that breaks this is a bug.
                throw new IllegalStateException("BGZF member of " + total + " bytes exceeds 65536");
            }
        }
    }
}
