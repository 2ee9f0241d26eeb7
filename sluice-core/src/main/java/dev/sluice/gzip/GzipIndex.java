package dev.sluice.gzip;

import dev.sluice.internal.Checks;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.ZipException;

/**
 * Random access into any gzip file: an index of checkpoints from which decoding can start, so that reading 64 KiB
 * anywhere costs decoding at most about {@linkplain #DEFAULT_SPACING the spacing} instead of everything before it.
 *
 * <ul>
 *   <li><b>Any gzip</b> (one member or many, made by gzip, pigz or anything): checkpoints in zran's manner (zlib's
 *       {@code examples/zran.c}): the bit offset of a DEFLATE block boundary, the uncompressed offset there and the
 *       32 KiB of output before it, about every {@code spacing} bytes of output, plus the start of every member.
 *       {@link #build(Path)} takes them, where the native engine (ISA-L) is bound and there are fewer than 8
 *       processors, from a serial walk with ISA-L
 *       decoding every byte from block end to block end, the block finder proposing each next end on a second thread
 *       ({@code GzipIndexEngineBuild}, at spacings of 1 MiB or more; {@code -Dsluice.gzip.index.engine=false} turns
 *       it off); otherwise, with two processors or more and a file of 8 MiB or more, from the speculative parallel
 *       decoder ({@code GzipIndexWalk}: the file is decoded on every processor in 4 MiB chunks, and the block ends
 *       its ordered walk confirms, with the windows of the decoded bytes before them, are the checkpoints;
 *       {@code -Dsluice.gzip.index.speculativeMinThreads=N} moves the threshold); otherwise a pure-Java scanner finds
 *       block boundaries without output while the JDK's Inflater decodes the data on another thread and copies the
 *       windows. Every build checks every CRC32 and ISIZE; the two without the engine take the first block end at
 *       least {@code spacing} after the last checkpoint, the engine build a block end its finder proposed at least
 *       that far on. Reads start the JDK's Inflater at a checkpoint (raw mode, the window as dictionary, empty
 *       blocks first to reach the bit offset). {@link GzipInputStream.Builder#index} decodes the whole file on
 *       several threads through an index.</li>
 *   <li><b>Independent-member files</b> (Sluice's 'SL' subfield, BGZF's 'BC'): the index is only the member table,
 *       built from headers and trailers without decoding.</li>
 *   <li><b>Files:</b> {@link #save(Path)} writes Sluice's format (by convention {@code FILE.gz.sgzi}; windows
 *       compressed, a CRC32 over the whole file); {@link #save(Path, Format)} also writes indexed_gzip's
 *       {@code GZIDX} format and gztool's, and {@link #load(Path)} reads all three (gztool's does not record the gzip
 *       file's size: its points are checked against the file when it is opened).</li>
 *   <li><b>Bad input:</b> corrupt gzip data is a {@link ZipException} naming the field and offset, a truncated file an
 *       {@link java.io.EOFException}; a corrupt index file is a {@link ZipException} naming the field, and every
 *       point of a loaded index is checked (offsets within the file and increasing, uncompressed offsets within the
 *       data and no more than deflate can make of the bits before them, windows where needed): a bad one is a
 *       {@link ZipException} naming the point; an index
 *       used with a different gzip file is detected by {@link #openChannel} (the compressed size, and for Sluice's
 *       format CRC32s of the file's first and last 64 KiB) and is a {@link ZipException}. indexed_gzip's and gztool's
 *       formats have no checksum over their offsets: a damaged GZIDX or gztool file whose fields still pass the range
 *       checks can give wrong bytes. A window of Sluice's format that does not decode (only possible past its
 *       CRC32, by a deliberate edit) is a {@link ZipException} naming the checkpoint when a read starts there.
 *       Nothing hangs and nothing allocates more than the index file's size or a few
 *       buffers.</li>
 *   <li><b>Thread safety:</b> an index is immutable and can be shared; each channel is its own reader.</li>
 *   <li><b>Memory:</b> the windows are held in memory: 32 KiB per checkpoint (about 3% of the data at the
 *       default spacing) for an index just built or loaded from indexed_gzip's or gztool's format; an index loaded
 *       from Sluice's format keeps them as its file stores them, compressed (about a fifth of that), and decodes each
 *       where a read starts at its checkpoint. {@link #save} compresses them.</li>
 * </ul>
 */
public final class GzipIndex {

