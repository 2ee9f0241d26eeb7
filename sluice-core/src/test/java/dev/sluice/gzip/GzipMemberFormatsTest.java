package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.gzip.ParallelGzipOutputStream.Format;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The three layouts of ParallelGzipOutputStream: their structure, and every real reader reading them. */
@Timeout(120)
class GzipMemberFormatsTest {
    private static final int BLOCK = 64 * 1024;

    @TempDir
    Path tmp;

    /** Compresses {@code data}, in random pieces with flushes (which end members early) if {@code seed != 0}. */
    static byte[] write(Format format, byte[] data, GzipHeader header, long seed) throws IOException {
        ParallelGzipOutputStream.Builder b = ParallelGzipOutputStream.builder().format(format).threads(2)
                .blockSize(BLOCK).header(header);
        if (seed != 0) {
            return ParallelGzipOutputStreamTest.compress(b, data, new Random(seed));
        }
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (ParallelGzipOutputStream out = b.build(sink)) {
            out.write(data);
        }
        return sink.toByteArray();
    }

    /** Walks the members with GzipMembers, as a splitter would; null entries where a member has no size subfield. */
    List<GzipMembers.Member> members(byte[] gz) throws IOException {
        Path f = Files.write(Files.createTempFile(tmp, "members", ".gz"), gz);
        List<GzipMembers.Member> list = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(f)) {
            for (long at = 0; at < gz.length; ) {
                GzipMembers.Member m = GzipMembers.read(ch, at);
                assertNotNull(m, "member at " + at + " has a size subfield");
                list.add(m);
                at += m.totalLength();
            }
        }
        return list;
    }

    @Test
    void independentMembersCarryExactSizesAndTheFirstKeepsTheHeader() throws IOException {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        byte[] data = TestData.mixed(r, 5 * BLOCK + 777);
        GzipHeader header = GzipHeader.builder().name("data.bin").modificationTime(Instant.ofEpochSecond(1700000000))
                .extra(new byte[] {'x', 'y', 2, 0, 7, 8}).build();
        byte[] gz = write(Format.INDEPENDENT_MEMBERS, data, header, 0);
        List<GzipMembers.Member> ms = members(gz);
        assertEquals(6, ms.size(), "seed " + seed);
        long usize = 0;
        for (int i = 0; i < ms.size(); i++) {
            GzipMembers.Member m = ms.get(i);
            assertFalse(m.bgzf());
            assertEquals(i < 5 ? BLOCK : 777, m.uncompressedSize());
            usize += m.uncompressedSize();
            byte[] one = Arrays.copyOfRange(gz, (int) m.offset(), (int) (m.offset() + m.totalLength()));
            GzipInputStream in = new GzipInputStream(new ByteArrayInputStream(one));
            assertEquals(m.uncompressedSize(), TestData.readAll(in).length, "member " + i + " alone, seed " + seed);
            if (i == 0) {
                assertEquals(header.name(), in.header().name());
                assertEquals(header.modificationTime(), in.header().modificationTime());
                assertArrayEquals(new byte[] {'x', 'y', 2, 0, 7, 8}, Arrays.copyOf(in.header().extra().get(), 6));
            } else {
                assertEquals(GzipHeader.OS_UNKNOWN, in.header().os());
                assertTrue(in.header().name().isEmpty());
                assertTrue(in.header().modificationTime().isEmpty());
                assertEquals(32, m.headerLength(), "10 fixed, XLEN, the 20-byte SL subfield");
            }
        }
        assertEquals(data.length, usize);
    }

    @Test
    void bgzfIsWhatBgzipWrites() throws IOException, InterruptedException {
        long seed = System.nanoTime();
        byte[] data = TestData.mixed(new Random(seed), 300_001);
        byte[] gz = write(Format.BGZF, data, GzipHeader.builder().name("ignored").build(), 0);
        assertArrayEquals(GzipMembers.BGZF_EOF, Arrays.copyOfRange(gz, gz.length - 28, gz.length));
        List<GzipMembers.Member> ms = members(gz);
        for (GzipMembers.Member m : ms) {
            assertTrue(m.bgzf());
            assertTrue(m.totalLength() <= 65536);
            byte[] head = Arrays.copyOfRange(gz, (int) m.offset(), (int) m.offset() + 16);
            assertArrayEquals(Arrays.copyOf(GzipMembers.BGZF_EOF, 16), head, "BGZF's fixed header, seed " + seed);
        }
        assertEquals(6, ms.size(), "5 blocks of 65,280 bytes and the EOF block");
        // The same cuts as bgzip's: compare the members' ISIZE trailers.
        assumeTrue(Tools.installed("bgzip"), "bgzip (Debian package tabix) not installed");
        byte[] theirs = Tools.run(data, "bgzip", "-c");
        assertEquals(isizes(theirs, members(theirs)), isizes(gz, ms));
        assertArrayEquals(data, Tools.run(gz, "bgzip", "-d", "-c"), "bgzip -d reads ours, seed " + seed);
    }

    @Test
    void emptyInput() throws IOException {
        byte[] bgzf = write(Format.BGZF, new byte[0], GzipHeader.minimal(), 1);
        assertArrayEquals(GzipMembers.BGZF_EOF, bgzf, "as bgzip: only the EOF block");
        byte[] independent = write(Format.INDEPENDENT_MEMBERS, new byte[0], GzipHeader.minimal(), 1);
        assertEquals(1, members(independent).size(), "one empty member: gzip needs one");
        assertEquals(0, TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(independent))).length);
    }

    private static List<Long> isizes(byte[] gz, List<GzipMembers.Member> ms) {
        List<Long> list = new ArrayList<>();
        for (GzipMembers.Member m : ms) {
            list.add(GzipMembers.le(gz, (int) (m.offset() + m.totalLength() - 4), 4));
        }
        return list;
    }

    @Test
    void everyReaderReadsEveryFormat() throws IOException, InterruptedException {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        String[][] readers = {
            {"gzip", "-dc"}, {"pigz", "-dc"}, {"igzip", "-dc"}, {"zcat"},
            {"python3", "-c", "import gzip,sys; sys.stdout.buffer.write(gzip.decompress(sys.stdin.buffer.read()))"},
        };
        for (int size : new int[] {0, 1, 3 * BLOCK + 11, 200_000}) {
            byte[] data = TestData.mixed(r, size);
            for (Format format : Format.values()) {
                byte[] gz = write(format, data, GzipHeader.builder().name("n").build(), seed);
                String ctx = format + " size " + size + " seed " + seed;
                assertArrayEquals(data, TestData.readAll(new GZIPInputStream(new ByteArrayInputStream(gz))), ctx);
                assertArrayEquals(data, TestData.readAll(new GzipInputStream(new ByteArrayInputStream(gz))), ctx);
                for (String[] reader : readers) {
                    if (Tools.installed(reader[0])) {
                        assertArrayEquals(data, Tools.run(gz, reader), String.join(" ", reader) + " " + ctx);
                    }
                }
            }
        }
        for (String[] reader : readers) {
            assumeTrue(Tools.installed(reader[0]), reader[0] + " not installed");
        }
    }

    @Test
    void bgzipOutputHasItsSizesWhereGzipMembersLooks() throws IOException {
        for (TestData.Fixture f : TestData.fixtures()) {
            if (f.toString().startsWith("bgzip-three")) {
                List<GzipMembers.Member> ms = members(f.bytes());
                assertEquals(4, ms.size(), "three blocks and the EOF block");
                assertEquals(f.size(), TestData.readAll(new GzipInputStream(new ByteArrayInputStream(f.bytes())))
                        .length);
            }
        }
    }

    @Test
    void plainMembersHaveNoSizes() throws IOException {
        byte[] gz = write(Format.SINGLE_MEMBER, new byte[100], GzipHeader.minimal(), 1);
        Path f = Files.write(tmp.resolve("plain.gz"), gz);
        try (FileChannel ch = FileChannel.open(f)) {
            assertNull(GzipMembers.read(ch, 0));
        }
    }

    /**
     * One rule for a malformed subfield list, whoever walks the members: a subfield whose head or data runs past XLEN
     * is a ZipException naming the member's offset, from the channel reader, the stream reader and the index alike.
     */
    @Test
    void subfieldListsThatRunPastXlenAreRefusedByEveryReader() throws IOException {
        byte[] data = "one rule\n".repeat(50).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] good = write(Format.INDEPENDENT_MEMBERS, data, GzipHeader.minimal(), 0);
        // XLEN is 20 (the SL subfield alone): claim a longer LEN; or XLEN 2, shorter than a subfield's head.
        byte[] longLen = good.clone();
        longLen[14] = 17;
        byte[] withStray = TestData.member(GzipHeader.builder().extra(new byte[] {'a', 'b'}).build(), data, 6);
        byte[] prefix = write(Format.INDEPENDENT_MEMBERS, data, GzipHeader.minimal(), 0);
        for (byte[] bad : new byte[][] {longLen, withStray}) {
            byte[] file = concat(prefix, bad);
            long at = prefix.length;
            String expect = "offset " + at;
            Path f = Files.write(Files.createTempFile(tmp, "bad", ".gz"), file);
            try (FileChannel ch = FileChannel.open(f)) {
                assertTrue(org.junit.jupiter.api.Assertions.assertThrows(java.util.zip.ZipException.class,
                        () -> GzipMembers.read(ch, at)).getMessage().contains(expect));
            }
            ByteArrayInputStream in = new ByteArrayInputStream(file, (int) at, file.length);
            assertTrue(org.junit.jupiter.api.Assertions.assertThrows(java.util.zip.ZipException.class,
                    () -> GzipMembers.read(in, at)).getMessage().contains(expect));
            assertTrue(org.junit.jupiter.api.Assertions.assertThrows(java.util.zip.ZipException.class,
                    () -> GzipIndex.build(f)).getMessage().contains(expect));
        }
    }

    /** The stream reader stops exactly at the deflate data and agrees with the channel reader. */
    @Test
    void streamReaderConsumesExactlyTheHeader() throws IOException {
        GzipHeader header = GzipHeader.builder().name("n").comment("c").headerCrc(true)
                .extra(new byte[] {'x', 'y', 1, 0, 7}).build();
        byte[] gz = write(Format.INDEPENDENT_MEMBERS, new byte[3 * BLOCK + 5], header, 0);
        List<GzipMembers.Member> ms = members(gz);
        ByteArrayInputStream in = new ByteArrayInputStream(gz);
        for (GzipMembers.Member m : ms) {
            in.reset();
            in.skip(m.offset());
            GzipMembers.Member s = GzipMembers.read(in, m.offset());
            assertEquals(m.toString(), s.toString());
            assertEquals(gz.length - m.offset() - m.headerLength(), in.available(), m.toString());
        }
        assertEquals(null, GzipMembers.read(new ByteArrayInputStream(TestData.member(GzipHeader.minimal(),
                new byte[1], 6)), 0));
        org.junit.jupiter.api.Assertions.assertThrows(java.io.EOFException.class,
                () -> GzipMembers.read(new ByteArrayInputStream(Arrays.copyOf(gz, 20)), 0));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
