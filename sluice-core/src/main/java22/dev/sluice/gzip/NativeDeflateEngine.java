package dev.sluice.gzip;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;

/**
 * What the streaming native deflaters ({@link IsalDeflateEngine}, {@link SystemZlibDeflateEngine}) share above their
 * C calls: input and dictionaries through one {@link NativeDeflateInput} (a direct buffer read where it is, an array
 * copied in bounded chunks), the finish flag, and the once-only end that frees the native memory. Each subclass owns
 * its library's stream struct, its deflate loop and its reset. Not thread-safe.
 */
abstract class NativeDeflateEngine implements DeflateEngine {
    /** The library's stream struct (both begin with {@code next_in}, {@code avail_in}). */
    final MemorySegment stream;
    final NativeDeflateInput input;
    /** {@code (stream, dictionary, length) -> int}: the library's set-dictionary call, and its name for errors. */
    private final MethodHandle setDictionary;
    private final String setDictionaryName;
    /** Set by {@link #finish()}, cleared by a subclass's reset. */
    boolean finishing;
    private boolean ended;

    NativeDeflateEngine(MemorySegment stream, MemorySegment inputBlock, MethodHandle setDictionary,
            String setDictionaryName) {
        this.stream = stream;
        this.input = new NativeDeflateInput(stream, inputBlock);
        this.setDictionary = setDictionary;
        this.setDictionaryName = setDictionaryName;
    }

    /** Frees or pools the native memory; called once, by {@link #end()}. */
    abstract void free();

    @Override
    public final void setInput(byte[] b, int off, int len) {
        checkOpen();
        input.set(b, off, len);
    }

    /**
     * A direct buffer is read where it is: {@code next_in} points at its bytes, all of them at once, with no copy
     * into the input block (a 1 MiB block of ParallelGzipOutputStream is one call's input). Any other buffer goes
     * through an array.
     */
    @Override
    public final void setInput(ByteBuffer b) {
        checkOpen();
        if (!b.isDirect()) {
            DeflateEngine.super.setInput(b);
            return;
        }
        input.set(b);
    }

    @Override
    public final void setDictionary(byte[] b, int off, int len) {
        checkOpen();
        setDictionary(input.dictionary(b, off, len));
    }

    /** A direct buffer's dictionary goes to the library where it is (which copies it into its history). */
    @Override
    public final void setDictionary(ByteBuffer b) {
        checkOpen();
        if (!b.isDirect()) {
            DeflateEngine.super.setDictionary(b);
            return;
        }
        setDictionary(NativeDeflateInput.dictionary(b));
    }

    private void setDictionary(MemorySegment dict) {
        int ret;
        try {
            ret = (int) setDictionary.invokeExact(stream, dict, (int) dict.byteSize());
        } catch (Throwable t) {
            throw NativeEngines.rethrow(t);
        }
        if (ret != 0) { // Z_OK and ISA-L's COMP_OK
            throw new IllegalStateException(setDictionaryName + " returned " + ret);
        }
    }

    final int availIn() {
        return input.availIn();
    }

    @Override
    public final void finish() {
        finishing = true;
    }

    @Override
    public final boolean needsInput() {
        return input.needsInput();
    }

    @Override
    public final void end() {
        if (!ended) {
            ended = true;
            input.clear(); // drops the caller's array or buffer
            free();
        }
    }

    final void checkOpen() {
        if (ended) {
            throw new IllegalStateException("deflate engine already ended");
        }
    }
}
