package dev.sluice.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A map-only MapReduce job in Hadoop's LocalJobRunner over a .gz in several splits (independent members through the
 * codec; a plain gzip file through its index): the output holds every input line once, and there was more than one
 * map task.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MapReduceLocalJobTest {

    @TempDir
    Path tmp;

    /** Passes each line through, so the output is the input's lines in some order. */
    public static final class Identity extends Mapper<LongWritable, Text, Text, NullWritable> {
        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            context.write(value, NullWritable.get());
        }
    }

    @Test
    void mapOnlyJobReadsEveryLineOnceAcrossSplits() throws Exception {
        long seed = System.nanoTime();
        System.out.println("mapOnlyJobReadsEveryLineOnceAcrossSplits seed " + seed);
        byte[] data = LineRecordReaderSplitTest.randomLines(new Random(seed), 400_000);
        Path input = tmp.resolve("in");
        Files.createDirectories(input);
        byte[] gz = TestFiles.sluiceMembers(TestFiles.cut(data, 20_000), 6);
        Files.write(input.resolve("data.gz"), gz);
        checkJob(input, gz.length / 5, TextInputFormat.class, data, 5);
    }

    /**
     * Issue 21: a one-member file made by gzip (--rsyncable, for many DEFLATE blocks) with Sluice's index beside it
     * in the input directory, read through IndexedGzipTextInputFormat with Hadoop's own GzipCodec registered: several
     * map tasks, every line once, and the index file is not read as input.
     */
    @Test
    void mapOnlyJobSplitsPlainGzipThroughItsIndex() throws Exception {
        Path input = tmp.resolve("in-indexed");
        Files.createDirectories(input);
        byte[] gz = TestFiles.resource("gzip-rsyncable.gz");
        Path file = input.resolve("data.gz");
        Files.write(file, gz);
        dev.sluice.gzip.GzipIndex.build(file, 1).save(input.resolve("data.gz.sgzi"));
        byte[] data = TestFiles.gunzip(gz);
        checkJob(input, gz.length / 8, IndexedGzipTextInputFormat.class, data, 6);
    }

    private void checkJob(Path input, long maxSplit, Class<? extends FileInputFormat<LongWritable, Text>> format,
            byte[] data, int minMaps) throws Exception {
        Configuration conf = Splits.conf(tmp);
        if (format != TextInputFormat.class) {
            conf.unset("io.compression.codecs"); // Hadoop's GzipCodec: only the index splits the file
        }
        // LocalJobRunner needs the checksummed LocalFileSystem; the other tests may have cached the raw one, and
        // Hadoop's FileSystem cache is keyed by scheme and user, not by configuration.
        conf.unset("fs.file.impl");
        org.apache.hadoop.fs.FileSystem.closeAll();
        conf.set("mapreduce.framework.name", "local");
        conf.set("mapreduce.cluster.local.dir", tmp.resolve("mr-local").toString());
        conf.set("mapreduce.jobtracker.staging.root.dir", tmp.resolve("mr-staging").toString());
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", maxSplit);
        Job job = Job.getInstance(conf, "sluice-splittable-gzip");
        job.setJarByClass(MapReduceLocalJobTest.class);
        job.setInputFormatClass(format);
        job.setMapperClass(Identity.class);
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(NullWritable.class);
        job.setOutputFormatClass(TextOutputFormat.class);
        FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
        Path output = tmp.resolve("out-" + input.getFileName());
        FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(output.toUri()));

        assertTrue(job.waitForCompletion(false), "job failed");
        List<String> got = new ArrayList<>();
        int maps = 0;
        try (var parts = Files.list(output)) {
            for (Path part : (Iterable<Path>) parts.filter(p -> p.getFileName().toString().startsWith("part-"))::iterator) {
                got.addAll(Files.readAllLines(part, StandardCharsets.UTF_8));
                maps++; // a map-only job writes one part-m-NNNNN per map task
            }
        }
        assertTrue(maps >= minMaps, "map tasks: " + maps);
        List<String> expected = TestFiles.lines(data);
        assertEquals(expected.size(), job.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue());
        Collections.sort(got);
        Collections.sort(expected);
        assertEquals(expected, got);
    }
}
