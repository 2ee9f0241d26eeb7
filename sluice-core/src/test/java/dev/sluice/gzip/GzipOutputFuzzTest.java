package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sluice.testing.HostileInputStream;
import dev.sluice.testing.HostileOutputStream;
import dev.sluice.testing.HostileInputStream.Mode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Timeout;

/**
 * ParallelGzipOutputStream and GzipOutputStream with fuzzed settings (threads, block size, level, strategy, buffer
 * size, independent blocks, sync flush) and a fuzzed sequence of write(int), write(b, off, len), flush, transferFrom
 * and finish: after close the output must decode with {@link GZIPInputStream} to exactly the bytes written, and after
 * each SYNC_FLUSH everything written so far must already decode. Settings outside what the builders accept must be
 * rejected with IllegalArgumentException while building, and nothing else.
 */
class GzipOutputFuzzTest {
    private static final int[] STRATEGIES = {Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY};

    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void fuzz(FuzzedDataProvider data) throws IOException {
        boolean parallel = data.consumeBoolean();
        int level = data.consumeInt(-2, 11);
        int strategy = data.consumeInt(0, 9) == 0 ? data.consumeInt() : STRATEGIES[data.consumeInt(0, 2)];
        boolean syncFlush = data.consumeBoolean();
        HostileOutputStream sink = new HostileOutputStream();
        // A sink that fails once at a fuzzed byte: the stream must report it and then refuse every later call
        // (issue 11, bug 3: a GzipOutputStream whose finish() had failed spun forever on the next write).
        sink.failAtByte = data.consumeInt(0, 3) == 0 ? data.consumeInt(0, 100_000) : -1;
        boolean armed = sink.failAtByte >= 0;
        OutputStream out;
        boolean valid = level >= 0 && level <= 9
                && (strategy == Deflater.DEFAULT_STRATEGY || strategy == Deflater.FILTERED
                        || strategy == Deflater.HUFFMAN_ONLY);
        String settings = (parallel ? "parallel" : "single") + ", level " + level + ", strategy " + strategy;
        try {
            if (parallel) {
                int threads = data.consumeInt(0, 20) == 0 ? data.consumeInt(-1, 300) : data.consumeInt(1, 4);
                int blockSize = data.consumeInt(0, 20) == 0 ? data.consumeInt(-1, 5000) : data.consumeInt(4096, 70_000);
                boolean independent = data.consumeBoolean();
                valid &= threads >= 1 && threads <= 256 && blockSize >= 4096;
                settings += ", threads " + threads + ", block " + blockSize + (independent ? ", independent" : "");
                out = ParallelGzipOutputStream.builder().level(level).strategy(strategy).threads(threads)
                        .blockSize(blockSize).independentBlocks(independent).build(sink);
                syncFlush = true;
            } else {
                int bufferSize = data.consumeInt(0, 4) == 0 ? data.consumeInt(-1, 16) : data.consumeInt(1, 70_000);
                // Fewer than MIN_BUFFER_SIZE bytes leave zlib no room for a flush marker (issue 11, bug 2).
                valid &= bufferSize >= GzipOutputStream.MIN_BUFFER_SIZE;
                settings += ", buffer " + bufferSize + (syncFlush ? "" : ", no sync flush");
                out = GzipOutputStream.builder().level(level).strategy(strategy).bufferSize(bufferSize)
                        .syncFlush(syncFlush).build(sink);
            }
        } catch (IllegalArgumentException e) {
            if (valid) {
                throw new AssertionError("valid settings rejected: " + settings + ": " + e, e);
            }
            return; // an invalid setting, rejected while building: the contract
        }
        if (!valid) {
            fail("invalid settings accepted: " + settings);
        }

        // Input: the fuzzer's bytes, repeated and varied by a seed so that sizes reach several blocks.
        Random r = new Random(data.consumeLong());
        byte[] unit = data.consumeBytes(data.consumeInt(0, 512));
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        int ops = data.consumeInt(0, 40);
        IOException failure = null;
        try {
            for (int op = 0; op < ops && data.remainingBytes() > 0; op++) {
                int choice = data.consumeInt(0, 9);
                if (choice == 0) {
                    int b = data.consumeInt();
                    out.write(b);
                    written.write(b);
                } else if (choice <= 4) {
                    byte[] b = material(unit, r, size(data));
                    int off = b.length == 0 ? 0 : data.consumeInt(0, b.length);
                    int len = data.consumeInt(0, b.length - off);
                    out.write(b, off, len);
                    written.write(b, off, len);
                } else if (choice <= 6) {
                    out.flush();
                    if (syncFlush) {
                        assertDecodesPrefix(sink.toByteArray(), written.toByteArray());
                    }
                } else if (choice == 7 && parallel) {
                    byte[] b = material(unit, r, size(data));
                    Mode mode = Mode.values()[data.consumeInt(0, Mode.values().length - 1)];
                    long n = ((ParallelGzipOutputStream) out).transferFrom(HostileInputStream.of(b, mode, r.nextLong()));
                    assertEquals(b.length, n, "transferFrom count");
                    written.write(b);
                } else if (choice == 8) {
                    finish(out);
                    break;
                }
            }
            if (sink.failAtByte >= 0 && data.consumeBoolean()) {
                finish(out);
            }
        } catch (IOException e) {
            failure = e;
        }
        boolean fired = armed && sink.failAtByte < 0; // the sink disarms itself when it throws
        if (fired || failure != null) {
            checkFailed(out, failure, settings);
            return;
        }
        try {
            out.close();
        } catch (IOException e) {
            if (armed && sink.failAtByte < 0) {
                return; // the sink failed while close() finished the member, and close() said so
            }
            throw e;
        }
        byte[] back;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(sink.toByteArray()))) {
            back = in.readAllBytes();
        }
        byte[] expected = written.toByteArray();
        if (!java.util.Arrays.equals(expected, back)) {
            fail("round trip: wrote " + expected.length + " bytes, read back " + back.length + " (" + settings + ")");
        }
        assertArrayEquals(expected, back);
    }

    /** After a failure every call throws an IOException, close included, and nothing spins. */
    private static void checkFailed(OutputStream out, IOException failure, String settings) {
        if (failure == null) {
            fail("the sink failed but no call threw (" + settings + ")");
        }
        assertThrows(IOException.class, () -> out.write(1), settings);
        assertThrows(IOException.class, () -> out.write(new byte[70_000], 0, 70_000), settings);
        assertThrows(IOException.class, out::flush, settings);
        assertThrows(IOException.class, () -> finish(out), settings);
        assertThrows(IOException.class, out::close, settings);
    }

    private static void finish(OutputStream out) throws IOException {
        if (out instanceof ParallelGzipOutputStream) {
            ((ParallelGzipOutputStream) out).finish();
        } else {
            ((GzipOutputStream) out).finish();
        }
    }

    /** Mostly short writes (cheap runs for CI's 10^4), one in four up to several blocks. */
    private static int size(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 3)) {
            case 0 -> data.consumeInt(0, 70);
            case 1 -> data.consumeInt(0, 4096);
            case 2 -> data.consumeInt(4096, 20_000);
            default -> data.consumeInt(0, 150_000);
        };
    }

    /** {@code n} bytes made of the fuzzer's unit, with every 7th copy varied, so both ratio and entropy show up. */
    private static byte[] material(byte[] unit, Random r, int n) {
        byte[] b = new byte[n];
        if (unit.length == 0) {
            r.nextBytes(b);
            return b;
        }
        for (int i = 0, copy = 0; i < n; copy++) {
            int k = Math.min(unit.length, n - i);
            System.arraycopy(unit, 0, b, i, k);
            if (copy % 7 == 6) {
                b[i + r.nextInt(k)] ^= (byte) (1 + r.nextInt(255));
            }
            i += k;
        }
        return b;
    }

    /** After a SYNC_FLUSH the output so far decodes to everything written so far (the trailer is still missing). */
    private static void assertDecodesPrefix(byte[] gz, byte[] written) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            assertArrayEquals(written, in.readNBytes(written.length), "decodable after flush()");
        } catch (java.io.EOFException e) {
            if (written.length > 0 || gz.length > 0) {
                throw new AssertionError("flush() left " + written.length + " written bytes undecodable: " + e, e);
            }
        }
    }
}
