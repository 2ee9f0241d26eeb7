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
 * file's uncompressed size, and whether the records equal those of one split over the whole file. A file with an
 * index beside it is read through IndexedGzipTextInputFormat instead, which also prints the largest split's share.
 *
 * <pre>java -cp ... dev.sluice.hadoop.SplitDecodeMeasurement FILE.gz SPLIT_BYTES</pre>
 */
public final class SplitDecodeMeasurement {
    private SplitDecodeMeasurement() {}

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
        Path file = new Path(new java.io.File(args[0]).toURI());
        long split = Long.parseLong(args[1]);
        FileSystem fs = file.getFileSystem(conf);
        long length = fs.getFileStatus(file).getLen();
        if (IndexedGzipTextInputFormat.plan(conf, file).index != null) {
            indexed(conf, file, length, split);
            return;
        }
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

    /**
     * A file with an index beside it, through IndexedGzipTextInputFormat: its splits of {@code split} bytes, and all of
     * it as one split of a size beyond the file (the reference).
     */
    private static void indexed(Configuration conf, Path file, long length, long split) throws Exception {
        long[] whole = indexedSplits(conf, file, Long.MAX_VALUE / 2);
        long t0 = System.nanoTime();
        long[] parts = indexedSplits(conf, file, split);
        System.out.printf("file %s (index beside it): %d compressed bytes, %d uncompressed, %d records%n", file,
                length, whole[1], whole[0]);
        System.out.printf("%d splits of %d bytes: %d records (%s), %d bytes decompressed = %.4fx the uncompressed size,"
                + " largest split %d = %.4fx an even share, %.1f s%n", parts[2], split, parts[0],
                parts[0] == whole[0] ? "equal" : "DIFFERENT", parts[1], parts[1] / (double) whole[1], parts[3],
                parts[3] / (whole[1] / (double) parts[2]), (System.nanoTime() - t0) / 1e9);
    }

    /** {records, bytes decompressed, splits, most bytes one split decompressed}. */
    private static long[] indexedSplits(Configuration conf, Path file, long split) throws Exception {
        org.apache.hadoop.mapreduce.Job job = org.apache.hadoop.mapreduce.Job.getInstance(conf);
        org.apache.hadoop.mapreduce.lib.input.FileInputFormat.setInputPaths(job, file);
        org.apache.hadoop.mapreduce.lib.input.FileInputFormat.setMinInputSplitSize(job, split);
        org.apache.hadoop.mapreduce.lib.input.FileInputFormat.setMaxInputSplitSize(job, split);
        IndexedGzipTextInputFormat format = new IndexedGzipTextInputFormat();
        long[] r = new long[4];
        for (org.apache.hadoop.mapreduce.InputSplit s : format.getSplits(job)) {
            org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl context =
                    new org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl(conf,
                            new org.apache.hadoop.mapreduce.TaskAttemptID());
            try (org.apache.hadoop.mapreduce.RecordReader<?, ?> reader = format.createRecordReader(s, context)) {
                reader.initialize(s, context);
                while (reader.nextKeyValue()) {
                    r[0]++;
                }
                long decoded = reader instanceof IndexedLineRecordReader
                        ? ((IndexedLineRecordReader) reader).bytesDecoded() : -1;
                r[1] += decoded;
                r[3] = Math.max(r[3], decoded);
            }
            r[2]++;
        }
        return r;
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
