package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sluice.testing.HostileInputStream;
import dev.sluice.testing.HostileInputStream.Mode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Timeout;

/**
 * GzipInputStream and GzipHeader on arbitrary bytes: every input ends in decoded bytes or an {@link IOException}
 * (any subtype), never another exception, a hang or an OutOfMemoryError (the output limit is always set, at most
 * 1 MiB). After an exception every further read throws an IOException too. Where a strict stream accepts the whole
 * input, the JDK's GZIPInputStream must decode the same bytes, and every header read must survive
 * GzipHeader.builder() and encode() unchanged. Buffer size, read sizes, skips and the source's short reads are
 * fuzzed; the rest of the input is the gzip data.
 */
class GzipInputFuzzTest {
    private static final int MAX_OUTPUT = 1 << 20;

    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void fuzz(FuzzedDataProvider data) throws IOException {
        int bufferSize = data.consumeBoolean() ? data.consumeInt(1, 32) : data.consumeInt(1, 70_000);
        boolean ignoreGarbage = data.consumeBoolean();
        long limit = data.consumeBoolean() ? data.consumeInt(0, 4096) : MAX_OUTPUT;
        Mode mode = Mode.values()[data.consumeInt(0, Mode.values().length - 1)];
        int readSize = data.consumeBoolean() ? data.consumeInt(1, 9) : data.consumeInt(1, 300_000);
        int pattern = data.consumeInt(0, 3);
        long seed = data.consumeLong();
        byte[] gz = data.consumeRemainingAsBytes();

        GzipInputStream in = GzipInputStream.builder().bufferSize(bufferSize).ignoreTrailingGarbage(ignoreGarbage)
                .maxOutputBytes(limit).build(HostileInputStream.of(gz, mode, seed));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        IOException failure = null;
        try {
            GzipHeader h = in.header();
            if (h != null) {
                checkHeader(h);
            }
            byte[] buf = new byte[readSize + 3];
            while (true) {
                if (pattern == 0) {
                    int c = in.read();
                    if (c < 0) {
                        break;
                    }
                    out.write(c);
                } else if (pattern == 1 && out.size() % 3 == 1) {
                    long k = in.skip(readSize);
                    assertTrue(k >= 0 && k <= readSize, "skip(" + readSize + ") = " + k);
                    if (k == 0 && in.read(buf, 0, 0) == 0 && in.read() < 0) {
                        break;
                    }
                    out.write(new byte[(int) k]); // only the count of skipped bytes is compared below
                } else {
                    int n = in.read(buf, 2, readSize);
                    if (n < 0) {
                        break;
                    }
                    assertTrue(n >= 1 && n <= readSize, "read returned " + n + " for " + readSize);
                    out.write(buf, 2, n);
                }
                assertTrue(out.size() <= limit, "the output limit " + limit + " held");
            }
            checkHeader(in.header());
        } catch (IOException e) {
            failure = e; // corrupt, truncated or too long: the answer the contract allows
        }
        if (failure != null) {
            // Every later read throws as well; none of them returns data or -1 as if nothing had happened.
            assertThrows(IOException.class, () -> in.read(new byte[8], 0, 8));
            assertThrows(IOException.class, in::read);
        } else if (!ignoreGarbage && limit == MAX_OUTPUT && pattern != 1) {
            // Strictly accepted: the JDK's reader agrees on every byte (it is laxer, never stricter, on such input).
            byte[] jdk;
            try (GZIPInputStream j = new GZIPInputStream(new ByteArrayInputStream(gz))) {
                jdk = j.readAllBytes();
            }
            assertArrayEquals(jdk, out.toByteArray(), "the JDK's GZIPInputStream decodes the same bytes");
        }
        in.close();
        in.close(); // twice is safe
    }

    /** A header read from the input survives the builder and encode() unchanged (FNAME/FCOMMENT have no NUL). */
    private static void checkHeader(GzipHeader h) throws IOException {
        if (h == null) {
            return;
        }
        h.toString();
        GzipHeader.Builder b = GzipHeader.builder().text(h.text()).headerCrc(h.headerCrc()).os(h.os())
                .name(h.name().orElse(null)).comment(h.comment().orElse(null)).extra(h.extra().orElse(null))
                .modificationTime(h.modificationTime().orElse(null));
        byte[] encoded = b.build().encode(h.extraFlags());
        // An empty member after the header: final stored block, CRC 0, ISIZE 0.
        ByteArrayOutputStream member = new ByteArrayOutputStream();
        member.write(encoded);
        member.write(new byte[] {3, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        // Whatever the second stream throws is this check's failure, never the fuzzed stream's: an IOException
        // escaping from here would be taken for the fuzzed stream failing, whose later reads must then throw too.
        try (GzipInputStream again = new GzipInputStream(new ByteArrayInputStream(member.toByteArray()))) {
            assertEquals(h, again.header(), "header after builder and encode()");
            assertEquals(h.hashCode(), again.header().hashCode());
            assertEquals(-1, again.read());
        } catch (ZipException | EOFException e) {
            // An SL or BC subfield claims the member's length (and SL its size), which the empty member put after
            // the header does not have: refusing it (a claim too small or impossible, or sizes that differ) or
            // finding it cut short (a claim too large) is the decoder's job. Any other header must decode.
            if (!claimsSizes(h.extra().orElse(null))) {
                throw new AssertionError("the re-encoded header of " + h + " was refused", e);
            }
        } catch (IOException e) {
            throw new AssertionError("the re-encoded header of " + h + " failed", e);
        }
    }

    /** True if a decoder checks the member against size claims in this FEXTRA payload (GzipMembers' rule). */
    private static boolean claimsSizes(byte[] extra) {
        try {
            return extra != null && GzipMembers.member(0, 0, extra) != null;
        } catch (ZipException impossible) {
            return true; // claims that no member can meet
        }
    }
}
