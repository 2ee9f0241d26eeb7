package dev.sluice.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * LineRecordReader over every split size: the records of all splits together are the file's lines, each once, for
 * Sluice members and BGZF cut at every placement of LF, CR and CR LF across member edges.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LineRecordReaderSplitTest {

    /** Every kind of line end, empty lines, and runs of them, so that member edges fall everywhere among them. */
    private static final byte[] TRICKY = ("a\nbc\r\nd\re\r\r\nf\n\ng\r\rh\r\n\r\nij\n\r\nk\r\n\n\rlm\rn")
            .getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path tmp;

    @Test
    void membersOfEverySizeAtEverySplitSize() throws IOException {
        for (int member = 1; member <= 4; member++) {
            for (int shift = 0; shift < member; shift++) {
                // The first piece shifted so that each edge falls after every byte of TRICKY across the runs.
                byte[] data = concat(new byte[shift == 0 ? 0 : shift], TRICKY, TRICKY);
                for (int i = 0; i < shift; i++) {
                    data[i] = 'x';
                }
                checkEverySplitSize("member" + member + "shift" + shift,
                        TestFiles.sluiceMembers(TestFiles.cut(data, member), 6), data, 7);
            }
        }
    }

    @Test
    void emptyMembersAndTwoMemberCutsEverywhere() throws IOException {
        for (int cut = 0; cut <= TRICKY.length; cut++) {
            List<byte[]> pieces = new ArrayList<>();
            pieces.add(new byte[0]);
            pieces.add(java.util.Arrays.copyOfRange(TRICKY, 0, cut));
            pieces.add(new byte[0]);
            pieces.add(java.util.Arrays.copyOfRange(TRICKY, cut, TRICKY.length));
            pieces.add(new byte[0]);
            checkEverySplitSize("cut" + cut, TestFiles.sluiceMembers(pieces, 6), TRICKY, 3);
        }
    }

    @Test
    void bgzfBlocksAtEverySplitSize() throws IOException {
        for (int block = 1; block <= 3; block++) {
            checkEverySplitSize("bgzf" + block, TestFiles.bgzf(TRICKY, block), TRICKY, 5);
        }
    }

    @Test
    void randomTextInLargerMembers() throws IOException {
        long seed = System.nanoTime();
        System.out.println("randomTextInLargerMembers seed " + seed);
        Random r = new Random(seed);
        byte[] data = randomLines(r, 120_000);
        byte[] gz = TestFiles.sluiceMembers(TestFiles.cut(data, 3_000, 17, 40_000, 1, 9_999), r.nextInt(10));
        checkEverySplitSize("random seed " + seed, gz, data, Math.max(1, gz.length / 150));
        byte[] bgzf = TestFiles.bgzf(data, 65280);
        checkEverySplitSize("random bgzf seed " + seed, bgzf, data, Math.max(1, bgzf.length / 150));
    }

    /**
     * A stored member whose data is a copy of a real member header (with a length that lands on the next real
     * member): the length check passes, only decoding rejects it, and no split may start there.
     */
    @Test
    void fakeHeaderInsideDataIsNotAMemberStart() throws IOException {
        byte[] second = "second\nmember\n".getBytes(StandardCharsets.US_ASCII);
        byte[] fakeMember = TestFiles.sluiceMember("fake!\n".getBytes(StandardCharsets.US_ASCII), 6);
        // The payload: text, then the fake header, so its 'SL' length must be patched to end at the next member.
        byte[] lead = "line one\nline two\n".getBytes(StandardCharsets.US_ASCII);
        byte[] payload = concat(lead, fakeMember);
        byte[] first = TestFiles.sluiceMember(payload, 0);
        int fakeAt = indexOf(first, fakeMember);
        long toNext = first.length - fakeAt;
        payload = concat(lead, patchLength(fakeMember, toNext));
        first = TestFiles.sluiceMember(payload, 0);
        byte[] gz = concat(first, TestFiles.sluiceMember(second, 6));
        checkEverySplitSize("fake header", gz, concat(payload, second), 1);
    }

    @Test
    void singleMemberGzipIsReadWholeByTheFirstSplit() throws IOException {
        byte[] data = randomLines(new Random(7), 50_000);
        byte[] gz = TestFiles.plainGzip(data);
        Configuration conf = Splits.conf(tmp);
        Path file = write(gz);
        assertEquals(TestFiles.lines(data), Splits.read(conf, file, 0, 1000));
        assertEquals(List.of(), Splits.read(conf, file, 1000, gz.length - 1000));
        checkEverySplitSize("plain", gz, data, Math.max(1, gz.length / 50));
    }

    private void checkEverySplitSize(String what, byte[] gz, byte[] data, int step) throws IOException {
        Configuration conf = Splits.conf(tmp);
        Path file = write(gz);
        List<String> expected = TestFiles.lines(data);
        // Every size up to 64 bytes on small files (splits inside headers, trailers, one byte per split); on larger
        // files about every step-th size, which still puts split edges at every kind of place.
        long first = gz.length <= 16_384 ? 1 : step;
        for (long size = first; size <= gz.length + step; size += size < 64 && first == 1 ? 1 : step) {
            assertEquals(expected, Splits.readAll(conf, file, gz.length, size), what + ", split size " + size);
        }
    }

    private Path write(byte[] gz) throws IOException {
        Path file = Files.createTempFile(tmp, "split", ".gz");
        Files.write(file, gz);
        return file;
    }

    static byte[] randomLines(Random r, int size) {
        byte[] data = new byte[size];
        String[] ends = {"\n", "\r", "\r\n", "\n\n"};
        int i = 0;
        while (i < size) {
            int len = r.nextInt(r.nextInt(10) == 0 ? 5000 : 80);
            for (int j = 0; j < len && i < size; j++) {
                data[i++] = (byte) ('a' + r.nextInt(26));
            }
            for (char c : ends[r.nextInt(ends.length)].toCharArray()) {
                if (i < size) {
                    data[i++] = (byte) c;
                }
            }
        }
        return data;
    }

    static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }

    private static byte[] patchLength(byte[] member, long length) {
        byte[] m = member.clone();
        for (int i = 0; i < 8; i++) {
            m[16 + i] = (byte) (length >>> (8 * i));
        }
        return m;
    }
}
