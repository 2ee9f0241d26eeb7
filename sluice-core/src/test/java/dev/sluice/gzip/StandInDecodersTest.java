package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The workers' stand-in decoders ({@link ParallelInflate}): while the native engine binds, a member or index piece may
 * be decoded by the JDK's zlib instead. The bytes are the same whichever engine decodes them, but one verdict is not:
 * zlib refuses an incomplete Huffman code that ISA-L decodes when the data never uses a missing codeword
 * ({@link HuffmanCodeVerdictsTest}). Each case here is decoded once with every task forced onto a stand-in and once on
 * the engine the policy chose, and must get the chosen engine's outcome both times: bytes, exception type and message.
 * On a JVM whose chosen engine is zlib both runs are zlib's; on ISA-L the stand-in's own refusal must not surface.
 */
@Timeout(60)
class StandInDecodersTest {

    private static final HuffmanCodeVerdictsTest.Kind INCOMPLETE = kind("incomplete literal/length code");
    private static final HuffmanCodeVerdictsTest.Kind MISSING_USED =
            kind("incomplete literal/length code, its missing codeword used");
    private static final HuffmanCodeVerdictsTest.Kind COMPLETE = kind("complete codes");

    private static HuffmanCodeVerdictsTest.Kind kind(String name) {
        for (HuffmanCodeVerdictsTest.Kind k : HuffmanCodeVerdictsTest.kinds()) {
            if (k.name().equals(name)) {
                return k;
            }
        }
        throw new AssertionError("no kind " + name);
    }

    private static boolean chosenIsNative() {
        InflateEngine e = GzipEngines.inflater(); // also finishes the binding, so that standIns(0) gets the chosen one
        try {
            return !(e instanceof JdkInflateEngine);
        } finally {
            e.end();
        }
    }

    /** An SL member (header of 32 bytes) decoded by one worker task: "ok" with the data checked, or the exception. */
    private static String member(byte[] gz, int standIns) throws IOException {
        GzipMembers.Member m = GzipMembers.member(0, 32, Arrays.copyOfRange(gz, 12, 32));
        ParallelInflate workers = new ParallelInflate(2);
        try {
            workers.standIns(standIns);
            workers.submit(m, null, gz, 32, gz.length - 32, null);
            ParallelInflate.Decoded d = workers.take();
            byte[] out = new byte[d.len];
            d.out.get(0, out);
            assertArrayEquals(HuffmanCodeVerdictsTest.DATA, out, "an accepted member decodes to the data");
            return "ok";
        } catch (IOException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        } finally {
            workers.close();
        }
    }

    @Test
    void aMemberGetsTheChosenEnginesVerdictOnAStandIn() throws IOException {
        boolean isal = chosenIsNative();
        for (HuffmanCodeVerdictsTest.Kind k : new HuffmanCodeVerdictsTest.Kind[] {COMPLETE, INCOMPLETE,
                MISSING_USED}) {
            byte[] gz = HuffmanCodeVerdictsTest.member(HuffmanCodeVerdictsTest.deflate(k), "sl");
            String chosen = member(gz, 0);
            assertEquals(chosen, member(gz, 1), k + ": stand-in against the chosen engine");
            String expected = k == COMPLETE || k == INCOMPLETE && isal ? "ok" : "ZipException";
            assertTrue(chosen.startsWith(expected), k + ": " + chosen);
        }
    }

    /**
     * An index piece of two whole members (a complete one, then {@code second}), as the last piece of its file: the
     * stand-in decodes the first member, notes its segment and then fails on the second, where zlib and ISA-L differ;
     * the run on the chosen engine must start afresh (two segments, not three).
     */
    private static String piece(HuffmanCodeVerdictsTest.Kind second, int standIns) throws IOException {
        byte[] a = HuffmanCodeVerdictsTest.member(HuffmanCodeVerdictsTest.deflate(COMPLETE), "plain");
        byte[] b = HuffmanCodeVerdictsTest.member(HuffmanCodeVerdictsTest.deflate(second), "plain");
        int len = a.length - 10 + b.length; // from the first member's deflate data to the end of the file
        byte[] in = new byte[Piece.ROOM + len + BitStarts.MAX_SUFFIX];
        System.arraycopy(a, 10, in, Piece.ROOM, a.length - 10);
        System.arraycopy(b, 0, in, Piece.ROOM + a.length - 10, b.length);
        int n = HuffmanCodeVerdictsTest.DATA.length;
        Piece p = new Piece(10, in, len, 0, null, 0, 2L * n, false, 0, null, true, false);
        ParallelInflate workers = new ParallelInflate(2);
        try {
            workers.standIns(standIns);
            workers.submit(p, 2 * n + 1);
            ParallelInflate.Decoded d = workers.take();
            byte[] out = new byte[d.len];
            d.out.get(0, out);
            ByteArrayOutputStream twice = new ByteArrayOutputStream();
            twice.writeBytes(HuffmanCodeVerdictsTest.DATA);
            twice.writeBytes(HuffmanCodeVerdictsTest.DATA);
            assertArrayEquals(twice.toByteArray(), out, "an accepted piece decodes to the data twice");
            CRC32 crc = new CRC32();
            crc.update(HuffmanCodeVerdictsTest.DATA);
            assertEquals(2, p.segments.size(), "one segment per member");
            for (Piece.Segment s : p.segments) {
                assertTrue(s.ended, "both members end in the piece");
                assertEquals(n, s.length);
                assertEquals(crc.getValue(), s.crc);
            }
            return "ok";
        } catch (IOException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        } finally {
            workers.close();
        }
    }

    @Test
    void aPieceGetsTheChosenEnginesVerdictOnAStandIn() throws IOException {
        boolean isal = chosenIsNative();
        for (HuffmanCodeVerdictsTest.Kind k : new HuffmanCodeVerdictsTest.Kind[] {COMPLETE, INCOMPLETE,
                MISSING_USED}) {
            String chosen = piece(k, 0);
            assertEquals(chosen, piece(k, 1), k + ": stand-in against the chosen engine");
            String expected = k == COMPLETE || k == INCOMPLETE && isal ? "ok" : "ZipException";
            assertTrue(chosen.startsWith(expected), k + ": " + chosen);
        }
    }
}
