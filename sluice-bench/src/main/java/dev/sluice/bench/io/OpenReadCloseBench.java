package dev.sluice.bench.io;

import dev.sluice.file.FastFiles;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * E3: open a page-cached file, read all of it into an 8 KiB array, close it; for each way of opening a file. The
 * classic test found channels 30-40% faster than FileInputStream for small files.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class OpenReadCloseBench {

    @Param({"16", "4096", "32768", "500000", "5000000"})
    public int size;

    Path file;
    final byte[] array = new byte[8192];

    @Setup
    public void setup() throws IOException {
        file = BenchData.randomFile(size);
    }

    private long drain(InputStream in) throws IOException {
        return BenchData.drain(in, array);
    }

    @Benchmark
    public long fileInputStream() throws IOException {
        return drain(new FileInputStream(file.toFile()));
    }

    @Benchmark
    public long filesNewInputStream() throws IOException {
        return drain(Files.newInputStream(file));
    }

    @Benchmark
    public long randomAccessFileChannel() throws IOException {
        RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r");
        return drain(Channels.newInputStream(raf.getChannel())); // closing the stream closes the file
    }

    @Benchmark
    public long fileChannelOpen() throws IOException {
        return drain(Channels.newInputStream(FileChannel.open(file)));
    }

    @Benchmark
    public long sluiceFastFiles() throws IOException {
        return drain(FastFiles.newInputStream(file));
    }

    @Benchmark
    public long sluiceUnbuffered() throws IOException {
        return drain(FastFiles.newUnbufferedInputStream(file));
    }
}
