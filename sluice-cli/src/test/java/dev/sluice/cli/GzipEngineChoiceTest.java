package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.gzip.GzipEngines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link GzipOptions#zlibForSmallInputs}: zlib for small regular files only, never against the user's choice. */
class GzipEngineChoiceTest {
    @TempDir
    Path dir;

    @AfterEach
    void noPropertyLeftBehind() {
        assertNull(System.getProperty(GzipEngines.PROPERTY), "a run left " + GzipEngines.PROPERTY + " set");
    }

    private GzipOptions options(Path... files) {
        GzipOptions o = new GzipOptions();
        for (Path f : files) {
            o.files.add(f.toString());
        }
        return o;
    }

    private Path file(String name, long size) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, new byte[(int) size]);
        return p;
    }

    @Test
    void smallRegularFilesTakeZlibForTheRunOnly() throws IOException {
        GzipOptions o = options(file("a", 10), file("b", SizePolicy.GZIP_ZLIB_BELOW - 11));
        boolean set = o.zlibForSmallInputs();
        try {
            assertTrue(set);
            assertEquals("off", System.getProperty(GzipEngines.PROPERTY));
        } finally {
            GzipOptions.restoreEngines(set);
        }
    }

    @Test
    void inputsTogetherAtTheThresholdKeepTheNativeEngines() throws IOException {
        GzipOptions o = options(file("a", 10), file("b", SizePolicy.GZIP_ZLIB_BELOW - 10));
        assertFalse(o.zlibForSmallInputs());
    }

    @Test
    void standardInputMissingFilesAndDirectoriesKeepTheNativeEngines() throws IOException {
        Path small = file("a", 10);
        assertFalse(new GzipOptions().zlibForSmallInputs(), "no FILE: standard input, of unknown length");
        GzipOptions stdin = options(small);
        stdin.files.add("-");
        assertFalse(stdin.zlibForSmallInputs());
        assertFalse(options(small, dir.resolve("missing")).zlibForSmallInputs());
        assertFalse(options(small, dir).zlibForSmallInputs());
    }

    @Test
    void theUsersChoiceWins() throws IOException {
        System.setProperty(GzipEngines.PROPERTY, "auto");
        try {
            assertFalse(options(file("a", 10)).zlibForSmallInputs());
            assertEquals("auto", System.getProperty(GzipEngines.PROPERTY));
        } finally {
            System.clearProperty(GzipEngines.PROPERTY);
        }
    }

    @Test
    void aCommandRunOnASmallFileLeavesTheEngineChoiceAsItFoundIt() throws IOException {
        Path f = file("t", 1000);
        assertEquals(0, Main.run(new String[] {"gzip", "-k", f.toString()}));
        assertEquals(0, Main.run(new String[] {"gunzip", "-t", f + ".gz"}));
    }
}