    /** Default distance between checkpoints in uncompressed bytes: 1 MiB, as zran.c and indexed_gzip use. */
    public static final long DEFAULT_SPACING = 1 << 20;

    /** Index file formats that {@link #save(Path, Format)} writes; {@link #load(Path)} tells them apart itself. */
    public enum Format {
        /** Sluice's own format (by convention {@code FILE.gz.sgzi}): compressed windows and a check of the gzip file. */
        SLUICE,
        /** indexed_gzip's {@code GZIDX} version 1 file (its {@code export_index} and {@code import_index}). */
        INDEXED_GZIP,
        /**
         * gztool's index file, version 0 (by convention {@code FILE.gzi} for {@code FILE.gz}), which {@code gztool -b}
         * and {@code -I} use as their own. Needs the uncompressed size.
         */
        GZTOOL;

        /**
         * The name an index in this format has beside the gzip file named {@code gzName}, by the convention of the
         * tool that made the format: {@code NAME.sgzi}, {@code NAME.gzidx}, and gztool's {@code STEM.gzi} for
         * {@code STEM.gz} ({@code NAME.gzi} for any other name). bgzip's {@code NAME.gz.gzi} is another format, not
         * this one. The one place that says so for the CLI and sluice-hadoop.
         */
        public String fileName(String gzName) {
            Checks.notNull(gzName, "gzName");
            switch (this) {
                case SLUICE:
                    return gzName + ".sgzi";
                case INDEXED_GZIP:
                    return gzName + ".gzidx";
                default:
                    return (gzName.endsWith(".gz") ? gzName.substring(0, gzName.length() - 3) : gzName) + ".gzi";
            }
        }
    }

    /**
     * Whether {@link #build} scans block boundaries on a second thread while the Inflater decodes (when there are
     * two processors and more than 1 MiB of input). True unless {@code -Dsluice.gzip.index.parallel=false}; the
     * single-thread build is measured beside it in {@code GzipIndexBench} (docs/benchmarks/gzip.md).
     */
    static final boolean PARALLEL_BUILD = !"false".equals(System.getProperty("sluice.gzip.index.parallel"));

    /**
     * Whether {@link #build} decodes with the native engine (ISA-L) where there is one ({@link GzipIndexEngineBuild}:
     * a serial walk from block end to block end, the block finder on a second thread); {@code
     * -Dsluice.gzip.index.engine=false} keeps the builds below, for comparison.
     */
    static final boolean ENGINE_BUILD = !"false".equals(System.getProperty("sluice.gzip.index.engine"));

    /**
     * The smallest spacing {@link #build} takes the engine build for ({@code -Dsluice.gzip.index.engineMinSpacing=},
     * default 1 MiB): it runs one block-finder search per stretch, which reads from its target to the next block
     * start (~10 ns a bit), so where the spacing comes near the blocks' own length its searches read every bit of
     * the file, while the builds below cost the same at any spacing. Temurin 25, 2 cores, {@code sluice index
     * --spacing}, one run each (2026-11-28, docs/benchmarks/gzip.md): the 1.1 GB pigz file (blocks ~128 KiB of
     * output) at 1 MiB 2.69 s against 3.62 s for the builds below, at 256 KiB 4.71 against 4.10 s, at 64 KiB 20.3
     * against 4.9 s; a 100 MB one (m100.gz) at 256 KiB 1.36 against 1.60 s, at 64 KiB 2.43 against 1.78 s. Any
     * spacing builds a correct index (the searches never start behind the last candidate, so each bit is read at
     * most once: a 350 KB file at spacing 1 takes 0.78 s against 0.62 s, where it took 44 s before that fix).
     */
    static final long ENGINE_MIN_SPACING = dev.sluice.internal.Defaults.intProperty(
            "sluice.gzip.index.engineMinSpacing", (int) DEFAULT_SPACING);

