package dev.sluice.io;

import dev.sluice.internal.ChannelBacked;
import dev.sluice.internal.Transfers;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;

/**
 * Finds the {@link FileChannel} behind a stream, so that copies between files can happen inside the kernel.
 * Only exact classes are trusted: a subclass of {@link FileInputStream} may override {@code read} to count or
 * transform bytes, and a channel copy would bypass it.
 */
final class FileBacked {
    private FileBacked() {}

    /** The channel behind {@code in}, positioned where the stream is, or null when there is none. */
    static FileChannel channelOf(InputStream in) {
        return ChannelBacked.of(in);
    }

    /**
     * The channel behind {@code out}, or null when there is none. A {@link FastBufferedOutputStream} is drained
     * first, so bytes written to the channel come after the ones it held.
     */
    static FileChannel channelOf(OutputStream out) throws IOException {
        if (out.getClass() == FileOutputStream.class) {
            return ((FileOutputStream) out).getChannel();
        }
        if (out instanceof ChannelBacked) {
            return ((ChannelBacked) out).channel();
        }
        if (out instanceof FastBufferedOutputStream) {
            return channelOf(((FastBufferedOutputStream) out).drainForDirectWrite());
        }
        return null;
    }

    /**
     * Copies what is left of {@code in} to {@code out} inside the kernel when both are file-backed.
     *
     * @return the bytes copied; 0 when either side is not a file, in which case nothing happened
     */
    static long transfer(InputStream in, OutputStream out) throws IOException {
        FileChannel src = channelOf(in);
        if (src == null) {
            return 0;
        }
        FileChannel dst = channelOf(out);
        if (dst == null) {
            return 0;
        }
        return Transfers.transferToEnd(src, dst);
    }

    /**
     * The buffer size for reading {@code in}: {@code max}, or the file's size (at least 8 KiB) when {@code in} reads a
     * regular file smaller than {@code max}. Any size stays correct if the file grows; a small buffer only costs more
     * calls then. A size the kernel does not know (0 for pipes and procfs) keeps {@code max}.
     */
    static int bufferSizeFor(InputStream in, int max) {
        FileChannel ch = channelOf(in);
        if (ch == null) {
            return max;
        }
        try {
            long size = ch.size();
            return size <= 0 || size >= max ? max : (int) Math.max(8192, Math.min(max, size + 1));
        } catch (IOException e) {
            return max; // the read that follows reports the problem, with its own exception
        }
    }
}
