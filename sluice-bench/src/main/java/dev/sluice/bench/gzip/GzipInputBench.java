package dev.sluice.bench.gzip;

import dev.sluice.bench.CpuClock;
import dev.sluice.bench.CpuTime;
import dev.sluice.gzip.GzipInputStream;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * E5: decompressing the JDK-source tar (page-cached file) as people usually do, as the folklore advises (64 KiB
 * buffer), and with {@link GzipInputStream}; plus its input-buffer sweep and the raw-Inflater ceiling with heap and
 * direct input buffers. Every method returns the decompressed byte count, so no work can be eliminated; the caller
 * reads with an 8 KiB array, the size {@code InputStream.transferTo} uses on JDK 17.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class GzipInputBench {

    /** GzipInputStream input-buffer sizes for {@link #bufferSweep}. */
    @Param({"65536"})
    public int bufferSize;

    @Param({"8192"})
    public int readSize;

    private Path gz;
    private byte[] buf;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        gz = GzipCorpus.tarGz();
        buf = new byte[readSize];
    }

    private long drain(InputStream in) throws IOException {
        long total = 0;
        try (in) {
            for (int n; (n = in.read(buf)) >= 0; ) {
                total += n;
            }
        }
        return total;
    }

    /** As commonly written: a BufferedInputStream under GZIPInputStream's default 512-byte buffer. */
    @Benchmark
    public long jdkBuffered(CpuTime cpu) throws IOException {
        CpuClock.startProcess(cpu);
        try {
            return drain(new GZIPInputStream(new BufferedInputStream(new FileInputStream(gz.toFile()))));
        } finally {
            CpuClock.stopProcess(cpu);
        }
    }

    /** As the folklore advises: GZIPInputStream with a 64 KiB buffer straight on the file. */
    @Benchmark
    public long jdk64k(CpuTime cpu) throws IOException {
        CpuClock.startProcess(cpu);
        try {
            return drain(new GZIPInputStream(new FileInputStream(gz.toFile()), 64 * 1024));
        } finally {
            CpuClock.stopProcess(cpu);
        }
    }

    /** Sluice with its default buffer. */
    @Benchmark
    public long sluice(CpuTime cpu) throws IOException {
        CpuClock.startProcess(cpu);
        try {
            return drain(new GzipInputStream(new FileInputStream(gz.toFile())));
        } finally {
            CpuClock.stopProcess(cpu);
        }
    }

    /** Sluice with {@link #bufferSize}: run with -p bufferSize=512,4096,16384,65536,262144,1048576. */
    @Benchmark
    public long bufferSweep(CpuTime cpu) throws IOException {
        CpuClock.startProcess(cpu);
        try {
            return drain(GzipInputStream.builder().bufferSize(bufferSize).build(new FileInputStream(gz.toFile())));
        } finally {
            CpuClock.stopProcess(cpu);
        }
    }

    /** The ceiling: a raw Inflater on heap input read through a FileChannel, no CRC (header skipped by hand). */
    @Benchmark
    public long rawInflaterHeap(CpuTime cpu) throws IOException, DataFormatException {
        CpuClock.startProcess(cpu);
        try {
            return rawInflate(ByteBuffer.allocate(bufferSize));
        } finally {
            CpuClock.stopProcess(cpu);
        }
    }

    /** As {@link #rawInflaterHeap} with a direct input buffer: setInput(ByteBuffer) without a copy to the heap. */
    @Benchmark
    public long rawInflaterDirect(CpuTime cpu) throws IOException, DataFormatException {
        CpuClock.startProcess(cpu);
        try {
            return rawInflate(ByteBuffer.allocateDirect(bufferSize));
        } finally {
            CpuClock.stopProcess(cpu);
        }
    }

    private long rawInflate(ByteBuffer in) throws IOException, DataFormatException {
        Inflater inf = new Inflater(true);
        long total = 0;
        try (FileChannel ch = FileChannel.open(gz)) {
            ch.position(10); // the corpus is one member with the minimal 10-byte header
            while (!inf.finished()) {
                if (inf.needsInput()) {
                    in.clear();
                    if (ch.read(in) < 0) {
                        throw new IOException("truncated corpus");
                    }
                    in.flip();
                    inf.setInput(in);
                }
                total += inf.inflate(buf);
            }
        } finally {
            inf.end();
        }
        return total;
    }
}
