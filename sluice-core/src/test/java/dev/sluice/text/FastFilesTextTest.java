package dev.sluice.text;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.file.FastFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FastFiles' text entry points: round trips, APPEND, lines, and a missing file. */
class FastFilesTextTest {

    @Test
    void writeThenReadThroughFastFiles(@TempDir Path dir) throws IOException {
        Path p = dir.resolve("t.txt");
        try (FastWriter w = FastFiles.newWriter(p, UTF_8)) {
            w.write("caf\u00e9\r\n\u65e5\u672c\n\uD83D\uDE00");
        }
        try (FastWriter w = FastFiles.newWriter(p, UTF_8, StandardOpenOption.APPEND)) {
            w.write("!");
        }
        assertEquals("caf\u00e9\r\n\u65e5\u672c\n\uD83D\uDE00!", Files.readString(p));
        try (FastReader r = FastFiles.newReader(p, UTF_8)) {
            assertEquals("caf\u00e9", r.readLine());
        }
        try (Stream<String> lines = FastFiles.lines(p, UTF_8)) {
            assertEquals(List.of("caf\u00e9", "\u65e5\u672c", "\uD83D\uDE00!"), lines.collect(Collectors.toList()));
        }
        assertThrows(NoSuchFileException.class, () -> FastFiles.newReader(dir.resolve("none"), UTF_8));
        assertThrows(NullPointerException.class, () -> FastFiles.lines(p, null));
    }

    /** A file whose size the kernel does not know (procfs says 0) is read whole. */
    @Test
    void aFileOfUnknownSizeIsReadWhole() throws IOException {
        Path p = Path.of("/proc/self/cmdline");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(p) && Files.size(p) == 0, "procfs");
        String expected = new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.ISO_8859_1);
        try (FastReader r = FastFiles.newReader(p, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            assertEquals(expected, TextSamples.readAll(r, 7));
        }
    }
}
