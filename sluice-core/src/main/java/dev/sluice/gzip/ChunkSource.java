package dev.sluice.gzip;

import java.io.IOException;

/**
 * The seam between {@link GzipInputStream}'s framing and a strategy that decodes on worker threads: the stream reads
 * the first member's header, then, when a strategy applies, hands the strategy the compressed input from that
 * member's deflate data on (the bytes it has read ahead, then its source) and from then on only takes decoded chunks,
 * in stream order, with {@link #next()}, copies them out and gives them back with {@link #recycle}.
 *
 * <p>Strategies: independent members (their size subfields say where each starts), index pieces ({@link PieceReader}:
 * checkpoints with windows), and speculative chunks for any gzip without an index (block starts found in the
 * compressed bytes, decoded before their window is known). A strategy that takes over the input runs to the end of
 * the stream: every member after the first, the end-of-member verdicts (CRC32, ISIZE, size subfields, through the
 * one owner of those verdicts) and what follows the last member (zeros, trailing garbage under the stream's policy).
 *
 * <p>Contract, held by a contract test over every strategy: the bytes of all chunks, in order, are exactly the bytes
 * the one-thread path returns for the same input; where the one-thread path throws, {@link #next()} throws an
 * exception of the same type after returning at most the bytes the one-thread path returned before it (never a byte
 * that a check covering it has not passed); no chunk is returned before the checks that cover its bytes passed. The
 * caller's thread does no per-byte work in a strategy beyond handing chunks over: decoding, CRC32s and copies run on
 * workers. Not thread-safe: one caller thread; the workers are the strategy's.
 */
interface ChunkSource {

    /**
     * The next decoded chunk in stream order, waiting for it; null after the last, when the end of the stream has
     * been checked. A worker's exception, or one of the checks, is thrown in order: after the bytes before it.
     */
    ParallelInflate.Decoded next() throws IOException;

    /** Gives back a chunk returned by {@link #next()} once its bytes have been copied out. */
    void recycle(ParallelInflate.Decoded chunk);

    /** True if the stream ended with non-zero trailing data that the stream's policy let pass. */
    boolean trailingGarbageIgnored();

    /** From now on, chunks go to a channel: decode into direct buffers where that saves a copy. */
    void directOutput();

    /** Cancels what is in flight and stops the workers; safe while workers run, and twice. */
    void close();
}
