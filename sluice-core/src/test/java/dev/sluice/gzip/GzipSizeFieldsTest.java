package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.gzip.ParallelGzipOutputStream.Format;
import dev.sluice.testing.HostileInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 23: a size subfield that lies (BGZF's BSIZE, Sluice's SL member length or uncompressed size) gets the same
 * answer, down to the exception type, with one decoding thread as with two, in every read style. Before, one thread
 * ignored the subfield (correct output, no error) and two refused the file.
 */
@Timeout(120)
class GzipSizeFieldsTest {

    private static final int BLOCK = 64 * 1024;

    private static byte[] write(Format format, byte[] data) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        ParallelGzipOutputStream.Builder builder = ParallelGzipOutputStream.builder().format(format).threads(2);
        if (format == Format.INDEPENDENT_MEMBERS) {
            builder.blockSize(BLOCK);
        }
        try (ParallelGzipOutputStream out = builder.build(b)) {
            out.write(data);
        }
        return b.toByteArray();
    }

    /** Offset of the data of the first subfield {@code si1 si2} in the header of the member at {@code member}. */
    private static int subfield(byte[] gz, int member, char si1, char si2) {
        int xlen = (gz[member + 10] & 0xff) | (gz[member + 11] & 0xff) << 8;
        for (int i = member + 12; i + 4 <= member + 12 + xlen; ) {
            int len = (gz[i + 2] & 0xff) | (gz[i + 3] & 0xff) << 8;
            if (gz[i] == si1 && gz[i + 1] == si2) {
                return i + 4;
            }
            i += 4 + len;
        }
        throw new AssertionError("no " + si1 + si2 + " subfield in member at " + member);
    }

    private static long le(byte[] b, int at, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = v << 8 | (b[at + i] & 0xff);
        }
        return v;
    }

    private static byte[] withLe(byte[] b, int at, int n, long v) {
        byte[] c = b.clone();
        for (int i = 0; i < n; i++) {
            c[at + i] = (byte) (v >>> (8 * i));
        }
        return c;
    }

    /** Member start offsets, from the size subfields of the good file. */
    private static List<Integer> members(byte[] gz, boolean bgzf) {
        List<Integer> starts = new ArrayList<>();
        for (int at = 0; at < gz.length; ) {
            starts.add(at);
            at += bgzf ? (int) le(gz, subfield(gz, at, 'B', 'C'), 2) + 1 : (int) le(gz, subfield(gz, at, 'S', 'L'), 8);
        }
        return starts;
    }

    /** What reading {@code gz} gives: "ok" with the bytes checked, or the exception's class name. */
    private static String outcome(byte[] gz, byte[] data, int threads, int style, long seed) {
        InputStream source = style == 3 ? HostileInputStream.of(gz, HostileInputStream.Mode.RANDOM_SHORT, seed)
                : new ByteArrayInputStream(gz);
        try (GzipInputStream in = GzipInputStream.builder().threads(threads).build(source)) {
            byte[] got;
            if (style == 0) {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                for (int c; (c = in.read()) >= 0; ) {
                    b.write(c);
                }
                got = b.toByteArray();
            } else if (style == 1) {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                in.transferTo(b);
                got = b.toByteArray();
            } else {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                byte[] buf = new byte[8191];
                for (int n; (n = in.read(buf)) >= 0; ) {
                    b.write(buf, 0, n);
                }
                got = b.toByteArray();
            }
            assertArrayEquals(data, got, "accepted input must decode to the data");
            return "ok";
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static void sameEverywhere(String what, byte[] gz, byte[] data, String expected, long seed) {
        for (int threads = 1; threads <= 2; threads++) {
            for (int style = 0; style < 4; style++) {
                String got = outcome(gz, data, threads, style, seed);
                if (!got.equals(expected)) {
                    fail(what + ": " + threads + " thread(s), read style " + style + " gave " + got + ", expected "
                            + expected + " (seed " + seed + ")");
                }
            }
        }
    }

    @Test
    void lyingSizeFieldsAreRefusedWithOneThreadAsWithTwo() throws IOException {
        long seed = GzipIndexTest.seed("GzipSizeFieldsTest");
        Random r = new Random(seed);
        byte[] data = TestData.mixed(r, 5 * BLOCK + r.nextInt(BLOCK));
        for (Format format : new Format[] {Format.BGZF, Format.INDEPENDENT_MEMBERS}) {
            boolean bgzf = format == Format.BGZF;
            byte[] gz = write(format, data);
            sameEverywhere(format + " unchanged", gz, data, "ok", seed);
            List<Integer> starts = members(gz, bgzf);
            assertTrue(starts.size() >= 4, starts.toString());
            int second = starts.get(1);
            int lastData = starts.get(starts.size() - (bgzf ? 2 : 1)); // BGZF ends with its empty EOF member
            int len = bgzf ? 2 : 8;
            int at = subfield(gz, second, bgzf ? 'B' : 'S', bgzf ? 'C' : 'L');
            long total = le(gz, at, len);
            sameEverywhere(format + " length one short", withLe(gz, at, len, total - 1), data, "ZipException", seed);
            sameEverywhere(format + " length one long", withLe(gz, at, len, total + 1), data, "ZipException", seed);
            int atLast = subfield(gz, lastData, bgzf ? 'B' : 'S', bgzf ? 'C' : 'L');
            long past = gz.length - lastData + 100 - (bgzf ? 1 : 0);
            sameEverywhere(format + " last member past the end", withLe(gz, atLast, len, past), data, "EOFException",
                    seed);
            if (!bgzf) {
                long usize = le(gz, at + 8, 8);
                sameEverywhere("SL uncompressed size one more", withLe(gz, at + 8, 8, usize + 1), data,
                        "ZipException", seed);
                sameEverywhere("SL uncompressed size one less", withLe(gz, at + 8, 8, usize - 1), data,
                        "ZipException", seed);
            }
        }
    }

    /** The ordinary multi-member stream, no size subfields: untouched by the check. */
    @Test
    void plainMembersStillRead() throws IOException {
        Random r = new Random(3);
        byte[] a = TestData.text(r, 100_000);
        byte[] gz = GzipIndexTest.concat(TestData.member(GzipHeader.minimal(), a, 6),
                TestData.member(GzipHeader.minimal(), a, 1));
        sameEverywhere("plain", gz, GzipIndexTest.concat(a, a), "ok", 3);
    }
}