    /**
     * From how many processors {@link #build} takes the speculative walk ({@link GzipIndexWalk}) rather than the
     * engine build, for a file of two speculative chunks or more and a heap that holds them
     * ({@code -Dsluice.gzip.index.engineBelowThreads=}, default 8). The engine build's walk decodes every byte with
     * ISA-L on one thread, so it never takes less than a one-thread decode of the file (igzip's: 1.38 s for the
     * 1.19 GB tar on the 16-core Xeon of issue 32, where rapidgzip builds its index in 0.48 s); the speculative walk
     * decodes on every processor. On 2 cores (2026-11-29, Temurin 25, the 1.1 GB pigz file, 3 interleaved rounds;
     * docs/benchmarks/gzip.md) the engine build took 1.41 s with 2.4 s of CPU, the speculative walk 2.28 s with
     * 4.0 s: by those figures the walk is ahead from about 4 processors; 8, the threshold of decoding
     * ({@link GzipInputStream#SPECULATIVE_MIN_THREADS}), leaves a margin for what 2 cores cannot show. The {@code
     * sluice} launcher's C1-only option for {@code index} suits both builds (the walk: 2.28 s with C1 against 2.31 s
     * with C2 on 2 cores).
     */
    static final int ENGINE_BELOW_THREADS = dev.sluice.internal.Defaults.intProperty(
            "sluice.gzip.index.engineBelowThreads", 8);

    /**
     * Whether {@link #build} takes the engine build (where the native engine is bound): at a spacing of at least
     * {@link #ENGINE_MIN_SPACING}, and below {@link #ENGINE_BELOW_THREADS} processors or where the speculative walk
     * would not run (a file under two of its chunks, a heap that does not hold them).
     */
    static boolean engineBuild(int cpus, long size, long spacing, long maxHeap) {
        boolean walk = cpus >= ENGINE_BELOW_THREADS && walkRuns(size, maxHeap);
        return ENGINE_BUILD && spacing >= ENGINE_MIN_SPACING && !walk;
    }

    /** Whether the speculative walk can build this file's index: two of its chunks or more, and a heap for them. */
    private static boolean walkRuns(long size, long maxHeap) {
        return size >= 2L * SpeculativeReader.CHUNK && SpeculativeReader.fits(SpeculativeReader.CHUNK, maxHeap);
    }

    /**
     * From how many processors {@link #build} takes its checkpoints from the speculative parallel decoder
     * ({@link GzipIndexWalk}), for a file of at least two of its chunks (8 MiB); below either the scanner build
     * ({@link GzipIndexBuild}). {@code -Dsluice.gzip.index.speculativeMinThreads=}, default 2: with the
     * {@link MarkerInflater} whose loops compile once or twice (2026-11-28, sixth session), the speculative build of
     * the 1.1 GB pigz file took 3.19 +- 0.09 s on 2 cores against the scanner build's 3.79 +- 0.03 s (Temurin 25,
     * {@code hyperfine -N -r 3}, the same index file; docs/benchmarks/gzip.md), where the scanner's own thread is the
     * limit; on one processor the scanner build runs its two passes one after the other, and speculation cannot pay.
     */
    static final int SPECULATIVE_MIN_THREADS = dev.sluice.internal.Defaults.intProperty(
            "sluice.gzip.index.speculativeMinThreads", 2);

    /** Bytes at each end of the gzip file whose CRC32 the index keeps, to tell a different file from its own. */
    static final int CHECK_BYTES = 64 * 1024;

    /** -1 when an imported index does not say (gztool's): {@link #openChannel} then checks the points against it. */
    final long compressedSize;
    /** -1 when an imported index does not say. */
    final long uncompressedSize;
    final long spacing;
    /** Byte offset of each member's header (-1 if unknown), of its deflate data, and its uncompressed start. */
    final long[] memHeader;
    final long[] memDeflate;
    final long[] memU;
    /** Each checkpoint's bit offset in the file, uncompressed offset, member, and window (shorter near a member's start). */
    final long[] cpBit;
    final long[] cpU;
    final int[] cpMember;
    final Window[] windows;
    /** CRC32 of the first and last {@link #CHECK_BYTES} of the gzip file, or null if the index does not know them. */
    final int[] fileCheck;
    /**
     * True if the member table lists every member; false for an index that knows only some member starts (gztool's),
     * whose reader finds the others from their headers as it reaches them.
     */
    final boolean allMembers;

    GzipIndex(long compressedSize, long uncompressedSize, long spacing, long[] memHeader, long[] memDeflate,
            long[] memU, long[] cpBit, long[] cpU, int[] cpMember, byte[][] windows, int[] fileCheck) {
        this(compressedSize, uncompressedSize, spacing, memHeader, memDeflate, memU, cpBit, cpU, cpMember,
                Window.all(windows), fileCheck, true);
    }

