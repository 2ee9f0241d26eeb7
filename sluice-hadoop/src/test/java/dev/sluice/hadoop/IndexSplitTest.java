package dev.sluice.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.gzip.GzipIndex;
import dev.sluice.gzip.GzipOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain gzip files split at the checkpoints of an index beside them ({@link IndexedGzipTextInputFormat}): at many
 * split sizes, the records of all splits in split order are the file's lines in order, each once, with their
 * uncompressed offsets as keys; each split decodes no more than its own checkpoints' data plus a read buffer and a
 * line; an index that does not fit leaves the file in one split, and one that changes after planning fails the task.
 * Files from gzip and pigz (fixtures, make-fixtures.sh), the JDK's GZIPOutputStream and Sluice's GzipOutputStream.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class IndexSplitTest {

    @TempDir
    Path tmp;

    /** A gzip file, what it decompresses to, and checkpoint spacings to index it at. */
    record Case(String name, byte[] gz, byte[] data, long... spacings) {}

    private List<Case> cases(long seed) throws IOException {
        List<Case> cases = new ArrayList<>();
        for (String fixture : new String[] {"gzip-rsyncable.gz", "pigz-b32.gz", "gzip-6.gz"}) {
            byte[] gz = TestFiles.resource(fixture);
            cases.add(new Case(fixture, gz, TestFiles.gunzip(gz), 1, 20_000));
        }
        byte[] data = LineRecordReaderSplitTest.randomLines(new Random(seed), 700_000);
        ByteArrayOutputStream jdk = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(jdk)) {
            out.write(data);
        }
        cases.add(new Case("jdk-seed-" + seed, jdk.toByteArray(), data, 1, 50_000));
        ByteArrayOutputStream sluice = new ByteArrayOutputStream();
        try (GzipOutputStream out = GzipOutputStream.builder().level(1).build(sluice)) {
            out.write(data);
        }
        cases.add(new Case("sluice-one-member-seed-" + seed, sluice.toByteArray(), data, 1, 50_000));
        return cases;
    }

    @Test
    void everySplitSizeReadsEachLineOnceInOrder() throws Exception {
        long seed = System.nanoTime();
        System.out.println("everySplitSizeReadsEachLineOnceInOrder seed " + seed);
        Random r = new Random(seed);
        GzipIndex.Format[] formats = GzipIndex.Format.values();
        int f = 0;
        for (Case c : cases(seed)) {
            for (long spacing : c.spacings()) {
                GzipIndex.Format format = formats[f++ % formats.length];
                Path gz = writeWithIndex(c.name() + "-" + spacing + "-" + format, c.gz(), spacing, format);
                GzipIndex ix = GzipIndex.load(gz.resolveSibling(format.fileName(gz.getFileName().toString())));
                String what = c.name() + " spacing " + spacing + " " + format + " seed " + seed;
                List<Long> starts = lineStarts(c.data());
                List<String> lines = TestFiles.lines(c.data());
                List<Long> sizes = new ArrayList<>(List.of(c.gz().length / 40 + 1L, c.gz().length / 9L,
                        c.gz().length / 3L, (long) c.gz().length, 1000L + r.nextInt(c.gz().length / 5),
                        4096L + r.nextInt(4096)));
                if (ix.checkpoints() > 0) {
                    // Split edges on a checkpoint's byte and either side of it.
                    long at = ix.checkpointCompressedOffset(r.nextInt(ix.checkpoints()));
                    sizes.addAll(List.of(at - 1, at, at + 1));
                }
                for (long size : sizes) {
                    Read read = read(conf(), gz, size);
                    assertSame(lines, read.values, what + ", split size " + size);
                    assertSame(starts, read.keys, what + ", split size " + size);
                    if (size <= c.gz().length / 9 && ix.checkpoints() >= 4) {
                        assertTrue(read.splitsWithRecords > 2, what + ": only " + read.splitsWithRecords
                                + " splits had records at size " + size);
                    }
                }
            }
        }
    }

    /** Each split decodes its own checkpoints' data, plus at most a line and a read buffer past the next split's. */
    @Test
    void eachSplitDecodesOnlyItsShare() throws Exception {
        long seed = System.nanoTime();
        System.out.println("eachSplitDecodesOnlyItsShare seed " + seed);
        for (Case c : cases(seed)) {
            long spacing = c.spacings()[0];
            Path gz = writeWithIndex(c.name(), c.gz(), spacing, GzipIndex.Format.SLUICE);
            GzipIndex ix = GzipIndex.build(gz, spacing);
            if (ix.checkpoints() == 0) {
                continue; // gzip's own blocks in a small file: nothing to split at, read by LineRecordReader
            }
            int longestLine = 0;
            for (String line : TestFiles.lines(c.data())) {
                longestLine = Math.max(longestLine, line.length() + 2);
            }
            // LineReader's buffer (io.file.buffer.size, 64 KiB unless set) may be decoded past the last line's end.
            long slack = 64 * 1024 + longestLine;
            for (long size : new long[] {c.gz().length / 20 + 1, c.gz().length / 4}) {
                Read read = read(conf(), gz, size);
                long total = 0;
                for (int i = 0; i < read.splits.size(); i++) {
                    FileSplit s = read.splits.get(i);
                    long own = ownedSpan(ix, c.data().length, s.getStart(), s.getStart() + s.getLength());
                    long decoded = read.decoded.get(i);
                    assertTrue(decoded <= own + slack, c.name() + " split " + s + ": decoded " + decoded
                            + ", its checkpoints hold " + own + " seed " + seed);
                    total += decoded;
                }
                assertTrue(total >= c.data().length && total <= c.data().length + read.splits.size() * slack,
                        c.name() + ": all splits decoded " + total + " of " + c.data().length + " seed " + seed);
            }
        }
    }

    @Test
    void indexThatDoesNotFitLeavesTheFileWhole() throws Exception {
        byte[] data = LineRecordReaderSplitTest.randomLines(new Random(11), 300_000);
        byte[] other = LineRecordReaderSplitTest.randomLines(new Random(12), 300_000);
        byte[] gz = TestFiles.plainGzip(data);
        List<String> lines = TestFiles.lines(data);
        long size = gz.length / 10;

        Path stale = writeWithIndex("stale", gz, 1, GzipIndex.Format.SLUICE);
        Files.setLastModifiedTime(stale, FileTime.fromMillis(
                Files.getLastModifiedTime(Path.of(stale + ".sgzi")).toMillis() + 5000));
        checkWhole(stale, size, lines);

        // The index of another file of the same length (the same data, another MTIME in the header): Sluice's format
        // knows the CRC32s of the file's first and last 64 KiB.
        byte[] otherGz = gz.clone();
        otherGz[4] ^= 1;
        Path otherFile = writeWithIndex("other", otherGz, 1, GzipIndex.Format.SLUICE);
        Path wrong = tmp.resolve("wrong.gz");
        Files.write(wrong, gz);
        Files.move(Path.of(otherFile + ".sgzi"), Path.of(wrong + ".sgzi"));
        checkWhole(wrong, size, lines);

        // Another file's index, of another length, in indexed_gzip's format.
        Path sized = tmp.resolve("sized.gz");
        Files.write(sized, gz);
        GzipIndex.build(writeWithIndex("x", TestFiles.plainGzip(other), 1, GzipIndex.Format.SLUICE), 1)
                .save(Path.of(sized + ".gzidx"), GzipIndex.Format.INDEXED_GZIP);
        checkWhole(sized, size, lines);

        Path corrupt = writeWithIndex("corrupt", gz, 1, GzipIndex.Format.SLUICE);
        Path index = Path.of(corrupt + ".sgzi");
        Files.write(index, Arrays.copyOf(Files.readAllBytes(index), 100));
        checkWhole(corrupt, size, lines);

        Path unreadable = writeWithIndex("unreadable", gz, 1, GzipIndex.Format.SLUICE);
        Files.delete(Path.of(unreadable + ".sgzi"));
        Files.createDirectory(Path.of(unreadable + ".sgzi"));
        checkWhole(unreadable, size, lines);
    }

    @Test
    void indexChangedAfterPlanningFailsTheTask() throws Exception {
        byte[] data = LineRecordReaderSplitTest.randomLines(new Random(13), 300_000);
        byte[] gz = TestFiles.plainGzip(data);
        Path file = writeWithIndex("changed", gz, 1, GzipIndex.Format.SLUICE);
        Configuration conf = conf();
        List<InputSplit> splits = plan(conf, file, gz.length / 10);
        assertTrue(splits.size() > 3, "splits: " + splits.size());
        GzipIndex.build(file, 30_000).save(Path.of(file + ".sgzi"));
        Files.setLastModifiedTime(Path.of(file + ".sgzi"), FileTime.fromMillis(System.currentTimeMillis() + 10_000));
        IndexedGzipTextInputFormat format = new IndexedGzipTextInputFormat();
        TaskAttemptContextImpl context = new TaskAttemptContextImpl(conf, new TaskAttemptID());
        try (RecordReader<LongWritable, Text> reader = format.createRecordReader(splits.get(1), context)) {
            IOException e = assertThrows(IOException.class, () -> reader.initialize(splits.get(1), context));
            assertTrue(e.getMessage().contains("changed after the splits"), e.getMessage());
        }
    }

    /** Sluice's independent members with a member-table index are TextInputFormat's (the codec's member splits). */
    @Test
    void indexWithoutCheckpointsLeavesTheFileToTheCodec() throws Exception {
        byte[] data = LineRecordReaderSplitTest.randomLines(new Random(14), 200_000);
        byte[] gz = TestFiles.sluiceMembers(TestFiles.cut(data, 10_000), 6);
        Path file = writeWithIndex("members", gz, 1, GzipIndex.Format.SLUICE);
        assertEquals(0, GzipIndex.load(Path.of(file + ".sgzi")).checkpoints());
        Read read = read(Splits.conf(tmp), file, gz.length / 10);
        assertSame(TestFiles.lines(data), read.values, "members");
        assertTrue(read.splits.size() > 5 && read.splits.stream().noneMatch(s -> s instanceof IndexedGzipSplit));
        assertTrue(read.splitsWithRecords > 5, "splits with records: " + read.splitsWithRecords);
    }

    @Test
    void indexFilesBesideTheirGzipAreNotInput() throws Exception {
        byte[] data = LineRecordReaderSplitTest.randomLines(new Random(15), 100_000);
        Path dir = Files.createDirectory(tmp.resolve("dir"));
        Path file = dir.resolve("d.gz");
        Files.write(file, TestFiles.plainGzip(data));
        GzipIndex ix = GzipIndex.build(file, 1);
        for (GzipIndex.Format f : GzipIndex.Format.values()) {
            ix.save(dir.resolve(f.fileName("d.gz")), f);
        }
        Files.write(dir.resolve("lonely.gzi"), new byte[] {'x', '\n'}); // indexes no listed file: input
        Job job = Job.getInstance(conf());
        FileInputFormat.setInputPaths(job, new org.apache.hadoop.fs.Path(dir.toUri()));
        List<String> files = new ArrayList<>();
        for (InputSplit s : new IndexedGzipTextInputFormat().getSplits(job)) {
            files.add(((FileSplit) s).getPath().getName());
        }
        assertEquals(List.of("d.gz", "lonely.gzi"), files.stream().distinct().sorted().toList());
    }

    private void checkWhole(Path gz, long splitSize, List<String> lines) throws Exception {
        Read read = read(conf(), gz, splitSize);
        assertEquals(1, read.splits.size(), gz + ": " + read.splits);
        assertTrue(!(read.splits.get(0) instanceof IndexedGzipSplit), gz.toString());
        assertSame(lines, read.values, gz.toString());
    }

    /** assertEquals for long lists, naming the first difference instead of printing both lists. */
    static <T> void assertSame(List<T> expected, List<T> actual, String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ": record #" + i);
        }
        assertEquals(expected.size(), actual.size(), what + ": records");
    }

    private Path writeWithIndex(String name, byte[] gz, long spacing, GzipIndex.Format format) throws IOException {
        Path file = tmp.resolve(name.endsWith(".gz") ? name : name + ".gz");
        Files.write(file, gz);
        Path index = file.resolveSibling(format.fileName(file.getFileName().toString()));
        GzipIndex.build(file, spacing).save(index, format);
        // Not older than the file even where the clock's granularity is coarse.
        Files.setLastModifiedTime(index, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 1000));
        return file;
    }

    private Configuration conf() {
        Configuration conf = Splits.conf(tmp);
        conf.unset("io.compression.codecs"); // Hadoop's GzipCodec: only the index may split a plain gzip file
        return conf;
    }

    private static List<InputSplit> plan(Configuration conf, Path file, long splitSize) throws IOException {
        Job job = Job.getInstance(conf);
        FileInputFormat.setInputPaths(job, new org.apache.hadoop.fs.Path(file.toUri()));
        FileInputFormat.setMinInputSplitSize(job, 1);
        FileInputFormat.setMaxInputSplitSize(job, splitSize);
        return new IndexedGzipTextInputFormat().getSplits(job);
    }

    /** The records of every split, in split order, with what each split decoded. */
    static final class Read {
        final List<FileSplit> splits = new ArrayList<>();
        final List<String> values = new ArrayList<>();
        final List<Long> keys = new ArrayList<>();
        final List<Long> decoded = new ArrayList<>();
        int splitsWithRecords;
    }

    private static Read read(Configuration conf, Path file, long splitSize) throws Exception {
        Read read = new Read();
        IndexedGzipTextInputFormat format = new IndexedGzipTextInputFormat();
        for (InputSplit split : plan(conf, file, splitSize)) {
            TaskAttemptContextImpl context = new TaskAttemptContextImpl(conf, new TaskAttemptID());
            read.splits.add((FileSplit) split);
            int before = read.values.size();
            try (RecordReader<LongWritable, Text> reader = format.createRecordReader(split, context)) {
                reader.initialize(split, context);
                while (reader.nextKeyValue()) {
                    read.values.add(reader.getCurrentValue().toString());
                    read.keys.add(reader.getCurrentKey().get());
                }
                read.decoded.add(reader instanceof IndexedLineRecordReader
                        ? ((IndexedLineRecordReader) reader).bytesDecoded() : -1L);
            }
            if (read.values.size() > before) {
                read.splitsWithRecords++;
            }
        }
        return read;
    }

    /**
     * The uncompressed bytes between the split's first point (the data's start or a checkpoint whose compressed
     * offset is in the split) and the next split's first point: what the split is meant to decode.
     */
    private static long ownedSpan(GzipIndex ix, long size, long start, long end) {
        long first = -1;
        long next = size;
        for (int i = -1; i < ix.checkpoints(); i++) {
            long c = i < 0 ? 0 : ix.checkpointCompressedOffset(i);
            long u = i < 0 ? 0 : ix.checkpointUncompressedOffset(i);
            boolean owned = i < 0 ? start == 0 : c >= start && c < end;
            if (owned && first < 0) {
                first = u;
            }
            if (c >= end) {
                next = u;
                break;
            }
        }
        return first < 0 ? 0 : next - first;
    }

    /** Byte offsets where TestFiles.lines' lines start. */
    private static List<Long> lineStarts(byte[] data) {
        List<Long> starts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < data.length; i++) {
            if (data[i] == '\n' || data[i] == '\r') {
                starts.add((long) start);
                if (data[i] == '\r' && i + 1 < data.length && data[i + 1] == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        if (start < data.length) {
            starts.add((long) start);
        }
        return starts;
    }
}
