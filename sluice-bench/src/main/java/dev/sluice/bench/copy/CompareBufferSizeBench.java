package dev.sluice.bench.copy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * Chooses {@code DirectBuffers.SIZE}: the one-thread loop of {@code ChannelCompare} (two direct buffers, positional
 * reads, {@code ByteBuffer.mismatch}) over the equal 1 GiB pair of {@link CompareBench}, at each buffer size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
public class CompareBufferSizeBench {

    @Param({"8192", "65536", "262144", "1048576", "4194304"})
    int bufferSize;

    Path a;
    Path b;
    ByteBuffer ba;
    ByteBuffer bb;

    @Setup
    public void setup() throws IOException {
        a = CopyData.randomFile("a.bin", CompareBench.SIZE);
        b = CopyData.copyOf(a, "b.bin");
        ba = ByteBuffer.allocateDirect(bufferSize);
        bb = ByteBuffer.allocateDirect(bufferSize);
    }

    private static void fill(FileChannel ch, ByteBuffer buf, long pos, int n) throws IOException {
        buf.clear().limit(n);
        while (buf.hasRemaining() && ch.read(buf, pos + buf.position()) >= 0) {
            // keep reading: a short read is not the end
        }
        buf.flip();
    }

    @Benchmark
    public long directBuffers() throws IOException {
        try (FileChannel ca = FileChannel.open(a, StandardOpenOption.READ);
             FileChannel cb = FileChannel.open(b, StandardOpenOption.READ)) {
            long size = ca.size();
            for (long done = 0; done < size; ) {
                int n = (int) Math.min(bufferSize, size - done);
                fill(ca, ba, done, n);
                fill(cb, bb, done, n);
                int m = ba.mismatch(bb);
                if (m >= 0) {
                    return done + m;
                }
                done += n;
            }
            return -1;
        }
    }
}
