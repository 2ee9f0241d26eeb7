package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.gzip.ParallelGzipOutputStream.Format;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link ChunkSource} contract, in the style of Okio's source factories: every decoding strategy reads the same
 * inputs (good, corrupt, truncated, lying about their sizes, with trailing zeros or garbage, with incomplete or
 * over-subscribed Huffman codes; plain, Sluice's SL and BGZF members, and mixtures that make a strategy hand the
 * input back to the framing) and must give the one-thread path's bytes, or its exception type after at most the
 * bytes it returned before throwing, in two read styles. A new strategy joins with one line in {@link #strategies}.
 */
@Timeout(120)
class ChunkSourceContractTest {

    /** A way of decoding: how it sets up the builder, and whether it needs the input's own index. */
    record Strategy(String name, boolean indexed, UnaryOperator<GzipInputStream.Builder> setUp) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Strategy> strategies() {
        return List.of(
                new Strategy("members, 3 threads", false, b -> b.threads(3).strategy("auto")),
                new Strategy("index pieces, 2 threads", true, b -> b.threads(2).pieceSize(1 + 40_000)),
                new Strategy("index pieces, 3 threads, 1-byte pieces", true, b -> b.threads(3).pieceSize(1)),
                new Strategy("index pieces, 2 threads, no prefetch", true,
                        b -> b.threads(2).pieceSize(1 + 40_000).prefetch(false)),
                new Strategy("speculative, 3 threads, 4 KiB chunks", false,
                        b -> b.threads(3).strategy("speculative").speculativeChunk(4096)));
    }

    /** An input and its name. */
    record Input(String name, byte[] gz) {}

    private static final long SEED = Long.getLong("sluice.test.seed", System.nanoTime());

    static List<Input> inputs() throws IOException {
        System.out.println("ChunkSourceContractTest seed " + SEED);
        Random r = new Random(SEED);
        byte[] data = TestData.mixed(r, 200_000 + r.nextInt(100_000));
        byte[] sl = independent(Format.INDEPENDENT_MEMBERS, data);
        byte[] bgzf = independent(Format.BGZF, data);
        byte[] plain = TestData.member(GzipHeader.minimal(), data, 6);
        List<Input> in = new ArrayList<>();
        in.add(new Input("SL members", sl));
        in.add(new Input("BGZF members", bgzf));
        in.add(new Input("one plain member", plain));
        in.add(new Input("SL, plain, SL (hand-back and take-over)", cat(sl, plain, sl)));
        in.add(new Input("plain then SL", cat(plain, sl)));
        in.add(new Input("SL then trailing zeros", cat(sl, new byte[1000])));
        in.add(new Input("SL then garbage", cat(sl, new byte[] {0, 0, 7, 1, 2})));
        in.add(new Input("SL then a lone 0x1f", cat(sl, new byte[] {0x1f})));
        in.add(new Input("SL then a cut header", cat(sl, new byte[] {0x1f, (byte) 0x8b, 8, 0, 0})));
        in.add(new Input("plain then garbage", cat(plain, new byte[] {9})));
        // Extra fields that are not lists of subfields (a subfield's head, or its data, runs past XLEN): a decoder
        // passes over them (RFC 1952), first member or later, though an index builder refuses them.
        for (byte[] extra : List.of(new byte[] {'a', 'b'}, new byte[] {'x', 'y', 2, 0x43, 5, 6})) {
            byte[] odd = TestData.member(GzipHeader.builder().extra(extra).build(), data, 6);
            String what = "extra field of " + extra.length + " bytes, not subfields";
            in.add(new Input(what, odd));
            in.add(new Input("SL, " + what + ", SL", cat(sl, odd, sl)));
            in.add(new Input("plain, " + what, cat(plain, odd)));
        }
        for (byte[] gz : List.of(sl, bgzf, plain)) {
            String kind = gz == sl ? "SL" : gz == bgzf ? "BGZF" : "plain";
            for (int i = 0; i < 4; i++) {
                int cut = i == 0 ? 5 : i == 1 ? gz.length - 3 : r.nextInt(gz.length);
                in.add(new Input(kind + " cut at " + cut, Arrays.copyOf(gz, cut)));
            }
            for (int i = 0; i < 4; i++) {
                byte[] c = gz.clone();
                int at = i == 0 ? gz.length - 6 : r.nextInt(gz.length);
                c[at] ^= (byte) (1 << r.nextInt(8));
                in.add(new Input(kind + " bit flipped at " + at, c));
            }
        }
        // Size subfields that lie: SL's member length and uncompressed size, BGZF's BSIZE, by one either way.
        int slAt = subfield(sl, 'S', 'L');
        for (int d : new int[] {-1, 1}) {
            in.add(new Input("SL length " + d, withLe(sl, slAt, 8, le(sl, slAt, 8) + d)));
            in.add(new Input("SL size " + d, withLe(sl, slAt + 8, 8, le(sl, slAt + 8, 8) + d)));
            int bc = subfield(bgzf, 'B', 'C');
            in.add(new Input("BC " + d, withLe(bgzf, bc, 2, le(bgzf, bc, 2) + d)));
        }
        // Huffman-code verdicts, as plain, SL and BGZF members and inside a run of SL members.
        for (HuffmanCodeVerdictsTest.Kind k : HuffmanCodeVerdictsTest.kinds()) {
            byte[] deflate = HuffmanCodeVerdictsTest.deflate(k);
            for (String layout : List.of("plain", "sl", "bgzf")) {
                in.add(new Input(k + " (" + layout + ")", HuffmanCodeVerdictsTest.member(deflate, layout)));
            }
            in.add(new Input(k + " (between SL members)",
                    cat(sl, HuffmanCodeVerdictsTest.member(deflate, "sl"), sl)));
        }
        return in;
    }

    static List<Object[]> cases() throws IOException {
        List<Object[]> c = new ArrayList<>();
        List<Input> inputs = inputs();
        for (Strategy s : strategies()) {
            for (Input i : inputs) {
                c.add(new Object[] {s, i});
            }
        }
        return c;
    }

    /** The one-thread path's outcomes, by input, policy and style: computed once for every strategy. */
    private static final java.util.Map<String, Outcome> ONE_THREAD = new java.util.concurrent.ConcurrentHashMap<>();

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void givesTheOneThreadPathsBytesOrItsException(Strategy strategy, Input input) throws IOException {
        GzipIndex index = null;
        if (strategy.indexed()) {
            Path f = Files.write(tmp.resolve("in.gz"), input.gz());
            try {
                index = GzipIndex.build(f, 30_000);
            } catch (IOException notIndexable) {
                return; // the index builder decodes the input and refused it: no index, no pieces to compare
            }
        }
        for (boolean ignore : new boolean[] {false, true}) {
            for (int style : new int[] {0, 1}) {
                Outcome want = ONE_THREAD.computeIfAbsent(input.name() + "/" + ignore + "/" + style,
                        k -> read(GzipInputStream.builder().threads(1), input.gz(), ignore, style));
                GzipInputStream.Builder b = strategy.setUp().apply(GzipInputStream.builder());
                if (index != null) {
                    b.index(index);
                }
                Outcome got = read(b, input.gz(), ignore, style);
                String what = strategy + ", " + input.name() + ", ignoreTrailingGarbage " + ignore + ", style " + style
                        + ", seed " + SEED;
                assertEquals(want.failure, got.failure, what);
                if (want.failure == null) {
                    assertArrayEquals(want.bytes, got.bytes, what);
                    assertEquals(want.garbage, got.garbage, what);
                } else {
                    // Before an exception each path returns the corrupt input's decode as far as it got: the
                    // one-thread path drops what its failing engine call decoded, a strategy that decodes in smaller
                    // steps (the speculative one, from its last block boundary) may return more of it. So: the same
                    // bytes where both returned some, and any beyond the one-thread path's are what a byte-at-a-time
                    // inflater decodes before the error (never a byte that no decoder would give).
                    int common = Math.min(got.bytes.length, want.bytes.length);
                    assertArrayEquals(Arrays.copyOf(want.bytes, common), Arrays.copyOf(got.bytes, common), what);
                    if (got.bytes.length > want.bytes.length) {
                        byte[] most = byteAtATime(input.gz());
                        assertTrue(got.bytes.length <= most.length, what + ": more than the input decodes to");
                        assertArrayEquals(Arrays.copyOf(most, got.bytes.length), got.bytes, what);
                    }
                }
            }
        }
    }

    /** The JDK's GZIPInputStream read one byte at a time until it ends or fails: every byte zlib decodes first. */
    private static byte[] byteAtATime(byte[] gz) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new ByteArrayInputStream(gz), 1)) {
            for (int b; (b = in.read()) >= 0; ) {
                out.write(b);
            }
        } catch (IOException expected) {
            // the corrupt input's error: what came before it is the answer
        }
        return out.toByteArray();
    }

    /** What a read gave: the bytes, and the exception's class (or null) and the trailing-garbage verdict. */
    record Outcome(byte[] bytes, String failure, boolean garbage) {}

    private static Outcome read(GzipInputStream.Builder b, byte[] gz, boolean ignore, int style) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GzipInputStream in = b.ignoreTrailingGarbage(ignore).build(new ByteArrayInputStream(gz));
        try (in) {
            if (style == 0) {
                in.transferTo(out);
            } else {
                byte[] buf = new byte[777];
                for (int n; (n = in.read(buf)) >= 0; ) {
                    out.write(buf, 0, n);
                }
            }
            return new Outcome(out.toByteArray(), null, in.trailingGarbageIgnored());
        } catch (IOException e) {
            return new Outcome(out.toByteArray(), e.getClass().getName(), false);
        }
    }

    private static byte[] independent(Format format, byte[] data) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        ParallelGzipOutputStream.Builder builder = ParallelGzipOutputStream.builder().format(format).threads(2);
        if (format == Format.INDEPENDENT_MEMBERS) {
            builder.blockSize(64 * 1024);
        }
        try (ParallelGzipOutputStream out = builder.build(b)) {
            out.write(data);
        }
        return b.toByteArray();
    }

    private static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }

    /** Offset of the data of the first subfield {@code si1 si2} in the first member's header. */
    private static int subfield(byte[] gz, char si1, char si2) {
        int xlen = (gz[10] & 0xff) | (gz[11] & 0xff) << 8;
        for (int i = 12; i + 4 <= 12 + xlen; ) {
            int len = (gz[i + 2] & 0xff) | (gz[i + 3] & 0xff) << 8;
            if (gz[i] == si1 && gz[i + 1] == si2) {
                return i + 4;
            }
            i += 4 + len;
        }
        throw new AssertionError("no " + si1 + si2 + " subfield");
    }

    private static long le(byte[] b, int at, int n) {
        return GzipMembers.le(b, at, n);
    }

    private static byte[] withLe(byte[] b, int at, int n, long v) {
        byte[] c = b.clone();
        GzipMembers.putLe(c, at, v, n);
        return c;
    }
}
