package dev.sluice.text;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.file.FastFiles;
import dev.sluice.testing.HostileInputStream;
import dev.sluice.file.FastFiles;
import dev.sluice.testing.HostileInputStream.Mode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The style guide's bad-input table for FastReader and FastFiles' text entry points, and their round trips. */
class TextBadInputTest {

    @Test
    void nullArgumentsNameTheParameter() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> FastReader.of((InputStream) null, UTF_8));
        assertEquals("in == null", e.getMessage());
        assertThrows(NullPointerException.class, () -> FastReader.of((ReadableByteChannel) null, UTF_8));
        e = assertThrows(NullPointerException.class, () -> FastReader.builder(null));
        assertEquals("charset == null", e.getMessage());
        assertThrows(NullPointerException.class, () -> FastFiles.newReader(null, UTF_8));
        assertThrows(NullPointerException.class, () -> FastFiles.newReader(Path.of("x"), null));
        assertThrows(NullPointerException.class, () -> FastFiles.newWriter(Path.of("x"), UTF_8, (StandardOpenOption) null));
    }

    @Test
    void badRangesAndValues() throws IOException {
        FastReader r = FastReader.of(new ByteArrayInputStream(new byte[10]), UTF_8);
        assertThrows(IndexOutOfBoundsException.class, () -> r.read(new char[4], 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> r.read(new char[4], -1, 1));
        assertThrows(NullPointerException.class, () -> r.read(null, 0, 1));
        assertEquals(0, r.read(new char[4], 4, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.skip(-1));
        assertEquals("n < 0: -1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FastReader.builder(UTF_8).bufferSize(0));
        assertEquals("bufferSize <= 0: 0", e.getMessage());
        assertThrows(NullPointerException.class, () -> r.forEachLine(null));
        assertFalse(r.markSupported());
        assertThrows(IOException.class, () -> r.mark(1));
    }

    @Test
    void closedReaderThrowsStreamClosedAndClosesItsSourceOnce() throws IOException {
        HostileInputStream in = HostileInputStream.of("abc\ndef".getBytes(UTF_8), Mode.FULL, 0);
        FastReader r = FastReader.of(in, UTF_8);
        assertEquals("abc", r.readLine());
        assertTrue(r.ready());
        r.close();
        r.close();
        assertEquals(1, in.closeCount());
        for (ThrowingRunnable op : List.<ThrowingRunnable>of(r::read, () -> r.read(new char[2], 0, 2), r::readLine,
                () -> r.skip(1), r::ready, () -> r.forEachLine(l -> { }))) {
            IOException e = assertThrows(IOException.class, op::run);
            assertEquals("Stream closed", e.getMessage());
        }
    }

    @Test
    void aStreamThatReturnsZeroBytesIsAnErrorAsInInputStreamReader() {
        InputStream zero = new InputStream() {
            @Override
            public int read() {
                return 0;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return 0;
            }
        };
        IOException e = assertThrows(IOException.class, () -> FastReader.of(zero, UTF_8).read());
        assertEquals("Underlying input stream returned zero bytes", e.getMessage());
    }

    @Test
    void sourceFailuresPropagate() {
        byte[] bytes = "x".repeat(1000).getBytes(UTF_8);
        FastReader r = FastReader.builder(UTF_8).bufferSize(64).build(new HostileInputStream(bytes, Mode.FULL, 0, false, 100));
        assertThrows(HostileInputStream.InjectedIOException.class, () -> TextSamples.readAll(r, 50));
    }

    @Test
    void textFilesRoundTripAndMatchTheJdk(@TempDir Path dir) throws IOException {
        String text = TextSamples.randomText(new java.util.Random(7), 20000, false);
        Path p = dir.resolve("t.txt");
        try (FastWriter w = FastFiles.newWriter(p, UTF_8)) {
            w.write(text);
        }
        assertEquals(text, Files.readString(p));
        try (FastReader r = FastFiles.newReader(p, UTF_8)) {
            assertEquals(text, TextSamples.readAll(r, 1000));
        }
        List<String> expected = Files.readAllLines(p);
        try (Stream<String> lines = FastFiles.lines(p, UTF_8)) {
            assertEquals(expected, lines.collect(Collectors.toList()));
        }
        List<String> got = new ArrayList<>();
        assertEquals(expected.size(), FastFiles.forEachLine(p, UTF_8, l -> got.add(l.toString())));
        assertEquals(expected, got);
        // Appending, and a small file read with a buffer sized to it.
        try (FastWriter w = FastFiles.newWriter(p, StandardCharsets.ISO_8859_1, StandardOpenOption.APPEND)) {
            w.write("\u00e9!");
        }
        try (Reader jdk = new InputStreamReader(Files.newInputStream(p), UTF_8);
             FastReader r = FastFiles.newReader(p, UTF_8)) {
            assertEquals(TextSamples.readAll(jdk, 100), TextSamples.readAll(r, 100));
        }
        Path small = Files.writeString(dir.resolve("small"), "hi\n");
        try (FastReader r = FastFiles.newReader(small, UTF_8)) {
            assertEquals("hi", r.readLine());
            assertEquals(null, r.readLine());
        }
    }

    @Test
    void textFilesBadPathsAndOptions(@TempDir Path dir) {
        assertThrows(NoSuchFileException.class, () -> FastFiles.newReader(dir.resolve("missing"), UTF_8));
        assertThrows(NoSuchFileException.class, () -> FastFiles.lines(dir.resolve("missing"), UTF_8));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FastFiles.newWriter(dir.resolve("w"), UTF_8, StandardOpenOption.READ));
        assertEquals("READ not allowed", e.getMessage());
        assertThrows(IOException.class, () -> {
            try (FastReader r = FastFiles.newReader(dir, UTF_8)) {
                r.read();
            }
        });
    }

    interface ThrowingRunnable {
        Object run() throws IOException;
    }
}