    GzipIndex(long compressedSize, long uncompressedSize, long spacing, long[] memHeader, long[] memDeflate,
            long[] memU, long[] cpBit, long[] cpU, int[] cpMember, Window[] windows, int[] fileCheck,
            boolean allMembers) {
        this.compressedSize = compressedSize;
        this.uncompressedSize = uncompressedSize;
        this.spacing = spacing;
        this.memHeader = memHeader;
        this.memDeflate = memDeflate;
        this.memU = memU;
        this.cpBit = cpBit;
        this.cpU = cpU;
        this.cpMember = cpMember;
        this.windows = windows;
        this.fileCheck = fileCheck;
        this.allMembers = allMembers;
    }

    /** {@link #build(Path, long)} with {@link #DEFAULT_SPACING}. */
    public static GzipIndex build(Path gz) throws IOException {
        return build(gz, DEFAULT_SPACING);
    }

    /**
     * Reads the gzip file {@code gz} once and returns its index, with a checkpoint at a block boundary at least
     * {@code spacing} uncompressed bytes after the previous one (the first such without ISA-L; and at every member
     * start). With ISA-L and fewer than 8 processors ({@link #ENGINE_BELOW_THREADS}), one
     * thread decodes and a second searches block starts (see the class comment); else decodes on every
     * processor (one thread, or two beside zlib, for a file under 8 MiB or on one processor);
     * holds the windows (32 KiB per checkpoint) and, while it runs, the parallel decoder's chunks in flight. Data after
     * the last member (zeros or garbage) ends the index.
     *
     * @throws IllegalArgumentException if {@code spacing} is not positive
     * @throws ZipException if the file is not gzip or is corrupt (a CRC32, ISIZE or the deflate data)
     * @throws java.io.EOFException if the file ends inside a member
     */
    public static GzipIndex build(Path gz, long spacing) throws IOException {
        Checks.notNull(gz, "gz");
        Checks.positive(spacing, "spacing");
        try (FileChannel ch = FileChannel.open(gz, StandardOpenOption.READ)) {
            long size = ch.size();
            GzipIndex members = GzipIndexMembers.read(ch, size);
            if (members != null) {
                return members;
            }
            int cpus = Runtime.getRuntime().availableProcessors();
            if (engineBuild(cpus, size, spacing, Runtime.getRuntime().maxMemory()) && GzipEngines.nativeInflater()) {
                return GzipIndexEngineBuild.build(ch, size, spacing, GzipEngines.inflater(), cpus > 1,
                        () -> buildWithoutEngine(ch, size, spacing, cpus));
            }
            return buildWithoutEngine(ch, size, spacing, cpus);
        }
    }

    /** The build without the native engine: the speculative decoder's walk or the scanner's, by processors and size. */
    private static GzipIndex buildWithoutEngine(FileChannel ch, long size, long spacing, int cpus) throws IOException {
        if (cpus >= SPECULATIVE_MIN_THREADS && walkRuns(size, Runtime.getRuntime().maxMemory())) {
            return GzipIndexWalk.build(ch, size, spacing, Math.min(cpus, 256), SpeculativeReader.CHUNK);
        }
        boolean parallel = PARALLEL_BUILD && cpus > 1 && size > (1 << 20);
        return GzipIndexBuild.build(ch, size, spacing, parallel);
    }

    /**
     * A recorder for one stream's index ({@link Recorder}): give it to {@link GzipInputStream.Builder#record}.
     *
     * @throws IllegalArgumentException if {@code spacing} is not positive
     */
    public static Recorder recorder(long spacing) {
        return new Recorder(Checks.positive(spacing, "spacing"));
    }

    /**
     * Records a gzip file's index while a {@link GzipInputStream} decodes it, so that decoding and indexing a file
     * take one pass instead of two ({@code sluice gunzip --index-out}). Give it to one stream's
     * {@link GzipInputStream.Builder#record}, read that stream to its end, then call {@link #finish} with the file
     * the stream read. The stream decodes speculatively on its worker threads, and the checkpoints are those
     * {@link GzipIndex#build} takes from that decoder on two processors or more (the same spacing rule, the same
     * windows); for a file of independent members, {@link #finish} returns the member table, as {@code build} does.
     * Memory: 32 KiB per checkpoint, held until {@link #finish}. Not thread-safe: it is used by the thread that
     * reads the stream, and then by the one that calls {@link #finish}.
     */
    public static final class Recorder {
        private final GzipIndexWalk walk;
        private boolean attached;

        private Recorder(long spacing) {
            this.walk = new GzipIndexWalk(spacing);
        }

        /** The walk, for the one stream this recorder serves. */
        GzipIndexWalk attach() {
            if (attached) {
                throw new IllegalStateException("a GzipIndex.Recorder serves one stream");
            }
            attached = true;
            return walk;
        }

