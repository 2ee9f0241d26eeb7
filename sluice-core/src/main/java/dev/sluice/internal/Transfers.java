package dev.sluice.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;

/** In-kernel copies between file channels, shared by the streams and the file utilities. */
public final class Transfers {
    private Transfers() {}

    /**
     * Copies from {@code src}'s position to its current end into {@code dst} at {@code dst}'s position (or its end,
     * if {@code dst} was opened for append) with {@link FileChannel#transferTo}, which the JDK turns into
     * {@code copy_file_range} or {@code sendfile} on Linux. Advances {@code src}'s position by the bytes copied.
     *
     * <p>Stops when {@code transferTo} makes no progress: a file whose size the kernel does not know (procfs
     * reports 0) or one truncated underneath us. Callers finish with an ordinary read loop, which returns at once at
     * a true end of file, so such files are still copied completely.
     *
     * @return the number of bytes copied
     */
    public static long transferToEnd(FileChannel src, FileChannel dst) throws IOException {
        long start = src.position();
        long pos = start;
        long size = src.size();
        while (pos < size) {
            long n = src.transferTo(pos, size - pos, dst);
            if (n <= 0) {
                break;
            }
            pos += n;
            src.position(pos);
            if (pos >= size) {
                size = src.size(); // the file may have grown while we copied
            }
        }
        return pos - start;
    }
}
