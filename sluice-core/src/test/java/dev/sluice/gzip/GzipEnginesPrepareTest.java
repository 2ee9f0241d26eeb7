package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link GzipEngines#prepareInflater()}'s contract: idempotent, thread-safe, returns at once, never throws and prints
 * nothing, and the streams decode after it exactly as without it, on whichever engine the policy picks (ISA-L in the
 * build's run on the packaged jar, zlib on a classes directory or Java 17-21: there the call must do nothing).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GzipEnginesPrepareTest {
    private static final long SEED = System.nanoTime();

    @Test
    void prepareInflaterFromManyThreadsIsSilentAndDecodingIsUnchanged() throws Exception {
        System.out.println("GzipEnginesPrepareTest seed " + SEED);
        byte[] data = new byte[300_000];
        Random r = new Random(SEED);
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) ('a' + r.nextInt(r.nextBoolean() ? 4 : 26)); // compressible, with real Huffman codes
        }
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(data);
        }

        // The hook acts only under auto; the build's native run sets require, under which it must do nothing, so
        // auto is set here for the binding to run. Surefire runs the classes one at a time in a shared JVM, and the
        // property is put back in the finally below, so later tests see the run's own mode.
        String mode = System.getProperty(GzipEngines.PROPERTY);
        System.setProperty(GzipEngines.PROPERTY, "auto");
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        List<Throwable> failures = new ArrayList<>();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                boolean dictionary = t % 2 == 0;
                Thread th = new Thread(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < 50; i++) {
                            if (dictionary) {
                                GzipEngines.bindInflaterSoon(true); // what GzipIndex.load asks, racing the hook
                            } else {
                                GzipEngines.prepareInflater();
                            }
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                });
                th.start();
                threads.add(th);
            }
            go.countDown();
            for (Thread th : threads) {
                th.join();
            }
            GzipEngines.prepareInflater(); // again, once the binding may be done
            for (int i = 0; i < 2; i++) {
                try (GzipInputStream in = GzipInputStream.builder().build(new ByteArrayInputStream(gz.toByteArray()))) {
                    assertArrayEquals(data, in.readAllBytes(), "seed " + SEED);
                }
            }
        } catch (IOException e) {
            throw new AssertionError("seed " + SEED, e);
        } finally {
            System.setErr(err);
            if (mode == null) {
                System.clearProperty(GzipEngines.PROPERTY);
            } else {
                System.setProperty(GzipEngines.PROPERTY, mode);
            }
        }
        assertTrue(failures.isEmpty(), () -> "seed " + SEED + ": " + failures);
        assertEquals("", captured.toString(StandardCharsets.UTF_8), "nothing printed");
        if (NativeEnginesTest.expectNative()) {
            assertTrue(GzipEngines.inflateEngine().startsWith("ISA-L"), GzipEngines.inflateEngine());
        }
    }
}
