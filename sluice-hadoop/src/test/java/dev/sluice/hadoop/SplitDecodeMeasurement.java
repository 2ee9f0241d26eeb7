package dev.sluice.hadoop;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;
import org.apache.hadoop.mapreduce.lib.input.CompressedSplitLineReader;

/**
 * Not a test (run by hand, docs/benchmarks/gzip.md): reads a .gz in splits of the given size with
 * CompressedSplitLineReader and LineRecordReader's loop, and prints how many bytes all splits decompressed together
 * (counted by the codec's streams, including the decoding that confirms each split's first member) against the
 * file's uncompressed size, and whether the records equal those of one split over the whole file.
 *
 * <pre>java -cp ... dev.sluice.hadoop.SplitDecodeMeasurement FILE.gz SPLIT_BYTES</pre>
 */
public final class SplitDecodeMeasurement {
    private SplitDecodeMeasurement() {}

    public static void main(String[] args) throws IOException {
        Configuration conf = new Configuration();
        conf.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
        Path file = new Path(new java.io.File(args[0]).toURI());
        long split = Long.parseLong(args[1]);
        FileSystem fs = file.getFileSystem(conf);
        long length = fs.getFileStatus(file).getLen();
        SplittableGzipCodec codec = new SplittableGzipCodec();
        codec.setConf(conf);
        long[] whole = read(fs, codec, conf, file, 0, length);
        long records = 0;
        long decoded = 0;
        int splits = 0;
        long t0 = System.nanoTime();
        for (long start = 0; start < length; start += split) {
            long[] r = read(fs, codec, conf, file, start, Math.min(length, start + split));
            records += r[0];
            decoded += r[1];
            splits++;
        }
        System.out.printf("file %s: %d compressed bytes, %d uncompressed, %d records%n", args[0], length, whole[1],
                whole[0]);
        System.out.printf("%d splits of %d bytes: %d records (%s), %d bytes decompressed = %.4fx the uncompressed"
                + " size, %.1f s%n", splits, split, records, records == whole[0] ? "equal" : "DIFFERENT", decoded,
                decoded / (double) whole[1], (System.nanoTime() - t0) / 1e9);
    }

    /** {records, bytes decompressed} of the split [start, end), read as LineRecordReader reads it. */
    private static long[] read(FileSystem fs, SplittableGzipCodec codec, Configuration conf, Path file, long start,
            long end) throws IOException {
        try (FSDataInputStream in = fs.open(file)) {
            SplitCompressionInputStream cin = codec.createInputStream(in, null, start, end,
                    SplittableCompressionCodec.READ_MODE.BYBLOCK);
            CompressedSplitLineReader lines = new CompressedSplitLineReader(cin, conf, null);
            Text value = new Text();
            long s = cin.getAdjustedStart();
            long e = cin.getAdjustedEnd();
            if (s != 0) {
                lines.readLine(value, 0, Integer.MAX_VALUE);
            }
            long records = 0;
            while (cin.getPos() <= e || lines.needAdditionalRecordAfterSplit()) {
                if (lines.readLine(value, Integer.MAX_VALUE, Integer.MAX_VALUE) == 0) {
                    break;
                }
                records++;
            }
            long decoded = cin instanceof MemberSplitInputStream ? ((MemberSplitInputStream) cin).bytesDecoded()
                    : ((WholeGzipInputStream) cin).bytesDecoded();
            lines.close();
            return new long[] {records, decoded};
        }
    }
}
