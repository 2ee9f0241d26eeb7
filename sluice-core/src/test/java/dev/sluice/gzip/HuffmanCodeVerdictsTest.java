package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.testing.HostileInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 23: deflate blocks whose Huffman codes are incomplete or over-subscribed, crafted as plain, SL and BGZF gzip
 * members and read on 1 and 2 threads in every read style, through zlib and through the engine this JVM selects
 * (ISA-L in the build's native run on JDK 22+). zlib's verdicts (inftrees.c) are the reference: an over-subscribed
 * code is refused, an incomplete one too unless it is a single code of length 1 or a distance code with no codes at
 * all. Every engine, thread count and read style must give zlib's verdict, exception type included, except where
 * {@link GzipInputStream}'s documented rule says otherwise: ISA-L accepts an incomplete code whose missing codewords
 * the data never uses (the rule, and what a check would cost, are in GzipInputStream's javadoc).
 */
@Timeout(120)
class HuffmanCodeVerdictsTest {

    static final byte[] DATA = "abacabadabacabaeabacabadabacabafghijklmno".repeat(20)
            .getBytes(StandardCharsets.US_ASCII);
    /** The literals the data uses: 'a'..'o', 15 symbols. */
    private static final int LITERALS = 15;
    private static final int[] CL_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

    /** One crafted block: its code lengths, and zlib's verdict on them. */
    record Kind(String name, int[] litLens, int[] distLens, int[] clLens, boolean zlibAccepts, boolean incomplete,
            boolean usesMissingCode) {
        Kind(String name, int[] litLens, int[] distLens, int[] clLens, boolean zlibAccepts, boolean incomplete) {
            this(name, litLens, distLens, clLens, zlibAccepts, incomplete, false);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Lit/len lengths: 'a'..'o' at {@code literal}, end-of-block at {@code eob}, {@code extra} more of 'p'.. at 4. */
    private static int[] lit(int literal, int eob, int extra) {
        int[] l = new int[257];
        for (int i = 0; i < LITERALS; i++) {
            l['a' + i] = literal;
        }
        for (int i = 0; i < extra; i++) {
            l['a' + LITERALS + i] = 4;
        }
        l[256] = eob;
        return l;
    }

    /** A code-length code of 4-bit codes for lengths {@code 0..count-1} (16 is complete). */
    private static int[] cl(int count) {
        int[] l = new int[19];
        for (int i = 0; i < count; i++) {
            l[i] = 4;
        }
        return l;
    }

    static List<Kind> kinds() {
        int[] complete = lit(4, 4, 0);
        List<Kind> k = new ArrayList<>();
        k.add(new Kind("complete codes", complete, new int[] {1, 1}, cl(16), true, false));
        k.add(new Kind("one distance code of length 1 (zlib allows)", complete, new int[] {1}, cl(16), true, false));
        k.add(new Kind("no distance codes (zlib allows)", complete, new int[] {0}, cl(16), true, false));
        k.add(new Kind("incomplete literal/length code", lit(4, 5, 0), new int[] {1, 1}, cl(16), false, true));
        // The one codeword that code lacks (11111) in the data: refused by every engine.
        k.add(new Kind("incomplete literal/length code, its missing codeword used", lit(4, 5, 0), new int[] {1, 1},
                cl(16), false, false, true));
        k.add(new Kind("incomplete distance code", complete, new int[] {1, 2}, cl(16), false, true));
        k.add(new Kind("incomplete code-length code", complete, new int[] {1, 1}, cl(15), false, true));
        k.add(new Kind("over-subscribed literal/length code", lit(4, 4, 1), new int[] {1, 1}, cl(16), false, false));
        k.add(new Kind("over-subscribed distance code", complete, new int[] {1, 1, 1}, cl(16), false, false));
        int[] overCl = cl(16);
        overCl[16] = 4;
        k.add(new Kind("over-subscribed code-length code", complete, new int[] {1, 1}, overCl, false, false));
        return k;
    }

    /** LSB-first bit writer, as deflate packs bits. */
    private static final class Bits {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        int acc;
        int n;

        void put(int value, int count) {
            for (int i = 0; i < count; i++) {
                acc |= ((value >>> i) & 1) << n;
                if (++n == 8) {
                    out.write(acc);
                    acc = 0;
                    n = 0;
                }
            }
        }

        /** A Huffman code, most significant bit first. */
        void code(int code, int len) {
            for (int i = len - 1; i >= 0; i--) {
                put(code >>> i, 1);
            }
        }

        byte[] bytes() {
            if (n > 0) {
                out.write(acc);
            }
            return out.toByteArray();
        }
    }

    /** Canonical codes for {@code lens} (RFC 1951 3.2.2); well defined for incomplete codes too. */
    private static int[] codes(int[] lens) {
        int[] count = new int[16];
        for (int l : lens) {
            count[l]++;
        }
        count[0] = 0;
        int[] next = new int[16];
        for (int bits = 1, code = 0; bits < 16; bits++) {
            code = (code + count[bits - 1]) << 1;
            next[bits] = code;
        }
        int[] c = new int[lens.length];
        for (int i = 0; i < lens.length; i++) {
            if (lens[i] > 0) {
                c[i] = next[lens[i]]++;
            }
        }
        return c;
    }

    /** One final dynamic block with the kind's code lengths, holding {@link #DATA} as literals. */
    static byte[] deflate(Kind kind) {
        Bits b = new Bits();
        b.put(1, 1);
        b.put(2, 2);
        b.put(kind.litLens.length - 257, 5);
        b.put(kind.distLens.length - 1, 5);
        b.put(19 - 4, 4);
        for (int sym : CL_ORDER) {
            b.put(kind.clLens[sym], 3);
        }
        int[] clCodes = codes(kind.clLens);
        int[] all = new int[kind.litLens.length + kind.distLens.length];
        System.arraycopy(kind.litLens, 0, all, 0, kind.litLens.length);
        System.arraycopy(kind.distLens, 0, all, kind.litLens.length, kind.distLens.length);
        for (int len : all) {
            b.code(clCodes[len], kind.clLens[len]);
        }
        int[] litCodes = codes(kind.litLens);
        for (byte x : DATA) {
            b.code(litCodes[x], kind.litLens[x]);
        }
        if (kind.usesMissingCode) {
            b.code(0b11111, 5);
        }
        b.code(litCodes[256], kind.litLens[256]);
        return b.bytes();
    }

    private static void le(ByteArrayOutputStream out, long v, int n) {
        for (int i = 0; i < n; i++) {
            out.write((int) (v >>> (8 * i)));
        }
    }

    /** A gzip member around {@code deflate}: plain, or with BGZF's BC or Sluice's SL subfield. */
    static byte[] member(byte[] deflate, String layout) {
        int headerLen = layout.equals("plain") ? 10 : layout.equals("bgzf") ? 18 : 32;
        long total = headerLen + deflate.length + 8;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x1f);
        out.write(0x8b);
        out.write(8);
        out.write(layout.equals("plain") ? 0 : 4);
        le(out, 0, 4);
        out.write(0);
        out.write(255);
        if (layout.equals("bgzf")) {
            le(out, 6, 2);
            out.writeBytes(new byte[] {'B', 'C', 2, 0});
            le(out, total - 1, 2);
        } else if (layout.equals("sl")) {
            le(out, 20, 2);
            out.writeBytes(new byte[] {'S', 'L', 16, 0});
            le(out, total, 8);
            le(out, DATA.length, 8);
        }
        out.writeBytes(deflate);
        CRC32 crc = new CRC32();
        crc.update(DATA);
        le(out, crc.getValue(), 4);
        le(out, DATA.length, 4);
        if (layout.equals("bgzf")) {
            out.writeBytes(GzipMembers.BGZF_EOF);
        }
        return out.toByteArray();
    }

    /** "ok" (the bytes checked) or the exception's class name. */
    static String outcome(byte[] gz, boolean zlib, int threads, int style) {
        InputStream source = style == 3 ? HostileInputStream.of(gz, HostileInputStream.Mode.ONE_BYTE, 1)
                : new ByteArrayInputStream(gz);
        InflateEngine engine = zlib ? new JdkInflateEngine() : GzipEngines.inflater();
        try (GzipInputStream in = new GzipInputStream(source, GzipInputStream.DEFAULT_BUFFER_SIZE, false,
                Long.MAX_VALUE, engine, threads)) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            if (style == 0) {
                for (int c; (c = in.read()) >= 0; ) {
                    b.write(c);
                }
            } else if (style == 1) {
                in.transferTo(b);
            } else {
                byte[] buf = new byte[777];
                for (int n; (n = in.read(buf)) >= 0; ) {
                    b.write(buf, 0, n);
                }
            }
            assertArrayEquals(DATA, b.toByteArray(), "an accepted stream decodes to the data");
            return "ok";
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
    }

    /** The JDK's own Inflater is zlib: the crafted blocks get the verdicts the kinds claim. */
    @Test
    void theCraftedBlocksGetZlibsVerdicts() {
        for (Kind kind : kinds()) {
            java.util.zip.Inflater inf = new java.util.zip.Inflater(true);
            byte[] deflate = deflate(kind);
            inf.setInput(Arrays.copyOf(deflate, deflate.length + 1));
            byte[] out = new byte[DATA.length + 1];
            String verdict;
            try {
                int n = inf.inflate(out);
                verdict = inf.finished() && n == DATA.length ? "ok" : "unfinished " + n;
            } catch (java.util.zip.DataFormatException e) {
                verdict = "refused: " + e.getMessage();
            } finally {
                inf.end();
            }
            assertEquals(kind.zlibAccepts, verdict.equals("ok"), kind + ": " + verdict);
        }
    }

    @Test
    void everyEngineThreadCountAndReadStyleGivesTheRulesVerdict() {
        InflateEngine probe = GzipEngines.inflater();
        boolean isal = probe.getClass().getSimpleName().startsWith("Isal");
        probe.end();
        for (Kind kind : kinds()) {
            byte[] deflate = deflate(kind);
            for (String layout : new String[] {"plain", "sl", "bgzf"}) {
                byte[] gz = member(deflate, layout);
                String zlibVerdict = kind.zlibAccepts ? "ok" : "ZipException";
                for (boolean zlib : new boolean[] {true, false}) {
                    for (int threads = 1; threads <= 2; threads++) {
                        // Two threads decode SL and BGZF members on workers, which use the JVM's engine.
                        boolean usesIsal = isal && (!zlib || threads > 1 && !layout.equals("plain"));
                        String expected = usesIsal && kind.incomplete ? "ok" : zlibVerdict;
                        for (int style = 0; style < 4; style++) {
                            assertEquals(expected, outcome(gz, zlib, threads, style), kind + ", " + layout + ", "
                                    + (zlib ? "zlib" : "default engine") + ", " + threads + " thread(s), style "
                                    + style);
                        }
                    }
                }
            }
        }
    }
}
