package dev.sluice.gzip;

import dev.sluice.bench.gzip.GzipCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The speculative decoder's Java parts on one core, warm, on the gzip benchmarks' corpus (the JDK-source tar at level
 * 6, {@link GzipCorpus#tarGz()}, or {@code -Dsluice.marker.gz=} for another one-member gzip), against the JDK's zlib
 * on the same compressed bytes. The per-core rates that docs/benchmarks/gzip.md and the {@code auto} thresholds quote
 * come from here:
 * <ul>
 *   <li>{@link #speculative}: {@link MarkerInflater} from the first {@link BlockFinder} candidate of each of
 *       {@link #CHUNKS} chunks of {@link SpeculativeReader#CHUNK} compressed bytes, with no window (16-bit symbols and
 *       markers until the last 32 KiB hold none, then bytes), up to the first block end past the chunk, as a
 *       speculative worker decodes when no engine takes over;</li>
 *   <li>{@link #memberStart}: the same decoder over the same number of compressed bytes from the member's start (bytes
 *       from the first symbol: the byte phase alone);</li>
 *   <li>{@link #zlib}: {@link Inflater} over those bytes from the member's start (the one-thread path on JDK 17);</li>
 *   <li>{@link #resolve}: {@link MarkerInflater#resolve}, the first chunk's 16-bit output made bytes once its window
 *       is known;</li>
 *   <li>{@link #find}: {@link BlockFinder#next} from each chunk's first bit to its first candidate.</li>
 * </ul>
 * Setup prints each decode's output, so that a time per operation reads as MB/s. In {@code dev.sluice.gzip} because the
 * decoder is package-private (the benchmarks jar puts both on one class path). One thread; the state is not shared.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 6, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class MarkerInflaterBench {
    /** Chunks decoded per operation (fewer where the file is shorter). */
    static final int CHUNKS = 6;

    private byte[] in;
    private int limit;
    private long deflateBit;
    private long[] starts;
    private int hardCap;
    private final MarkerInflater inflater = new MarkerInflater();
    private final Inflater zlib = new Inflater(true);
    private byte[] zlibOut;
    /** The first chunk's 16-bit output, markers and all, and where {@link #resolve} writes it. */
    private char[] symbols;
    private byte[] resolved;
    private byte[] window;

    @Setup
    public void setup() throws IOException {
        String explicit = System.getProperty("sluice.marker.gz");
        Path gz = explicit != null ? Path.of(explicit) : GzipCorpus.tarGz();
        byte[] file = Files.readAllBytes(gz);
        limit = file.length;
        in = Arrays.copyOf(file, limit + 16); // the finder and the decoder read 16 bytes past the limit
        int[] at = {0};
        GzipMembers.readHeader(() -> at[0] < limit ? in[at[0]++] & 0xff : -1, 0);
        deflateBit = (long) at[0] << 3;
        int chunk = SpeculativeReader.CHUNK;
        hardCap = (int) Math.min(Integer.MAX_VALUE - 8, 10L * chunk + (4 << 20));
        int chunks = (int) Math.min(CHUNKS, (limit - at[0]) / chunk - 1);
        if (chunks < 1) {
            throw new IOException(gz + " is shorter than two chunks of " + chunk + " bytes");
        }
        starts = new long[chunks];
        inflater.out = new char[1 << 20];
        inflater.bytes = new byte[1 << 20];
        long speculativeOut = 0;
        int markerSymbols = 0;
        for (int i = 0; i < chunks; i++) {
            long from = deflateBit + (long) (i + 1) * chunk * 8;
            long found = from;
            while (true) {
                found = BlockFinder.next(inflater, in, limit, found, from + (long) chunk * 8);
                if (found < 0) {
                    throw new IOException("no block start found in chunk " + (i + 1) + " of " + gz);
                }
                if (decode(found, false) != MarkerInflater.FAILED) {
                    break; // a false candidate fails to decode (at least here); the worker moves on the same way
                }
                found++;
            }
            starts[i] = found;
            speculativeOut += inflater.length;
            markerSymbols += inflater.split;
            if (i == 0) {
                symbols = Arrays.copyOf(inflater.out, inflater.split);
            }
        }
        resolved = new byte[symbols.length];
        window = new byte[MarkerInflater.WINDOW];
        Arrays.fill(window, (byte) ' ');
        decode(deflateBit, true);
        long memberOut = inflater.length;
        zlibOut = new byte[(int) Math.min(Integer.MAX_VALUE - 8, memberOut + (1 << 20))];
        System.out.printf("%n%s: %d chunks of %d bytes; speculative %d bytes of output per op (%d of them 16-bit), "
                + "member start %d, zlib %d; resolve %d symbols per op%n", gz, chunks, chunk, speculativeOut,
                markerSymbols, memberOut, zlib(), symbols.length);
    }

    @TearDown
    public void end() {
        zlib.end();
    }

    /** Decodes {@link #CHUNKS} compressed chunks' worth from {@code start}; the status. */
    private int decode(long start, boolean memberStart) {
        long stop = memberStart ? start + (long) starts.length * SpeculativeReader.CHUNK * 8
                : start + (long) SpeculativeReader.CHUNK * 8;
        // The arrays grow (by copying) during setup's decodes only, as the reader's do over its first chunks.
        return inflater.decode(in, limit, start, stop, memberStart, Integer.MAX_VALUE - 16,
                memberStart ? Integer.MAX_VALUE - 16 : hardCap);
    }

    @Benchmark
    public long speculative() {
        long total = 0;
        for (long s : starts) {
            decode(s, false);
            total += inflater.length;
        }
        return total;
    }

    @Benchmark
    public long memberStart() {
        decode(deflateBit, true);
        return inflater.length;
    }

    @Benchmark
    public long zlib() {
        zlib.reset();
        int from = (int) (deflateBit >>> 3);
        zlib.setInput(in, from, Math.min(limit - from, starts.length * SpeculativeReader.CHUNK));
        long total = 0;
        try {
            for (int n; (n = zlib.inflate(zlibOut, 0, zlibOut.length)) > 0 || !zlib.needsInput() && !zlib.finished(); ) {
                total += n;
            }
        } catch (DataFormatException e) {
            throw new IllegalStateException(e);
        }
        return total;
    }

    /** {@link MarkerInflater#resolve} of the first chunk's 16-bit output with a window (its markers become bytes). */
    @Benchmark
    public byte[] resolve() {
        MarkerInflater.resolve(symbols, 0, symbols.length, window, resolved, 0);
        return resolved;
    }

    @Benchmark
    public long find() {
        long sum = 0;
        for (int i = 0; i < starts.length; i++) {
            long from = deflateBit + (long) (i + 1) * SpeculativeReader.CHUNK * 8;
            sum += BlockFinder.next(inflater, in, limit, from, from + (long) SpeculativeReader.CHUNK * 8);
        }
        return sum;
    }
}
