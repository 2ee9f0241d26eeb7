package dev.sluice.hadoop;

import dev.sluice.gzip.GzipIndex;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;

/**
 * Hadoop's {@link TextInputFormat} that also splits plain gzip files (one member, as gzip and pigz write them, or
 * members without size subfields) at the checkpoints of a {@link GzipIndex} beside them, so that such a file becomes
 * many map tasks (or Spark partitions), each decompressing about its own share. Every other file is Hadoop's
 * TextInputFormat unchanged (with {@link SplittableGzipCodec} registered, that splits Sluice's and BGZF's
 * independent members).
 *
 * <p><b>Which index.</b> For {@code NAME.gz} on Hadoop's local file system ({@code file:}), the first of
 * {@code NAME.gz.sgzi} (Sluice's, from {@code sluice index}), {@code NAME.gz.gzidx} (indexed_gzip's) and gztool's
 * {@code NAME.gzi} that exists ({@link GzipIndex.Format#fileName}); no configuration key. Files on other file systems
 * (HDFS, object stores) are not split through an index: {@link GzipIndex#openChannel} reads a local path.
 *
 * <p><b>An index that does not fit.</b> When the splits are planned ({@link #getSplits}), an index that is older
 * than its gzip file, cannot be loaded, or fails {@link GzipIndex#openChannel}'s checks (the compressed size; in
 * Sluice's format the CRC32s of the file's first and last 64 KiB) is not used: the file is read whole by one split,
 * as Hadoop reads any gzip file, and the reason is logged ({@link System.Logger}, WARNING). Records stay right, only
 * the parallelism is lost. An index with no checkpoints (the member table of an independent-member file) is also left
 * to TextInputFormat. Once planned, every split of the file records the index file's length and modification time,
 * and a task whose index file has changed or no longer fits fails with an {@link IOException} naming it, rather than
 * fall back: the other splits of the file may have used the index already, and a split that fell back to another
 * layout would lose lines or read them twice.
 *
 * <p><b>Records.</b> As {@link TextInputFormat}: lines ended by LF, CR or CR LF (or
 * {@code textinputformat.record.delimiter}), lines longer than {@code mapreduce.input.linerecordreader.line.maxlength}
 * skipped, a UTF-8 byte order mark at the start dropped; each line is read by exactly one split. The key of a line of
 * an indexed file is its uncompressed byte offset, as for an uncompressed file. In Spark:
 * {@code sc.newAPIHadoopFile(path, IndexedGzipTextInputFormat.class, LongWritable.class, Text.class, conf)}.
 *
 * <p>Planning is single-threaded, as FileInputFormat's; an instance remembers what it found for the files of one
 * {@link #getSplits} call.
 */
public final class IndexedGzipTextInputFormat extends TextInputFormat {

    private static final System.Logger LOG = System.getLogger(IndexedGzipTextInputFormat.class.getName());

    /** Per file of the current {@link #getSplits}: the index to split it by, or null (not split through an index). */
    private final Map<Path, IndexedGzipSplit.IndexFile> planned = new HashMap<>();

    /** An input format; Hadoop makes one per job. */
    public IndexedGzipTextInputFormat() {}

    @Override
    public List<InputSplit> getSplits(JobContext job) throws IOException {
        planned.clear();
        try {
            return super.getSplits(job);
        } finally {
            planned.clear();
        }
    }

    /** The input's files, without the index files of gzip files that are input too. */
    @Override
    protected List<FileStatus> listStatus(JobContext job) throws IOException {
        List<FileStatus> files = new ArrayList<>(super.listStatus(job));
        Set<Path> indexes = new HashSet<>();
        for (FileStatus f : files) {
            Path p = f.getPath();
            if (p.getName().endsWith(".gz")) {
                for (GzipIndex.Format format : GzipIndex.Format.values()) {
                    indexes.add(new Path(p.getParent(), format.fileName(p.getName())));
                }
            }
        }
        files.removeIf(f -> indexes.contains(f.getPath()));
        return files;
    }

