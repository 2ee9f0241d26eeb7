package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * How many chunks the speculative decoder holds at once ({@link SpeculativeReader#ahead}) and when {@code auto} may
 * speculate at all ({@link SpeculativeReader#fits}): one per worker and one for the walk, fewer in a small heap,
 * never fewer than two; no speculation where the heap cannot hold two.
 */
class SpeculativeAheadTest {
    private static final int CHUNK = 4 << 20;
    private static final long MB = 1L << 20;

    @Test
    void oneChunkPerWorkerAndOneForTheWalk() {
        assertEquals(3, SpeculativeReader.ahead(2, CHUNK, 6000 * MB));
        assertEquals(17, SpeculativeReader.ahead(16, CHUNK, 32_000 * MB));
        assertEquals(2, SpeculativeReader.ahead(1, CHUNK, 32_000 * MB));
    }

    @Test
    void aSmallHeapHoldsFewerChunks() {
        // Half the heap at 44 bytes per compressed byte of chunk: 185 MB a chunk at 4 MiB.
        assertEquals(3, SpeculativeReader.ahead(16, CHUNK, 1400 * MB));
        assertEquals(2, SpeculativeReader.ahead(16, CHUNK, 600 * MB));
        assertEquals(2, SpeculativeReader.ahead(16, CHUNK, 1 * MB));
        // Small chunks (tests, -Dsluice.gzip.speculativeChunk) are held one per worker whatever the heap.
        assertEquals(9, SpeculativeReader.ahead(8, 4096, 64 * MB));
    }

    @Test
    void autoSpeculatesOnlyWhereTwoChunksFit() {
        assertFalse(SpeculativeReader.fits(CHUNK, 600 * MB));
        assertTrue(SpeculativeReader.fits(CHUNK, 800 * MB));
        assertTrue(SpeculativeReader.fits(4096, 64 * MB));
        assertFalse(SpeculativeReader.fits(Integer.MAX_VALUE, 6000 * MB));
    }
}
