package dev.sluice.internal;

import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.channels.FileChannel;

/**
 * Implemented by Sluice's own unbuffered streams over a {@link FileChannel}, so that copies between file-backed
 * streams can move bytes inside the kernel ({@code copy_file_range}, {@code sendfile}) instead of through the heap.
 * Only package-private classes implement it, so the method never becomes public API.
 */
public interface ChannelBacked {
    /**
     * The channel this stream reads or writes; its {@linkplain FileChannel#position() position} is the stream's
     * position, and the stream holds no buffered bytes of its own (a stream that read ahead gives the bytes back
     * first). Null when the stream cannot hand its channel over now (it read ahead from a pipe, which cannot seek
     * back): the caller then goes through the stream's own methods.
     */
    FileChannel channel();

    /**
     * The channel behind {@code in}, positioned where the stream is, or null when there is none. Only exact classes
     * are trusted: a subclass of {@link FileInputStream} may override {@code read} to count or transform bytes, and
     * reading its channel would bypass that.
     */
    static FileChannel of(InputStream in) {
        if (in.getClass() == FileInputStream.class) {
            return ((FileInputStream) in).getChannel();
        }
        if (in instanceof ChannelBacked) {
            return ((ChannelBacked) in).channel();
        }
        return null;
    }
}
