package dev.sluice.text;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/** Which charsets FastReader and FastWriter code by hand; an int so the hot loops switch on a constant. */
final class Kind {
    private Kind() {}

    static final int UTF8 = 0;
    static final int LATIN1 = 1;
    static final int ASCII = 2;
    /** Any other charset: the JDK's coders do the work. */
    static final int OTHER = 3;

    static int of(Charset cs) {
        if (cs.equals(StandardCharsets.UTF_8)) {
            return UTF8;
        } else if (cs.equals(StandardCharsets.ISO_8859_1)) {
            return LATIN1;
        } else if (cs.equals(StandardCharsets.US_ASCII)) {
            return ASCII;
        }
        return OTHER;
    }
}
