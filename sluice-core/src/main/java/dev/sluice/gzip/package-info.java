/**
 * Gzip (RFC 1952): reading and writing members, in parallel where the layout allows, and random access through an
 * index.
 *
 * <p>Start with {@link dev.sluice.gzip.GzipInputStream} (in place of {@code GZIPInputStream}: multi-member, CRC and
 * size checked, independent members decoded on several threads) and {@link dev.sluice.gzip.GzipOutputStream}, or
 * {@link dev.sluice.gzip.ParallelGzipOutputStream} to compress on every core in one of three layouts
 * ({@link dev.sluice.gzip.ParallelGzipOutputStream.Format}: one member, independent members with Sluice's {@code SL}
 * subfield, BGZF). {@link dev.sluice.gzip.GzipHeader} is a member's header; {@link dev.sluice.gzip.GzipMembers} walks
 * the independent layouts by their size subfields without decoding (splitters); {@link dev.sluice.gzip.GzipIndex}
 * makes any gzip file seekable and, given to {@link dev.sluice.gzip.GzipInputStream.Builder#index}, decodable on every
 * core; {@link dev.sluice.gzip.GzipEngines} says
 * which raw-deflate engines are in use.
 *
 * <p>Inside, in layers, each using only those below it:
 * <ol>
 *   <li>the index, every file named {@code GzipIndex*}: {@code GzipIndex} and the files that build, store, check
 *       and read it ({@code GzipIndexBuild}, {@code GzipIndexScanner}, {@code GzipIndexWalk},
 *       {@code GzipIndexEngineBuild}, {@code GzipIndexTable} (their one member and checkpoint table),
 *       {@code GzipIndexMembers}, {@code GzipIndexFiles}, {@code GzipIndexGztool},
 *       {@code GzipIndexPoints}, {@code GzipIndexChannel}); nothing below refers to them, on top of</li>
 *   <li>the framing: the streams, {@code GzipHeader}, {@code GzipMembers}, {@code MemberCheck} (the one owner of the
 *       end-of-member verdicts), {@link dev.sluice.gzip.GzipStats}, {@code Workers}, {@code GzipFormat},
 *       {@code Crc32s}, the decoding strategies behind {@code ChunkSource} ({@code ParallelInflate}, their workers;
 *       {@code MemberReader}, independent members), and the stream's decoding through an index: {@code EntryPoints} (the one
 *       seam: what the framing sees of an index, made by {@code GzipIndex.entryPoints()}), {@code PieceReader},
 *       {@code Piece}, {@code BitStarts} (starting any engine at a bit offset, which {@code GzipIndexChannel} uses
 *       too), and without an index: {@code SpeculativeReader}, {@code BlockFinder}, {@code MarkerInflater},
 *       {@code DeflateTables} (the deflate code tables, which {@code GzipIndexScanner} shares), on top of</li>
 *   <li>the engine seam: {@code InflateEngine} and {@code DeflateEngine}, the registry of engines ({@code Engine}) and
 *       the policy ({@code GzipEngines}); the JDK's zlib here, ISA-L and libdeflate through java.lang.foreign in the
 *       multi-release jar's {@code META-INF/versions/22}.</li>
 * </ol>
 */
package dev.sluice.gzip;
