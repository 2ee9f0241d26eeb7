package dev.sluice.text;

import java.io.IOException;
import java.nio.charset.MalformedInputException;

/**
 * Thrown by a strict {@link FastReader} at the first malformed byte sequence. It is a
 * {@link MalformedInputException}, so code written for {@code Files.newBufferedReader} keeps working;
 * {@link #getInputLength()} is the length of the malformed sequence as the JDK's decoder would report it, and
 * {@link #getByteOffset()} is where that sequence starts, counted from the first byte the reader read (a skipped
 * byte order mark counts). The JDK's own message is fixed ("Input length = N"), so this one names the offset too.
 */
public final class MalformedTextException extends MalformedInputException {
    private static final long serialVersionUID = 1L;

    private final long byteOffset;
    private final String charsetName;

    MalformedTextException(int inputLength, long byteOffset, String charsetName) {
        super(inputLength);
        this.byteOffset = byteOffset;
        this.charsetName = charsetName;
    }

    /**
     * The exception, typed as an {@code IOException}: FastReader throws what this returns, so that linking
     * FastReader does not load this class to check that it is a Throwable (every reader pays for that load, only
     * a strict one meeting bad input needs the class).
     */
    static IOException of(int inputLength, long byteOffset, String charsetName) {
        return new MalformedTextException(inputLength, byteOffset, charsetName);
    }

    /** The offset of the first byte of the malformed sequence in the input. */
    public long getByteOffset() {
        return byteOffset;
    }

    @Override
    public String getMessage() {
        return "Malformed " + charsetName + " input at byte offset " + byteOffset + ", input length = "
                + getInputLength();
    }
}
