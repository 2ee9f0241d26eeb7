package dev.sluice.hadoop;

import dev.sluice.gzip.GzipMembers;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.zip.ZipException;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;

/**
 * A Hadoop codec for {@code .gz} files that splits files made of independent members, Sluice's (the 'SL' subfield)
 * and BGZF's (the 'BC' subfield), at member boundaries, so a large gzip file becomes many tasks, each decompressing
 * about its own share. Other gzip files (one member, as gzip and pigz write them) still read correctly: the split
 * starting at offset 0 reads the whole file and every other split reads nothing, so nothing is decompressed twice.
 * A codec is never told which file it reads, so it cannot find an index beside one: such files are split at their
 * index's checkpoints by {@link IndexedGzipTextInputFormat}, which knows the path.
 *
 * <p>Register it in place of Hadoop's GzipCodec with {@code io.compression.codecs=dev.sluice.hadoop.SplittableGzipCodec}
 * (in Spark: {@code spark.hadoop.io.compression.codecs=...}); codecs named there win over the built-in ones for the
 * same extension. How a split finds its first member, confirms it and reports positions to {@code LineRecordReader}
 * is described on {@code MemberSplitInputStream}. Decompression runs through {@link dev.sluice.gzip.GzipInputStream},
 * which checks every member's CRC32 and ISIZE: corrupt data is a {@link java.util.zip.ZipException}, a truncated file
 * an {@link java.io.EOFException}.
 *
 * <p>Writing ({@link #createOutputStream}) makes independent members with the 'SL' subfield, one per
 * {@value #BLOCK_SIZE_KEY} bytes of input (4 KiB to 64 MiB, default 1 MiB), at level {@value #LEVEL_KEY}
 * (default 6), so what this codec writes it can split. No Hadoop {@link Compressor} or {@link Decompressor} is used: the factory methods
 * return null, as Hadoop's GzipCodec does without native zlib, and {@code CodecPool} accepts that.
 *
 * <p>Thread-safe: the codec holds only its configuration; each stream it makes is for one thread.
 */
public final class SplittableGzipCodec implements SplittableCompressionCodec, Configurable {

    /** Configuration key: uncompressed bytes per member that {@link #createOutputStream} writes. */
    public static final String BLOCK_SIZE_KEY = "sluice.gzip.blockSize";

    /** Configuration key: deflate level 0..9 for {@link #createOutputStream}. */
    public static final String LEVEL_KEY = "sluice.gzip.level";

    private static final int DEFAULT_BLOCK_SIZE = 1 << 20;

    private volatile Configuration conf;

    /** A codec with an empty configuration (Hadoop sets the real one through {@link #setConf}). */
    public SplittableGzipCodec() {}

    @Override
    public void setConf(Configuration conf) {
        this.conf = conf;
    }

    @Override
    public Configuration getConf() {
        return conf;
    }

    /**
     * The split of {@code seekableIn} (which must be {@link Seekable}, as Hadoop's file streams are) from
     * {@code start} to {@code end}, read by members; {@code readMode} is not needed, every mode gets the positions
     * {@code LineRecordReader} expects. The stream is left positioned where the split's data starts.
     */
    @Override
    public SplitCompressionInputStream createInputStream(InputStream seekableIn, Decompressor decompressor, long start,
            long end, READ_MODE readMode) throws IOException {
        Objects.requireNonNull(seekableIn, "seekableIn");
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("split [" + start + ", " + end + ") is not a range of offsets");
        }
        if (!(seekableIn instanceof Seekable)) {
            throw new IOException("seekableIn is not Seekable: " + seekableIn.getClass().getName());
        }
        Seekable seekable = (Seekable) seekableIn;
        seekable.seek(0);
        boolean independent = firstMemberIsIndependent(seekableIn);
        seekable.seek(0);
        if (independent) {
            return MemberSplitInputStream.open(seekableIn, start, end);
        }
        return start == 0 ? WholeGzipInputStream.whole(seekableIn, end)
                : WholeGzipInputStream.empty(seekableIn, start, end);
    }

    /** True if the file's first header has an 'SL' or 'BC' subfield; false also for an empty or tiny file. */
    private static boolean firstMemberIsIndependent(InputStream in) throws IOException {
        try {
            return GzipMembers.read(in, 0) != null;
        } catch (ZipException | EOFException e) {
            return false; // not gzip, or a malformed header: the whole-file reader reports it when read
        }
    }

    /** All of {@code in} as one multi-member gzip stream, from where it stands. */
    @Override
    public CompressionInputStream createInputStream(InputStream in) throws IOException {
        return WholeGzipInputStream.whole(Objects.requireNonNull(in, "in"), Long.MAX_VALUE);
    }

    /** As {@link #createInputStream(InputStream)}; {@code decompressor} is not used and may be null. */
    @Override
    public CompressionInputStream createInputStream(InputStream in, Decompressor decompressor) throws IOException {
        return createInputStream(in);
    }

    /** Independent 'SL' members into {@code out}; see the class comment for the settings. */
    @Override
    public CompressionOutputStream createOutputStream(OutputStream out) throws IOException {
        Configuration c = conf;
        int blockSize = c == null ? DEFAULT_BLOCK_SIZE : c.getInt(BLOCK_SIZE_KEY, DEFAULT_BLOCK_SIZE);
        int level = c == null ? 6 : c.getInt(LEVEL_KEY, 6);
        if (blockSize < 4096 || blockSize > 64 << 20) {
            throw new IllegalArgumentException(BLOCK_SIZE_KEY + " outside 4096..67108864: " + blockSize);
        }
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException(LEVEL_KEY + " outside 0..9: " + level);
        }
        return new MemberOutputStream(Objects.requireNonNull(out, "out"), level, blockSize);
    }

    /** As {@link #createOutputStream(OutputStream)}; {@code compressor} is not used and may be null. */
    @Override
    public CompressionOutputStream createOutputStream(OutputStream out, Compressor compressor) throws IOException {
        return createOutputStream(out);
    }

    /** Null: no Hadoop compressor is used. */
    @Override
    public Class<? extends Compressor> getCompressorType() {
        return null;
    }

    /** Null: no Hadoop compressor is used. */
    @Override
    public Compressor createCompressor() {
        return null;
    }

    /** Null: no Hadoop decompressor is used. */
    @Override
    public Class<? extends Decompressor> getDecompressorType() {
        return null;
    }

    /** Null: no Hadoop decompressor is used. */
    @Override
    public Decompressor createDecompressor() {
        return null;
    }

    /** {@code .gz}. */
    @Override
    public String getDefaultExtension() {
        return ".gz";
    }
}
