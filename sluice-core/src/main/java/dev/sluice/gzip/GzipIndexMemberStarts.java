package dev.sluice.gzip;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Where a member's deflate data starts, for a reader that meets members its index does not list (gztool's indexes
 * note a member start only where they put a point). Stateless.
 */
final class GzipIndexMemberStarts {
    private GzipIndexMemberStarts() {}

    /**
     * The length of the gzip header at {@code offset} of {@code file}.
     *
     * @throws java.util.zip.ZipException if it is not a gzip header or its subfield list is malformed, naming the
     *     offset
     * @throws EOFException if the file ends inside it
     */
    static int headerLength(FileChannel file, long offset) throws IOException {
        return GzipMembers.headerLength(new Bytes(file, offset), offset);
    }

    /** Positional byte reads through a small buffer; reading past the end is an {@link EOFException}. */
    private static final class Bytes implements GzipMembers.Bytes {
        private final FileChannel file;
        private final ByteBuffer buf = ByteBuffer.allocate(512).limit(0);
        private long next;

        Bytes(FileChannel file, long offset) {
            this.file = file;
            this.next = offset;
        }

        @Override
        public int read() throws IOException {
            if (!buf.hasRemaining()) {
                buf.clear();
                if (GzipIndexBuild.readAt(file, buf, next) <= 0) {
                    throw new EOFException("gzip header cut short at offset " + next);
                }
                next += buf.position();
                buf.flip();
            }
            return buf.get() & 0xff;
        }
    }
}