        /**
         * The index of {@code gz}, which must be the file the stream read, from its first byte: the index records
         * its size and the CRC32s of its first and last 64 KiB, which {@link GzipIndex#openChannel} checks.
         *
         * @throws IllegalStateException if no stream used this recorder, or it was not read to its end (a stream
         *     that failed never reaches it)
         * @throws java.io.EOFException if the stream read no member
         */
        public GzipIndex finish(Path gz) throws IOException {
            Checks.notNull(gz, "gz");
            if (!attached) {
                throw new IllegalStateException("no stream used this GzipIndex.Recorder");
            }
            try (FileChannel ch = FileChannel.open(gz, StandardOpenOption.READ)) {
                long size = ch.size();
                GzipIndex index = walk.index(ch, size); // the checks first, whichever table is returned
                GzipIndex members = GzipIndexMembers.read(ch, size);
                return members != null ? members : index;
            }
        }
    }

    /** Writes this index in Sluice's format (see {@link Format#SLUICE}), replacing {@code file}. */
    public void save(Path file) throws IOException {
        save(file, Format.SLUICE);
    }

    /**
     * Writes this index to {@code file} in {@code format}, replacing it.
     *
     * @throws IllegalStateException for {@link Format#INDEXED_GZIP} if this index was loaded from gztool's format,
     *     which lacks what GZIDX needs (the gzip file's size and every member start); for {@link Format#GZTOOL} if
     *     it does not know the uncompressed size
     */
    public void save(Path file, Format format) throws IOException {
        Checks.notNull(file, "file");
        Checks.notNull(format, "format");
        GzipIndexFiles.save(this, file, format);
    }

    /**
     * Reads an index that {@link #save} (either format), indexed_gzip's {@code export_index} or {@code gztool -i}
     * (index format 0 or 1, as gztool 1.4 to 1.8 write it) wrote. The first load in a JVM also starts binding the
     * native decoder ({@link GzipEngines}) on a daemon thread, which a decode through the index needs next.
     *
     * @throws ZipException if the file is not an index or is corrupt, naming the field
     * @throws java.io.EOFException if it is cut short
     */
    public static GzipIndex load(Path file) throws IOException {
        Checks.notNull(file, "file");
        // An index is loaded to decode through it: the native decoder (and its dictionary entry point, which every
        // checkpoint needs) binds on a thread of its own meanwhile, off the loading's tens of milliseconds.
        GzipEngines.bindInflaterSoon(true);
        return GzipIndexFiles.load(file);
    }

