package dev.sluice.gzip;

import dev.sluice.internal.Checks;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * The channel of {@link GzipIndex#openChannel}: uncompressed bytes of a gzip file read through its index. A read
 * starts the JDK's Inflater (raw mode) at the nearest checkpoint at or before the position, with the checkpoint's
 * window as dictionary, and skips forward; sequential reads continue where the last one stopped. Member ends come
 * from the index's member table, and every member must end where the table says.
 *
 * <p>A checkpoint {@code k} bits into a byte is reached as {@link BitStarts} says: empty blocks first.
 */
final class GzipIndexChannel implements SeekableByteChannel {
    private static final int INPUT = 64 * 1024;

    private final GzipIndex index;
    private final FileChannel file;
    private final long size;
    private final Inflater inf = new Inflater(true);
    private final byte[] raw = new byte[INPUT];
    /** The empty blocks and the checkpoint's byte, given to the Inflater before the file's bytes; or null. */
    private byte[] prefix;
    private final byte[] scratch = new byte[64 * 1024];
    private long position;
    private boolean open = true;

    // The decoding cursor: valid only when active.
    private boolean active;
    private long cu;
    private int member;
    private long inPos;

    GzipIndexChannel(GzipIndex index, FileChannel file) throws IOException {
        this.index = index;
        this.file = file;
        this.size = index.uncompressedSize >= 0 ? index.uncompressedSize : findSize();
    }

    private long findSize() throws IOException {
        long from = Math.max(last(index.memU), last(index.cpU));
        start(Math.max(0, from));
        while (inflate(scratch, 0, scratch.length, Long.MAX_VALUE) > 0) {
            // decode to the end to count
        }
        active = false;
        return cu;
    }

    private static long last(long[] a) {
        return a.length == 0 ? 0 : a[a.length - 1];
    }

    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (position >= size) {
            return -1;
        }
        int want = (int) Math.min(dst.remaining(), size - position);
        if (want == 0) {
            return 0;
        }
        try {
            seek(position);
            int done = 0;
            while (done < want) {
                int n;
                if (dst.hasArray()) {
                    n = inflate(dst.array(), dst.arrayOffset() + dst.position(), want - done, size);
                    if (n > 0) {
                        dst.position(dst.position() + n);
                    }
                } else {
                    n = inflate(scratch, 0, Math.min(scratch.length, want - done), size);
                    if (n > 0) {
                        dst.put(scratch, 0, n);
                    }
                }
                if (n < 0) {
                    throw new ZipException("gzip data ended at uncompressed " + cu + " but the index says "
                            + size);
                }
                done += n;
            }
            position += done;
            return done;
        } catch (IOException | RuntimeException e) {
            active = false;
            throw e;
        }
    }

    /** Puts the cursor at uncompressed {@code p}: continues the current one if that is nearer than a checkpoint. */
    private void seek(long p) throws IOException {
        int c = GzipIndex.lastAtMost(index.cpU, p);
        int m = GzipIndex.lastAtMost(index.memU, p);
        long entry = Math.max(c >= 0 ? index.cpU[c] : 0, m >= 0 ? index.memU[m] : 0);
        if (!(active && cu <= p && cu >= entry)) {
            if (c >= 0 && (m < 0 || index.cpMember[c] >= m)) {
                startCheckpoint(c);
            } else {
                start(p);
            }
        }
        while (cu < p) {
            int n = inflate(scratch, 0, (int) Math.min(scratch.length, p - cu), size);
            if (n < 0) {
                throw new ZipException("gzip data ended at uncompressed " + cu + " before " + p);
            }
        }
    }

    /** Starts at the last member that starts at or before {@code p}. */
    private void start(long p) throws IOException {
        int m = GzipIndex.lastAtMost(index.memU, p);
        if (m < 0) {
            throw new ZipException("index has no member starting at or before uncompressed " + p);
        }
        // Several empty members can start at p: the last of them is where p's data is.
        member = m;
        cu = index.memU[m];
        inPos = index.memDeflate[m];
        prefix = null;
        inf.reset();
        active = true;
    }

    private void startCheckpoint(int c) throws IOException {
        long bit = index.cpBit[c];
        member = index.cpMember[c];
        cu = index.cpU[c];
        inPos = bit >>> 3;
        int k = (int) (bit & 7);
        prefix = null;
        if (k > 0) {
            ByteBuffer one = ByteBuffer.allocate(1);
            GzipIndexBuild.readAt(file, one, inPos);
            prefix = BitStarts.prefix(k, one.get(0));
            inPos++;
        }
        inf.reset();
        Window w = index.windows[c];
        if (w.length() > 0) {
            inf.setDictionary(w.bytes());
        }
        active = true;
    }

    /** Decodes up to {@code len} bytes into {@code b}; returns -1 after the last member. */
    private int inflate(byte[] b, int off, int len, long limit) throws IOException {
        int idle = 0;
        while (true) {
            if (inf.finished() && !index.allMembers) {
                if (!followMember()) {
                    return -1;
                }
                continue;
            }
            if (inf.finished()) {
                int next = member + 1;
                long expectedEnd = next < index.memU.length ? index.memU[next] : limit;
                if (next >= index.memU.length && limit == Long.MAX_VALUE) {
                    return -1;
                }
                if (cu != expectedEnd) {
                    throw new ZipException("index does not match the gzip data: member #" + member
                            + " ended at uncompressed " + cu + ", the index says " + expectedEnd);
                }
                if (next >= index.memU.length) {
                    return -1;
                }
                member = next;
                inPos = index.memDeflate[next];
                prefix = null;
                inf.reset();
                continue;
            }
            if (inf.needsInput()) {
                feed();
            }
            int n;
            try {
                n = inf.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw new ZipException("corrupt deflate data (or an index for another file) near compressed offset "
                        + inPos + ": " + e.getMessage());
            }
            if (n > 0) {
                cu += n;
                long end = member + 1 < index.memU.length ? index.memU[member + 1] : limit;
                if (cu > end) {
                    throw new ZipException("index does not match the gzip data: member #" + member
                            + " runs past uncompressed " + end);
                }
                return n;
            }
            if (inf.needsDictionary()) {
                throw new ZipException("deflate data near compressed offset " + inPos + " asks for a dictionary");
            }
            if (!inf.finished() && !inf.needsInput() && ++idle > 16) {
                throw new ZipException("deflate decoder made no progress near compressed offset " + inPos);
            }
        }
    }

    /**
     * For an index that lists only some members (gztool's): moves to the member after the one just finished, found
     * from its header, past the 8-byte trailer; false at the end of the data (the end of the file, or bytes that are
     * not a gzip header: trailing zeros or garbage end the data, as in gzip). Where the index lists that member, it
     * must start where the index says.
     */
    private boolean followMember() throws IOException {
        long at = inPos - inf.getRemaining() + 8;
        ByteBuffer magic = ByteBuffer.allocate(2);
        if (at >= file.size() || GzipIndexBuild.readAt(file, magic, at) < 2 || magic.get(0) != 0x1f
                || magic.get(1) != (byte) 0x8b) {
            return false;
        }
        long data = at + GzipMembers.headerLength(file, at);
        int next = member + 1;
        if (next < index.memU.length && data >= index.memDeflate[next]) {
            if (data != index.memDeflate[next] || cu != index.memU[next]) {
                throw new ZipException("index does not match the gzip data: a member starts at compressed " + data
                        + ", uncompressed " + cu + "; the index says member #" + next + " starts at "
                        + index.memDeflate[next] + ", " + index.memU[next]);
            }
            member = next;
        }
        inPos = data;
        prefix = null;
        inf.reset();
        return true;
    }

    /** Gives the Inflater the next input: the checkpoint's prefix first, if any, then the file. */
    private void feed() throws IOException {
        if (prefix != null) {
            inf.setInput(prefix);
            prefix = null;
            return;
        }
        int n = GzipIndexBuild.readAt(file, ByteBuffer.wrap(raw), inPos);
        if (n <= 0) {
            throw new EOFException("gzip data ends early at offset " + inPos);
        }
        inf.setInput(raw, 0, n);
        inPos += n;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        ensureOpen();
        throw new NonWritableChannelException();
    }

    @Override
    public synchronized long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public synchronized SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        Checks.nonNegative(newPosition, "newPosition");
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long size) throws IOException {
        ensureOpen();
        throw new NonWritableChannelException();
    }

    @Override
    public synchronized boolean isOpen() {
        return open;
    }

    @Override
    public synchronized void close() throws IOException {
        if (open) {
            open = false;
            inf.end();
            file.close();
        }
    }

    private synchronized void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
