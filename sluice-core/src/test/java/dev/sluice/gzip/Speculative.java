package dev.sluice.gzip;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * Test adapter: runs {@link SpeculativeReader} over a whole gzip input (its first header parsed here with
 * {@link GzipMembers#readDecoderHeader}, as GzipInputStream would hand over) and, beside it, the one-thread
 * {@link GzipInputStream}; each gives its bytes and the exception it ended with.
 */
final class Speculative {
    private Speculative() {}

    /** Bytes decoded and the exception that stopped decoding (null if none). */
    record Outcome(byte[] bytes, IOException failure, boolean garbageIgnored) {}

    /**
     * Decodes {@code gz} speculatively with {@code threads} workers and {@code chunk}-byte chunks; {@code ahead} is
     * how many bytes past the first header the "stream" had read (handed over in its buffer).
     */
    static Outcome speculative(byte[] gz, int threads, int chunk, int ahead, boolean ignoreGarbage)
            throws IOException {
        return speculative(gz, threads, chunk, ahead, ignoreGarbage, r -> { });
    }

    /** {@link #speculative(byte[], int, int, int, boolean)}, {@code setup} given the reader before its first read. */
    static Outcome speculative(byte[] gz, int threads, int chunk, int ahead, boolean ignoreGarbage,
            Consumer<SpeculativeReader> setup) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int hl = headerLength(gz);
        GzipMembers.Member claim = GzipMembers.readDecoderHeader(new Bytes(gz), 0);
        int lim = (int) Math.min(gz.length, (long) hl + ahead);
        SpeculativeReader r = new SpeculativeReader(threads, new ByteArrayInputStream(gz, lim, gz.length - lim), gz,
                hl, lim, 0, claim, ignoreGarbage, chunk);
        setup.accept(r);
        try {
            for (ParallelInflate.Decoded d; (d = r.next()) != null; ) {
                byte[] b = new byte[d.len];
                d.out.get(0, b, 0, d.len);
                out.write(b);
                r.recycle(d);
            }
            return new Outcome(out.toByteArray(), null, r.trailingGarbageIgnored());
        } catch (IOException e) {
            return new Outcome(out.toByteArray(), e, false);
        } finally {
            r.close();
        }
    }

    /**
     * The first member's header length, checked as GzipInputStream checks it before it would hand over (its fields
     * through {@link GzipMembers#readDecoderHeader}, and FHCRC).
     */
    static int headerLength(byte[] gz) throws IOException {
        Bytes b = new Bytes(gz);
        GzipMembers.readDecoderHeader(b, 0);
        int hl = b.at;
        if ((gz[3] & GzipHeader.FHCRC) != 0) {
            java.util.zip.CRC32 c = new java.util.zip.CRC32();
            c.update(gz, 0, hl - 2);
            if (((int) c.getValue() & 0xffff) != (int) GzipMembers.le(gz, hl - 2, 2)) {
                throw new java.util.zip.ZipException("FHCRC");
            }
        }
        return hl;
    }

    private static final class Bytes implements GzipMembers.Bytes {
        private final byte[] gz;
        int at;

        Bytes(byte[] gz) {
            this.gz = gz;
        }

        @Override
        public int read() throws IOException {
            if (at >= gz.length) {
                throw new java.io.EOFException("header");
            }
            return gz[at++] & 0xff;
        }
    }

    /** The one-thread stream's outcome. */
    static Outcome serial(byte[] gz, boolean ignoreGarbage) {
        return serial(gz, ignoreGarbage, 8192);
    }

    private static Outcome serial(byte[] gz, boolean ignoreGarbage, int readSize) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GzipInputStream in = GzipInputStream.builder().threads(1).ignoreTrailingGarbage(ignoreGarbage)
                .build(new ByteArrayInputStream(gz))) {
            byte[] b = new byte[readSize];
            for (int n; (n = in.read(b)) > 0; ) {
                out.write(b, 0, n);
            }
            return new Outcome(out.toByteArray(), null, in.trailingGarbageIgnored());
        } catch (IOException e) {
            return new Outcome(out.toByteArray(), e, false);
        }
    }

    /**
     * The most bytes zlib decodes before it fails: the JDK's GZIPInputStream read a byte at a time (its inflate call
     * that fails produces nothing). A prefix of the data where the input is bad, for comparing prefixes; one byte
     * short where a stored block's last byte and a bad block header after it come in the same call (zlib parses the
     * next header before it returns, and the error drops that byte), which the speculative path, decoding whole
     * blocks, returns: the callers allow that byte.
     */
    static byte[] zlibPrefix(byte[] gz) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new ByteArrayInputStream(gz))) {
            byte[] b = new byte[1];
            for (int n; (n = in.read(b)) > 0; ) {
                out.write(b, 0, n);
            }
        } catch (IOException e) {
            // the bytes before it are the answer
        }
        return out.toByteArray();
    }
}
