package dev.sluice.hadoop;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/** Reads a file through Hadoop's LineRecordReader split by split, as a map task would. */
final class Splits {
    private Splits() {}

    /** A configuration with the codec registered and Hadoop's scratch space under {@code tmp}. */
    static Configuration conf(Path tmp) {
        // A JobConf, so that each TaskAttemptContextImpl below uses it as it is instead of copying it.
        // No default resources (core-default.xml and the rest): every open copies the properties with a prefix
        // (FutureIO.propagateOptions walks them all), which made this setup, not the reader, most of the test time.
        Configuration conf = new JobConf(false);
        conf.set("io.compression.codecs", SplittableGzipCodec.class.getName());
        conf.set("hadoop.tmp.dir", tmp.resolve("hadoop-tmp").toString());
        conf.set("fs.defaultFS", "file:///");
        // No .crc side files: tens of thousands of splits are opened, and checksums are not what is tested here.
        conf.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
        return conf;
    }

    /** The records of every split of {@code splitSize} bytes, in split order. */
    static List<String> readAll(Configuration conf, Path file, long length, long splitSize) throws IOException {
        TaskAttemptContextImpl context = new TaskAttemptContextImpl(conf, new TaskAttemptID());
        List<String> records = new ArrayList<>();
        for (long start = 0; start < length; start += splitSize) {
            records.addAll(read(context, file, start, Math.min(splitSize, length - start)));
        }
        return records;
    }

    static List<String> read(Configuration conf, Path file, long start, long length) throws IOException {
        return read(new TaskAttemptContextImpl(conf, new TaskAttemptID()), file, start, length);
    }

    private static List<String> read(TaskAttemptContextImpl context, Path file, long start, long length)
            throws IOException {
        List<String> records = new ArrayList<>();
        FileSplit split = new FileSplit(new org.apache.hadoop.fs.Path(file.toUri()), start, length, null);
        try (LineRecordReader reader = new LineRecordReader()) {
            reader.initialize(split, context);
            while (reader.nextKeyValue()) {
                records.add(reader.getCurrentValue().toString());
            }
        }
        return records;
    }
}
