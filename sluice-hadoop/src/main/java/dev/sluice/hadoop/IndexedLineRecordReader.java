package dev.sluice.hadoop;

import dev.sluice.gzip.GzipIndex;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.CompressedSplitLineReader;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;

/**
 * The lines of an {@link IndexedGzipSplit}: Hadoop's {@link LineRecordReader} loop for a splittable codec, over an
 * {@link IndexSplitInputStream} (which says which lines are this split's), with the uncompressed offset of each line
 * as its key. Not thread-safe; closing closes the file.
 */
final class IndexedLineRecordReader extends RecordReader<LongWritable, Text> {

    private IndexSplitInputStream in;
    private CompressedSplitLineReader lines;
    private long start;
    private long end;
    private int maxLineLength;
    /** Uncompressed offset of the next line. */
    private long offset;
    private final LongWritable key = new LongWritable();
    private final Text value = new Text();
    private boolean hasRecord;

    @Override
    public void initialize(InputSplit genericSplit, TaskAttemptContext context) throws IOException {
        IndexedGzipSplit split = (IndexedGzipSplit) genericSplit;
        Configuration conf = context.getConfiguration();
        maxLineLength = conf.getInt(LineRecordReader.MAX_LINE_LENGTH, Integer.MAX_VALUE);
        String delimiter = conf.get("textinputformat.record.delimiter");
        byte[] delimiterBytes = delimiter == null ? null : delimiter.getBytes(StandardCharsets.UTF_8);
        IndexedGzipSplit.IndexFile planned = split.index();
        FileSystem fs = planned.path().getFileSystem(conf);
        FileStatus now = fs.getFileStatus(planned.path());
        if (now.getLen() != planned.length() || now.getModificationTime() != planned.modificationTime()) {
            throw new IOException("index " + planned.path() + " changed after the splits of " + split.getPath()
                    + " were planned (length " + now.getLen() + ", modified " + now.getModificationTime()
                    + "; planned with " + planned.length() + ", " + planned.modificationTime() + ")");
        }
        GzipIndex index = IndexedGzipTextInputFormat.load(fs, planned.path());
        java.nio.file.Path gz = IndexedGzipTextInputFormat.localPath(split.getPath().getFileSystem(conf),
                split.getPath());
        try {
            in = IndexSplitInputStream.open(index, gz, split.getStart(), split.getStart() + split.getLength());
        } catch (java.util.zip.ZipException e) {
            throw new IOException("index " + planned.path() + " does not fit " + split.getPath() + ": "
                    + e.getMessage(), e);
        }
        lines = new CompressedSplitLineReader(in, conf, delimiterBytes);
        start = in.getAdjustedStart();
        end = in.getAdjustedEnd();
        offset = in.uncompressedStart();
        if (start != 0) {
            // Not the first split: the previous one reads the line that runs into this one (see IndexSplitInputStream).
            offset += lines.readLine(new Text(), 0, Integer.MAX_VALUE);
        }
    }

    @Override
    public boolean nextKeyValue() throws IOException {
        hasRecord = false;
        while (in.getPos() <= end || lines.needAdditionalRecordAfterSplit()) {
            long at = offset;
            int size = lines.readLine(value, maxLineLength, Integer.MAX_VALUE);
            offset += size;
            if (size == 0) {
                return false;
            }
            if (size < maxLineLength) { // LineRecordReader's rule: the size counts the line's end too
                if (at == 0) {
                    dropByteOrderMark();
                }
                key.set(at);
                hasRecord = true;
                return true;
            }
            // Longer than the maximum (LineReader kept only its first maxLineLength bytes): skipped, as Hadoop does.
        }
        return false;
    }

    /** LineRecordReader drops a UTF-8 byte order mark at the start of the file; so does this. */
    private void dropByteOrderMark() {
        byte[] b = value.getBytes();
        if (value.getLength() >= 3 && b[0] == (byte) 0xef && b[1] == (byte) 0xbb && b[2] == (byte) 0xbf) {
            value.set(b, 3, value.getLength() - 3);
        }
    }

    @Override
    public LongWritable getCurrentKey() {
        return hasRecord ? key : null;
    }

    @Override
    public Text getCurrentValue() {
        return hasRecord ? value : null;
    }

    @Override
    public float getProgress() {
        if (in == null || start == end) {
            return 0f;
        }
        return Math.min(1f, (in.getPos() - start) / (float) (end - start));
    }

    /** Bytes this split decompressed. For tests and measurements. */
    long bytesDecoded() {
        return in.bytesDecoded();
    }

    @Override
    public void close() throws IOException {
        if (lines != null) {
            lines.close(); // closes the split stream and the file
        } else if (in != null) {
            in.close();
        }
    }
}
