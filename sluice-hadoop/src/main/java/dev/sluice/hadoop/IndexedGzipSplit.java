package dev.sluice.hadoop;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * A {@link FileSplit} of a gzip file that {@link IndexedGzipTextInputFormat} planned to read through the index file it
 * names, with that file's length and modification time at planning, so that every task of the file uses the same
 * index or fails. Writable (Hadoop and Spark ship it to the tasks); made by reflection through the no-argument
 * constructor.
 */
final class IndexedGzipSplit extends FileSplit {

    /** An index file as planning saw it. */
    record IndexFile(Path path, long length, long modificationTime) {
        IndexFile {
            Objects.requireNonNull(path, "path");
        }
    }

    private IndexFile index;

    /** For Hadoop's deserialization. */
    IndexedGzipSplit() {}

    IndexedGzipSplit(Path file, long start, long length, String[] hosts, String[] inMemoryHosts, IndexFile index) {
        super(file, start, length, hosts, inMemoryHosts == null ? new String[0] : inMemoryHosts);
        this.index = Objects.requireNonNull(index, "index");
    }

    IndexFile index() {
        return index;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        super.write(out);
        Text.writeString(out, index.path().toString());
        out.writeLong(index.length());
        out.writeLong(index.modificationTime());
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        super.readFields(in);
        Path path = new Path(Text.readString(in));
        index = new IndexFile(path, in.readLong(), in.readLong());
    }

    @Override
    public String toString() {
        return super.toString() + " through " + index.path();
    }
}
