package dev.sluice.text;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sluice.testing.HostileInputStream;
import dev.sluice.testing.HostileInputStream.Mode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.Charset;
import java.nio.charset.MalformedInputException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * FastReader on arbitrary bytes in each charset it decodes by hand (UTF-8, ISO-8859-1, US-ASCII), against the JDK's
 * decoder. Replacement mode (the default) must give exactly the chars of {@code InputStreamReader}, read with a
 * fuzzed read size or line by line ({@code BufferedReader.readLine} over the JDK's chars). Strict mode must give the
 * chars before the JDK decoder's first error and then a {@link MalformedTextException} with the JDK's input length
 * at that byte offset, or, where the JDK finds no error, all chars. Buffer size, BOM skipping and the source's short
 * reads are fuzzed too.
 */
class FastReaderFuzzTest {
    private static final Charset[] CHARSETS = {UTF_8, ISO_8859_1, US_ASCII};
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    @FuzzTest(maxDuration = "5m")
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void fuzz(FuzzedDataProvider data) throws IOException {
        Charset cs = CHARSETS[data.consumeInt(0, CHARSETS.length - 1)];
        boolean strict = data.consumeBoolean();
        boolean skipBom = data.consumeBoolean();
        boolean lines = data.consumeBoolean();
        int bufferSize = data.consumeBoolean() ? data.consumeInt(1, 64) : data.consumeInt(1, 20_000);
        int chunk = data.consumeBoolean() ? data.consumeInt(1, 8) : data.consumeInt(1, 9000);
        Mode mode = Mode.values()[data.consumeInt(0, Mode.values().length - 1)];
        long seed = data.consumeLong();
        byte[] bytes = data.consumeRemainingAsBytes();

        // What the JDK sees: a skipped BOM is simply not there (it still counts for strict mode's offsets).
        int bomLength = skipBom && cs == UTF_8 && startsWithBom(bytes) ? BOM.length : 0;
        byte[] jdkBytes = Arrays.copyOfRange(bytes, bomLength, bytes.length);
        String what = cs + (strict ? " strict" : "") + (skipBom ? " skipBom" : "") + ", buffer " + bufferSize
                + ", chunk " + chunk + ", " + mode + (lines ? ", lines" : "") + ", " + bytes.length + " bytes";

        FastReader.Builder b = FastReader.builder(cs).bufferSize(bufferSize);
        if (strict) {
            b.strict();
        }
        if (skipBom) {
            b.skipBom();
        }
        try (FastReader r = b.build(HostileInputStream.of(bytes, mode, seed))) {
            if (!strict) {
                String expected = TextSamples.jdkDecode(jdkBytes, cs);
                if (lines) {
                    assertEquals(jdkLines(expected), ourLines(r), what);
                } else {
                    assertEquals(expected, TextSamples.readAll(r, chunk), what);
                }
                return;
            }
            int[] error = TextSamples.jdkFirstError(jdkBytes, cs); // {byte offset, length, chars before}
            StringBuilder got = new StringBuilder();
            IOException thrown = null;
            try {
                TextSamples.readAll(new PartialReader(r, got), chunk);
            } catch (IOException e) {
                thrown = e;
            }
            if (error == null) {
                if (thrown != null) {
                    throw new AssertionError(what + ": the JDK finds no error, ours threw " + thrown, thrown);
                }
                assertEquals(TextSamples.jdkDecode(jdkBytes, cs), got.toString(), what);
                return;
            }
            if (thrown == null) {
                fail(what + ": the JDK reports malformed input at byte " + error[0] + ", ours threw nothing");
            }
            MalformedTextException m = assertInstanceOf(MalformedTextException.class, thrown, what);
            assertEquals(error[1], m.getInputLength(), what + " input length");
            assertEquals(error[0] + bomLength, m.getByteOffset(), what + " byte offset");
            assertEquals(TextSamples.jdkDecode(Arrays.copyOf(jdkBytes, error[0]), cs), got.toString(),
                    what + " chars before the error");
            assertInstanceOf(MalformedInputException.class, m);
        }
    }

    private static boolean startsWithBom(byte[] b) {
        return b.length >= 3 && b[0] == BOM[0] && b[1] == BOM[1] && b[2] == BOM[2];
    }

    private static List<String> jdkLines(String text) throws IOException {
        List<String> lines = new ArrayList<>();
        BufferedReader r = new BufferedReader(new StringReader(text));
        for (String line; (line = r.readLine()) != null; ) {
            lines.add(line);
        }
        return lines;
    }

    private static List<String> ourLines(FastReader r) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line; (line = r.readLine()) != null; ) {
            lines.add(line);
        }
        return lines;
    }

    /** Passes reads through and keeps what they returned, so the chars before a strict-mode exception are known. */
    private static final class PartialReader extends java.io.Reader {
        private final FastReader in;
        private final StringBuilder seen;

        PartialReader(FastReader in, StringBuilder seen) {
            this.in = in;
            this.seen = seen;
        }

        @Override
        public int read(char[] cbuf, int off, int len) throws IOException {
            int n = in.read(cbuf, off, len);
            if (n > 0) {
                seen.append(cbuf, off, n);
            }
            return n;
        }

        @Override
        public void close() {}
    }
}
