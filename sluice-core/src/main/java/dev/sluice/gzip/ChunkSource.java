package dev.sluice.gzip;

import java.io.IOException;

/**
 * The seam between {@link GzipInputStream}'s framing and a strategy that decodes on worker threads: the stream reads
 * the first member's header, then, when a strategy applies, hands the strategy the compressed input from that
 * member's deflate data on (the bytes it has read ahead, then its source) and from then on only takes decoded chunks,
 * in stream order, with {@link #next()}, copies them out and gives them back with {@link #recycle}.
 *
 * <p>Strategies: independent members ({@link MemberReader}: their size subfields say where each starts), index pieces
 * ({@link PieceReader}: checkpoints with windows), and speculative chunks for any gzip without an index (issue 32:
 * block starts found in the compressed bytes, decoded before their window is known). A strategy that takes over the
 * input either runs to the end of the stream (every member after the first, the end-of-member verdicts through
 * {@link MemberCheck}, their one owner, and what follows the last member: zeros, trailing garbage under the stream's
 * policy), or stops at a member boundary and hands the rest of the input back ({@link #rest()}), where the stream's
 * framing goes on (MemberReader does so at an ordinary member, at a header it leaves to the framing and at the end).
 *
 * <p>Making and plugging in a strategy: a final, package-private class implementing this interface, with a
 * constructor of this shape, which starts at the first deflate byte of the member whose header the stream has read:
 * <pre>{@code
 * XReader(ParallelInflate workers,       // its pool: new ParallelInflate(threads) or (threads, maxInFlight)
 *         InputStream in,                // the stream's source, after what it read ahead
 *         byte[] buf, int pos, int lim,  // read ahead: buf[pos..lim) is the member's deflate data on
 *         long bufStart,                 // compressed offset of buf[0]
 *         GzipMembers.Member claim,      // the member's size subfield (SL, BC), or null
 *         boolean ignoreTrailingGarbage, // the stream's trailing-data policy
 *         ...)                           // what is its own (PieceReader: the entry points, the piece size)
 * }</pre>
 * {@link GzipInputStream}'s {@code strategy()} is the one place a strategy is chosen and made, after each member's
 * header, from {@code -Dsluice.gzip.strategy=auto|serial|speculative} (parsed there; a builder's test hook too), the
 * stream's threads and index and the member's claim: a new strategy is one {@code return new XReader(...)} line
 * there. The stream owns the buffer no more once a strategy has it; a strategy owns its workers (closed by
 * {@link #close()}; MemberReader's are the stream's, shared by the runs of independent members). Every strategy
 * joins {@code ChunkSourceContractTest} with one line in its {@code strategies()}.
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

    /**
     * After {@link #next()} returned null: where the stream's framing goes on, when the strategy stopped at a member
     * it does not take (the independent-members strategy stops at an ordinary member, a header it leaves to the
     * framing, and the end); null when the strategy ran to the end of the stream and checked it (then
     * {@link #trailingGarbageIgnored()} is its verdict on the trailing data). The default: null.
     */
    default Rest rest() {
        return null;
    }

    /**
     * The compressed input handed back: {@code buf[pos..lim)} not yet consumed, {@code buf[0]} at compressed offset
     * {@code bufStart}, then the stream's source; the array is the stream's from then on.
     */
    final class Rest {
        final byte[] buf;
        final int pos;
        final int lim;
        final long bufStart;

        Rest(byte[] buf, int pos, int lim, long bufStart) {
            this.buf = buf;
            this.pos = pos;
            this.lim = lim;
            this.bufStart = bufStart;
        }
    }

    /** Cancels what is in flight and stops the workers; safe while workers run, and twice. */
    void close();
}
