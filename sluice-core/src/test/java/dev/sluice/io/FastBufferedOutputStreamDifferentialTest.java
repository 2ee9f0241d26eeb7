package dev.sluice.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.testing.HostileOutputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random sequences of writes, flushes and failing sinks on a {@link FastBufferedOutputStream} and a
 * {@link BufferedOutputStream}: after every flush and at the end, both sinks must hold the same bytes, which are the
 * bytes written.
 */
class FastBufferedOutputStreamDifferentialTest {

    @Test
    void randomOperationSequencesMatchBufferedOutputStream() throws Exception {
        long base = Long.getLong("sluice.test.seed", 0x5EED_0002L);
        int sequences = Integer.getInteger("sluice.test.sequences", 3000);
        for (int i = 0; i < sequences; i++) {
            long seed = base + i;
            try {
                runSequence(seed);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("sequence failed; rerun with -Dsluice.test.seed=" + seed
                        + " -Dsluice.test.sequences=1: " + e, e);
            }
        }
    }

    private static void runSequence(long seed) throws IOException {
        runSequence(new Random(seed));
    }

    /** One operation sequence, every choice drawn from {@code r}; also the body of FastBufferedOutputStreamFuzzTest. */
    static void runSequence(Random r) throws IOException {
        int bufferSize = FastBufferedInputStreamDifferentialTest.BUFFER_SIZES[
                r.nextInt(FastBufferedInputStreamDifferentialTest.BUFFER_SIZES.length)];
        HostileOutputStream fastSink = new HostileOutputStream();
        HostileOutputStream jdkSink = new HostileOutputStream();
        FastBufferedOutputStream fast = new FastBufferedOutputStream(fastSink, bufferSize);
        BufferedOutputStream jdk = new BufferedOutputStream(jdkSink, bufferSize);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        int ops = 1 + r.nextInt(80);
        for (int op = 0; op < ops; op++) {
            String what = "op " + op + " (buffer " + bufferSize + ")";
            int choice = r.nextInt(100);
            if (choice < 40) {
                int b = r.nextInt(512) - 128; // high bits must be ignored
                fast.write(b);
                jdk.write(b);
                written.write(b);
            } else if (choice < 80) {
                int len = switch (r.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> r.nextInt(8);
                    case 2 -> bufferSize - 1 + r.nextInt(3);
                    default -> r.nextInt(3 * bufferSize + 7);
                };
                len = Math.max(0, len);
                byte[] b = new byte[len + 6];
                r.nextBytes(b);
                int off = r.nextInt(4);
                fast.write(b, off, len);
                jdk.write(b, off, len);
                written.write(b, off, len);
            } else if (choice < 90) {
                fast.flush();
                jdk.flush();
                assertArrayEquals(written.toByteArray(), fastSink.toByteArray(), what + " after flush");
                assertArrayEquals(jdkSink.toByteArray(), fastSink.toByteArray(), what);
            } else if (choice < 96) {
                // A sink that fails for a while: bytes the sink refused stay buffered in both, in order.
                fastSink.failWrites = true;
                jdkSink.failWrites = true;
                byte[] b = new byte[bufferSize + r.nextInt(3)];
                r.nextBytes(b);
                Throwable a = FastBufferedInputStreamDifferentialTest.thrown(() -> { fast.write(b); return null; });
                Throwable j = FastBufferedInputStreamDifferentialTest.thrown(() -> { jdk.write(b); return null; });
                assertEquals(j == null ? null : j.getClass(), a == null ? null : a.getClass(), what + " failing sink");
                fastSink.failWrites = false;
                jdkSink.failWrites = false;
                if (a == null) {
                    written.write(b);
                }
                fast.flush();
                jdk.flush();
                // A large write that failed is lost in both (it never entered the buffer); buffered bytes are not.
                assertArrayEquals(jdkSink.toByteArray(), fastSink.toByteArray(), what + " after recovery");
                written.reset();
                written.write(fastSink.toByteArray());
            } else {
                break;
            }
        }
        fast.close();
        jdk.close();
        assertArrayEquals(jdkSink.toByteArray(), fastSink.toByteArray(), "after close");
        assertArrayEquals(written.toByteArray(), fastSink.toByteArray(), "after close");
        assertEquals(1, fastSink.closeCount());
    }
}