    /**
     * Opens {@code gz}, the file this index was built for, as a read-only channel of its uncompressed bytes:
     * {@code position} and {@code size} are uncompressed offsets; a read decodes from the nearest checkpoint at or
     * before the position (or continues when reading on sequentially) and fills the buffer as far as it can; at or
     * beyond the size it returns -1. Writing and truncating throw {@link java.nio.channels.NonWritableChannelException};
     * every operation after {@link SeekableByteChannel#close()} throws
     * {@link java.nio.channels.ClosedChannelException}. Not buffered beyond one input buffer; its operations are
     * serialized, so threads may share it. Closing closes the file.
     *
     * @throws ZipException if {@code gz} is not the file this index was built for
     */
    public SeekableByteChannel openChannel(Path gz) throws IOException {
        Checks.notNull(gz, "gz");
        FileChannel ch = FileChannel.open(gz, StandardOpenOption.READ);
        try {
            long size = ch.size();
            if (compressedSize < 0) {
                checkPoints(size);
            } else if (size != compressedSize) {
                throw new ZipException("index does not match " + gz + ": compressed size " + size + " != "
                        + compressedSize + " in the index");
            }
            if (fileCheck != null) {
                int[] actual = fileCheck(ch, size);
                if (actual[0] != fileCheck[0] || actual[1] != fileCheck[1]) {
                    throw new ZipException(String.format("index does not match %s: CRC32 of its first/last %d bytes "
                            + "0x%08x/0x%08x != 0x%08x/0x%08x in the index", gz, CHECK_BYTES, actual[0], actual[1],
                            fileCheck[0], fileCheck[1]));
                }
            }
            return new GzipIndexChannel(this, ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * What {@link GzipInputStream} needs to decode the file on several threads ({@link EntryPoints}, the seam): the
     * member starts and checkpoints merged in file order, without checkpoints that add no output and without
     * the end of the file that indexed_gzip's format records as a point.
     */
    EntryPoints entryPoints() {
        int n = memDeflate.length + cpBit.length;
        long[] bit = new long[n];
        long[] u = new long[n];
        Window[] w = new Window[n];
        int k = 0;
        for (int m = 0, c = 0; m < memDeflate.length || c < cpBit.length; ) {
            boolean member = c == cpBit.length || m < memDeflate.length && memDeflate[m] * 8 <= cpBit[c];
            long b = member ? memDeflate[m] * 8 : cpBit[c];
            long uu = member ? memU[m] : cpU[c];
            Window window = member ? null : windows[c];
            if (member) {
                m++;
                if (compressedSize >= 0 && b >= compressedSize * 8) {
                    continue; // GZIDX's record of the end of the data, where no member starts
                }
            } else {
                c++;
                if (k > 0 && (u[k - 1] == uu || bit[k - 1] == b)) {
                    continue; // no output since the last entry: starting there is as good
                }
            }
            bit[k] = b;
            u[k] = uu;
            w[k] = window;
            k++;
        }
        return new EntryPoints(compressedSize, uncompressedSize, fileCheck, CHECK_BYTES,
                java.util.Arrays.copyOf(bit, k), java.util.Arrays.copyOf(u, k), java.util.Arrays.copyOf(w, k));
    }

    /** Checks every point against a {@code fileSize}-byte gzip file ({@link GzipIndexPoints}). */
    void checkPoints(long fileSize) throws ZipException {
        int[] windowLengths = new int[windows.length];
        for (int i = 0; i < windows.length; i++) {
            windowLengths[i] = windows[i].length();
        }
        GzipIndexPoints.check(fileSize, uncompressedSize, memHeader, memDeflate, memU, cpBit, cpU, cpMember,
                windowLengths, allMembers);
    }

    /** The uncompressed size, or -1 if an imported index did not record it (its channel then finds it). */
    public long uncompressedSize() {
        return uncompressedSize;
    }

    /** The size of the gzip file this index was built for, or -1 if an imported index did not record it. */
    public long compressedSize() {
        return compressedSize;
    }

    /** The number of checkpoints with windows (member starts not counted). */
    public int checkpoints() {
        return cpU.length;
    }

    /**
     * The compressed byte offset of checkpoint {@code i} (0 to {@link #checkpoints()} - 1): the byte holding its first
     * bit, where decoding from it starts reading. Increasing with {@code i}. With
     * {@link #checkpointUncompressedOffset} it lets a caller share a file out at checkpoints (sluice-hadoop's splits)
     * and read each share through {@link #openChannel}, which starts at checkpoint {@code i} when positioned at its
     * uncompressed offset.
     *
     * @throws IndexOutOfBoundsException if {@code i} is not a checkpoint's number
     */
    public long checkpointCompressedOffset(int i) {
        return cpBit[Objects.checkIndex(i, cpBit.length)] >>> 3;
    }

    /**
     * The uncompressed offset of checkpoint {@code i} (see {@link #checkpointCompressedOffset}); increasing with
     * {@code i}.
     *
     * @throws IndexOutOfBoundsException if {@code i} is not a checkpoint's number
     */
    public long checkpointUncompressedOffset(int i) {
        return cpU[Objects.checkIndex(i, cpU.length)];
    }

    /** The number of gzip members this index knows the start of. */
    public int members() {
        return memU.length;
    }

    @Override
    public String toString() {
        return "GzipIndex{compressed=" + compressedSize + ", uncompressed=" + uncompressedSize + ", members="
                + memU.length + ", checkpoints=" + cpU.length + ", spacing=" + spacing + "}";
    }

    static int[] fileCheck(FileChannel ch, long size) throws IOException {
        int n = (int) Math.min(CHECK_BYTES, size);
        return new int[] {crcAt(ch, 0, n), crcAt(ch, size - n, n)};
    }

    private static int crcAt(FileChannel ch, long at, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        if (GzipIndexBuild.readAt(ch, b, at) != n) {
            throw new java.io.EOFException("file shrank while reading offset " + at);
        }
        CRC32 crc = new CRC32();
        crc.update(b.flip());
        return (int) crc.getValue();
    }

    /** Index of the last element of the sorted {@code a} that is at most {@code v}, or -1. */
    static int lastAtMost(long[] a, long v) {
        int lo = 0;
        int hi = a.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] <= v) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}
