package dev.sluice.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark {@code local[2]} reading an independent-member .gz with the codec registered the way the README says: text
 * and CSV come in several partitions and give exactly the rows of the same data read unsplit (uncompressed file); and
 * a plain gzip file with its index through IndexedGzipTextInputFormat.
 * Spark's scratch space and warehouse are under the test's temporary directory (CI also runs as {@code nobody}).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class SparkLocalReadTest {

    @TempDir
    static Path tmp;

    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("sluice-splittable-gzip")
                .config("spark.hadoop.io.compression.codecs", SplittableGzipCodec.class.getName())
                .config("spark.hadoop.hadoop.tmp.dir", tmp.resolve("hadoop-tmp").toString())
                .config("spark.local.dir", tmp.resolve("spark-local").toString())
                .config("spark.sql.warehouse.dir", tmp.resolve("warehouse").toUri().toString())
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.files.maxPartitionBytes", "32768")
                .config("spark.sql.files.openCostInBytes", "0")
                .getOrCreate();
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void textIsSplitAndEqualsTheUnsplitRead() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 30_000; i++) {
            sb.append("line ").append(i).append(i % 7 == 0 ? "\r\n" : "\n");
        }
        byte[] data = sb.toString().getBytes(StandardCharsets.US_ASCII);
        Path gz = tmp.resolve("text.gz");
        Files.write(gz, TestFiles.sluiceMembers(TestFiles.cut(data, 9_000), 6));
        Path plain = tmp.resolve("text.txt");
        Files.write(plain, data);

        Dataset<Row> split = spark.read().text(gz.toUri().toString());
        assertTrue(split.rdd().getNumPartitions() >= 3, "partitions: " + split.rdd().getNumPartitions());
        assertEquals(sorted(spark.read().text(plain.toUri().toString())), sorted(split));
    }

    @Test
    void csvIsSplitAndEqualsTheUnsplitRead() throws Exception {
        StringBuilder sb = new StringBuilder("id,name,value\n");
        for (int i = 0; i < 20_000; i++) {
            sb.append(i).append(",name").append(i % 97).append(',').append(i * 0.5).append('\n');
        }
        byte[] data = sb.toString().getBytes(StandardCharsets.US_ASCII);
        Path gz = tmp.resolve("table.csv.gz");
        Files.write(gz, TestFiles.sluiceMembers(TestFiles.cut(data, 7_000), 6));
        Path plain = tmp.resolve("table.csv");
        Files.write(plain, data);

        Dataset<Row> split = spark.read().option("header", "true").csv(gz.toUri().toString());
        assertTrue(split.rdd().getNumPartitions() >= 3, "partitions: " + split.rdd().getNumPartitions());
        Dataset<Row> whole = spark.read().option("header", "true").csv(plain.toUri().toString());
        List<String> expected = sorted(whole);
        assertEquals(20_000, expected.size());
        assertEquals(expected, sorted(split));
    }

    /**
     * Issue 21: a one-member file made by pigz, with Sluice's index beside it, read through IndexedGzipTextInputFormat
     * (newAPIHadoopFile): several partitions, and exactly the file's lines.
     */
    @Test
    void plainGzipIsSplitThroughItsIndex() throws Exception {
        byte[] gz = TestFiles.resource("pigz-b32.gz");
        Path dir = Files.createDirectories(tmp.resolve("indexed"));
        Path file = dir.resolve("pigz.gz");
        Files.write(file, gz);
        dev.sluice.gzip.GzipIndex.build(file, 1).save(dir.resolve("pigz.gz.sgzi"));
        byte[] data = TestFiles.gunzip(gz);
        // newAPIHadoopFile asks for the checksummed LocalFileSystem; other tests in this JVM may have cached the raw one.
        org.apache.hadoop.fs.FileSystem.closeAll();
        org.apache.hadoop.conf.Configuration conf =
                new org.apache.hadoop.conf.Configuration(spark.sparkContext().hadoopConfiguration());
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", gz.length / 8);
        JavaRDD<String> lines = JavaSparkContext.fromSparkContext(spark.sparkContext())
                .newAPIHadoopFile(dir.toUri().toString(), IndexedGzipTextInputFormat.class, LongWritable.class,
                        Text.class, conf)
                .values().map(new ToString());
        assertTrue(lines.getNumPartitions() >= 3, "partitions: " + lines.getNumPartitions());
        List<String> got = new ArrayList<>(lines.collect());
        List<String> expected = TestFiles.lines(data);
        Collections.sort(got);
        Collections.sort(expected);
        assertEquals(expected, got);
    }

    /** Text to String inside the task: the record reader reuses its Text. */
    static final class ToString implements Function<Text, String> {
        @Override
        public String call(Text t) {
            return t.toString();
        }
    }

    private static List<String> sorted(Dataset<Row> rows) {
        List<String> out = new ArrayList<>();
        for (Row r : rows.collectAsList()) {
            out.add(r.toString());
        }
        Collections.sort(out);
        return out;
    }
}