    /** True for a gzip file with a fitting index beside it; otherwise as {@link TextInputFormat}. */
    @Override
    protected boolean isSplitable(JobContext context, Path file) {
        Configuration conf = context.getConfiguration();
        Plan plan;
        try {
            plan = plan(conf, file);
        } catch (IOException e) {
            plan = Plan.unfit("cannot look for its index: " + e);
        }
        if (plan.problem != null) {
            LOG.log(System.Logger.Level.WARNING, "{0}: not split through its index {1}: {2}; read whole by one split",
                    file, plan.index == null ? "" : plan.index.path(), plan.problem);
            planned.put(file, null);
            return false;
        }
        planned.put(file, plan.index);
        return plan.index != null || super.isSplitable(context, file);
    }

    @Override
    protected FileSplit makeSplit(Path file, long start, long length, String[] hosts) {
        return makeSplit(file, start, length, hosts, null);
    }

    @Override
    protected FileSplit makeSplit(Path file, long start, long length, String[] hosts, String[] inMemoryHosts) {
        IndexedGzipSplit.IndexFile index = planned.get(file);
        if (index != null) {
            return new IndexedGzipSplit(file, start, length, hosts, inMemoryHosts, index);
        }
        return inMemoryHosts == null ? new FileSplit(file, start, length, hosts)
                : new FileSplit(file, start, length, hosts, inMemoryHosts);
    }

    @Override
    public RecordReader<LongWritable, Text> createRecordReader(InputSplit split, TaskAttemptContext context) {
        if (split instanceof IndexedGzipSplit) {
            return new IndexedLineRecordReader();
        }
        return super.createRecordReader(split, context);
    }

    /** What planning found for one file: the index to use, or a problem, or neither (no index: not ours). */
    static final class Plan {
        final IndexedGzipSplit.IndexFile index;
        final String problem;

        private Plan(IndexedGzipSplit.IndexFile index, String problem) {
            this.index = index;
            this.problem = problem;
        }

        static Plan unfit(String problem) {
            return new Plan(null, problem);
        }
    }

    /** Finds {@code gz}'s index (see the class comment) and checks that it fits. */
    static Plan plan(Configuration conf, Path gz) throws IOException {
        if (!gz.getName().endsWith(".gz")) {
            return new Plan(null, null);
        }
        FileSystem fs = gz.getFileSystem(conf);
        if (!"file".equals(fs.getUri().getScheme())) {
            return new Plan(null, null);
        }
        FileStatus file = fs.getFileStatus(gz);
        for (GzipIndex.Format f : GzipIndex.Format.values()) {
            Path candidate = new Path(gz.getParent(), f.fileName(gz.getName()));
            FileStatus status;
            try {
                status = fs.getFileStatus(candidate);
            } catch (FileNotFoundException e) {
                continue;
            }
            // The first index found is the one: a wrong one is reported, not passed over for the next.
            IndexedGzipSplit.IndexFile index = new IndexedGzipSplit.IndexFile(fs.makeQualified(candidate),
                    status.getLen(), status.getModificationTime());
            String problem;
            try {
                problem = problem(fs, gz, file, index);
            } catch (IOException | RuntimeException e) {
                problem = e.toString();
            }
            if (problem == null) {
                return new Plan(index, null);
            }
            return problem.isEmpty() ? new Plan(null, null) : new Plan(index, problem);
        }
        return new Plan(null, null);
    }

    /**
     * Null if {@code index} fits the gzip file and has checkpoints; "" if it fits but has none (nothing to split
     * at); else why it does not fit.
     */
    private static String problem(FileSystem fs, Path gz, FileStatus file, IndexedGzipSplit.IndexFile index)
            throws IOException {
        if (index.modificationTime() < file.getModificationTime()) {
            return "the index is older than the file";
        }
        GzipIndex ix = load(fs, index.path());
        if (ix.checkpoints() == 0) {
            return "";
        }
        try (SeekableByteChannel ignored = ix.openChannel(localPath(fs, gz))) {
            return null; // size and content checked
        }
    }

    /** Loads the index file at {@code path}. */
    static GzipIndex load(FileSystem fs, Path path) throws IOException {
        return GzipIndex.load(localPath(fs, path));
    }

    /** {@code path} on the local file system {@code fs} as a {@link java.nio.file.Path}. */
    static java.nio.file.Path localPath(FileSystem fs, Path path) {
        return java.nio.file.Path.of(fs.makeQualified(path).toUri());
    }
}
