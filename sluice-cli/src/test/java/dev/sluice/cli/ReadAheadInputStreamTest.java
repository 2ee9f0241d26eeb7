package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link ReadAheadInputStream}: the source's bytes in order, its failure in place, and a clean stop on close. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadAheadInputStreamTest {
    static final long SEED = System.nanoTime();

    /** A source that returns random short reads (and sometimes 0 bytes), as hostile as the contract allows. */
    private static final class ShortReads extends InputStream {
        final InputStream in;
        final Random r;
        final AtomicBoolean closed = new AtomicBoolean();

        ShortReads(byte[] data, Random r) {
            this.in = new ByteArrayInputStream(data);
            this.r = r;
        }

        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len > 0 && r.nextInt(10) == 0) {
                return 0;
            }
            return in.read(b, off, Math.min(len, 1 + r.nextInt(300_000)));
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    @Test
    void returnsTheSourceBytesInOrderWhateverTheSizes() throws IOException {
        Random r = new Random(SEED);
        int chunk = ReadAheadInputStream.CHUNK;
        // Empty, under a chunk, exactly the chunks in flight (the end lands on a chunk edge), and a random length
        // that straddles them.
        for (int size : new int[] {0, 1, chunk - 1, ReadAheadInputStream.CHUNKS * chunk, 5 * chunk + r.nextInt(chunk)}) {
            byte[] data = new byte[size];
            r.nextBytes(data);
            ShortReads source = new ShortReads(data, new Random(r.nextLong()));
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try (ReadAheadInputStream in = new ReadAheadInputStream(source)) {
                byte[] buf = new byte[1 + r.nextInt(200_000)];
                for (int n; (n = in.read(buf, 0, 1 + r.nextInt(buf.length))) >= 0; ) {
                    assertTrue(n > 0, "a read of at least one byte returned 0");
                    got.write(buf, 0, n);
                }
                assertEquals(-1, in.read(), "after the end");
            }
            assertArrayEquals(data, got.toByteArray(), "size " + size + " seed " + SEED);
            assertTrue(source.closed.get(), "the source is closed with the stream");
        }
    }

    @Test
    void theSourceFailureComesAfterTheBytesBeforeIt() throws IOException {
        IOException failure = new IOException("disk on fire");
        int good = ReadAheadInputStream.CHUNK + 12345;
        InputStream source = new InputStream() {
            int left = good;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (left == 0) {
                    throw failure;
                }
                int n = Math.min(len, left);
                left -= n;
                return n;
            }
        };
        try (ReadAheadInputStream in = new ReadAheadInputStream(source)) {
            byte[] buf = new byte[70_000];
            long total = 0;
            IOException thrown = null;
            try {
                for (int n; (n = in.read(buf, 0, buf.length)) >= 0; ) {
                    total += n;
                }
            } catch (IOException e) {
                thrown = e;
            }
            assertSame(failure, thrown);
            assertEquals(good, total, "bytes before the failure");
        }
    }

    @Test
    void closeMidwayStopsTheReaderAndClosesTheSource() throws IOException {
        byte[] data = new byte[8 * ReadAheadInputStream.CHUNK];
        ShortReads source = new ShortReads(data, new Random(SEED));
        ReadAheadInputStream in = new ReadAheadInputStream(source);
        assertTrue(in.read(new byte[10], 0, 10) > 0);
        in.close(); // joins the reader: returns only once it has stopped
        in.close(); // twice is allowed
        assertTrue(source.closed.get());
        assertThrows(IOException.class, () -> in.read(new byte[1], 0, 1));
    }
}
