package dev.sluice.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A minimal POSIX ustar writer: regular files only, enough to turn the JDK's src.zip into a realistic tar. */
public final class Tar {
    private static final int BLOCK = 512;
    private final OutputStream out;
    private long written;

    public Tar(OutputStream out) {
        this.out = out;
    }

    public long written() {
        return written;
    }

    public void add(String name, byte[] data, long mtimeMillis) throws IOException {
        byte[] h = new byte[BLOCK];
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        // ustar splits long names into a 155-byte prefix and a 100-byte name at a '/'; names that still do not fit
        // keep their last 100 bytes (the corpus needs realistic bytes, not exact names).
        int cut = -1;
        if (n.length > 100) {
            for (int i = n.length - 101; i < n.length && i <= 155; i++) {
                if (i >= 0 && n[i] == '/') {
                    cut = i;
                    break;
                }
            }
        }
        if (cut > 0) {
            System.arraycopy(n, cut + 1, h, 0, n.length - cut - 1);
            System.arraycopy(n, 0, h, 345, cut);
        } else {
            System.arraycopy(n, Math.max(0, n.length - 100), h, 0, Math.min(100, n.length));
        }
        octal(h, 100, 8, 0644);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, data.length);
        octal(h, 136, 12, Math.max(0, mtimeMillis / 1000));
        Arrays.fill(h, 148, 156, (byte) ' ');
        h[156] = '0';
        System.arraycopy("ustar\u000000".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 8);
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        out.write(h);
        out.write(data);
        int pad = (BLOCK - data.length % BLOCK) % BLOCK;
        out.write(new byte[pad]);
        written += BLOCK + data.length + pad;
    }

    public void finish() throws IOException {
        out.write(new byte[2 * BLOCK]);
        written += 2 * BLOCK;
        out.flush();
    }

    /** Writes {@code value} as zero-padded octal digits in {@code len - 1} bytes followed by a NUL. */
    private static void octal(byte[] h, int off, int len, long value) {
        String s = Long.toOctalString(value);
        int digits = len - 1;
        for (int i = 0; i < digits; i++) {
            int from = s.length() - digits + i;
            h[off + i] = (byte) (from >= 0 ? s.charAt(from) : '0');
        }
        h[off + digits] = 0;
    }
}
