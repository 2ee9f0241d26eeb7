package dev.sluice.internal;

import java.io.IOException;
import java.util.Objects;

/**
 * The one place for Sluice's argument checks, so that every public class answers bad input the same way
 * (see the bad-input table in the project's style guide):
 * <ul>
 *   <li>null argument: {@link NullPointerException} naming the parameter;</li>
 *   <li>bad range: {@link IndexOutOfBoundsException} from {@link Objects#checkFromIndexSize}, as the JDK throws;</li>
 *   <li>bad value: {@link IllegalArgumentException} whose message includes the value;</li>
 *   <li>closed stream: {@code IOException("Stream closed")}.</li>
 * </ul>
 * Not exported from the {@code dev.sluice} module.
 */
public final class Checks {
    private Checks() {}

    /** Returns {@code value}, or throws {@link NullPointerException} saying that {@code name} is null. */
    public static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new NullPointerException(name + " == null");
        }
        return value;
    }

    /**
     * Checks that {@code off} and {@code len} describe a range of an array of {@code length} elements, with the
     * JDK's exception; written with {@link Objects#checkFromIndexSize} so it cannot overflow.
     */
    public static void checkRange(int length, int off, int len) {
        Objects.checkFromIndexSize(off, len, length);
    }

    /** Returns {@code size} if it is positive, else throws {@link IllegalArgumentException} naming it. */
    public static int positive(int size, String name) {
        if (size <= 0) {
            throw new IllegalArgumentException(name + " <= 0: " + size);
        }
        return size;
    }

    /** Returns {@code value} if it is positive, else throws {@link IllegalArgumentException} naming it. */
    public static long positive(long value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " <= 0: " + value);
        }
        return value;
    }

    /** Returns {@code value} if it is at least {@code min}, else throws {@link IllegalArgumentException} naming it. */
    public static int atLeast(int value, int min, String name) {
        if (value < min) {
            throw new IllegalArgumentException(name + " < " + min + ": " + value);
        }
        return value;
    }

    /** Returns {@code value} if it is zero or more, else throws {@link IllegalArgumentException} naming it. */
    public static long nonNegative(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " < 0: " + value);
        }
        return value;
    }

    /** Throws {@link IllegalArgumentException} with {@code message} unless {@code condition} holds. */
    public static void argument(boolean condition, String format, Object... args) {
        if (!condition) {
            throw new IllegalArgumentException(String.format(format, args));
        }
    }

    /** The exception every Sluice stream throws when used after {@code close()}. */
    public static IOException streamClosed() {
        return new IOException("Stream closed");
    }
}
