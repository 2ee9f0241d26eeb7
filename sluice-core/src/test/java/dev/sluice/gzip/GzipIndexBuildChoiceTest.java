package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which build {@link GzipIndex#build} takes where ISA-L is bound ({@link GzipIndex#engineBuild}): the engine build's
 * one-thread walk below {@link GzipIndex#ENGINE_BELOW_THREADS} processors, the speculative walk on every processor
 * from there, unless the file is too small for it or the heap too small for its chunks.
 */
class GzipIndexBuildChoiceTest {
    private static final long MB = 1L << 20;
    private static final long FILE = 1100 * MB;
    private static final long SPACING = GzipIndex.DEFAULT_SPACING;
    private static final long HEAP = 6000 * MB;

    @Test
    void fewProcessorsTakeTheEngineBuild() {
        assertTrue(GzipIndex.engineBuild(1, FILE, SPACING, HEAP));
        assertTrue(GzipIndex.engineBuild(2, FILE, SPACING, HEAP));
        assertTrue(GzipIndex.engineBuild(GzipIndex.ENGINE_BELOW_THREADS - 1, FILE, SPACING, HEAP));
    }

    @Test
    void manyProcessorsTakeTheSpeculativeWalk() {
        assertFalse(GzipIndex.engineBuild(GzipIndex.ENGINE_BELOW_THREADS, FILE, SPACING, HEAP));
        assertFalse(GzipIndex.engineBuild(16, FILE, SPACING, HEAP));
    }

    @Test
    void theWalkNeedsTwoChunksOfFileAndTheirHeap() {
        assertTrue(GzipIndex.engineBuild(16, 2L * SpeculativeReader.CHUNK - 1, SPACING, HEAP));
        assertFalse(GzipIndex.engineBuild(16, 2L * SpeculativeReader.CHUNK, SPACING, HEAP));
        assertTrue(GzipIndex.engineBuild(16, FILE, SPACING, 512 * MB));
    }

    @Test
    void smallSpacingsNeverTakeTheEngineBuild() {
        assertFalse(GzipIndex.engineBuild(2, FILE, GzipIndex.ENGINE_MIN_SPACING - 1, HEAP));
    }
}
