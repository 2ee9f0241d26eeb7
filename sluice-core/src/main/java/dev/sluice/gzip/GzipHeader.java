package dev.sluice.gzip;

import dev.sluice.internal.Checks;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * The header of one gzip member (RFC 1952 section 2.3): the optional file name, comment and extra field, the
 * modification time, the FTEXT hint, the operating system byte and whether the header carried its own CRC (FHCRC).
 *
 * <p>{@link GzipInputStream#header()} returns the header of the member being read; {@link GzipOutputStream} and
 * {@link ParallelGzipOutputStream} write one built with {@link #builder()}. Instances are immutable and thread-safe.
 * Names and comments are ISO-8859-1 as the RFC specifies, so every byte string round-trips (a UTF-8 file name made
 * by gzip on Linux comes back as its bytes, one char per byte).
 */
public final class GzipHeader {
    /** Operating system byte for Unix (3), what gzip writes on Linux and what the builder defaults to. */
    public static final int OS_UNIX = 3;
    /** Operating system byte meaning "unknown" (255). */
    public static final int OS_UNKNOWN = 255;

    static final int FTEXT = 1;
    static final int FHCRC = 2;
    static final int FEXTRA = 4;
    static final int FNAME = 8;
    static final int FCOMMENT = 16;
    static final int RESERVED_FLAGS = 0xe0;

    private static final GzipHeader DEFAULT = builder().build();

    private final boolean text;
    private final boolean headerCrc;
    private final long mtime;
    private final int extraFlags;
    private final int os;
    private final byte[] extra;
    private final String name;
    private final String comment;

    GzipHeader(boolean text, boolean headerCrc, long mtime, int extraFlags, int os, byte[] extra, String name,
            String comment) {
        this.text = text;
        this.headerCrc = headerCrc;
        this.mtime = mtime;
        this.extraFlags = extraFlags;
        this.os = os;
        this.extra = extra;
        this.name = name;
        this.comment = comment;
    }

    /** The header with no name, comment, extra field or time and OS {@link #OS_UNIX}. */
    public static GzipHeader minimal() {
        return DEFAULT;
    }

    /** A builder starting from {@link #minimal()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The original file name (FNAME), if the member has one. */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /** The comment (FCOMMENT), if the member has one. */
    public Optional<String> comment() {
        return Optional.ofNullable(comment);
    }

    /** A copy of the extra field's payload (FEXTRA), if the member has one. */
    public Optional<byte[]> extra() {
        return extra == null ? Optional.empty() : Optional.of(extra.clone());
    }

    /** The modification time (MTIME), or empty when the field is 0, which RFC 1952 defines as "no time stamp". */
    public Optional<Instant> modificationTime() {
        return mtime == 0 ? Optional.empty() : Optional.of(Instant.ofEpochSecond(mtime));
    }

    /** The FTEXT flag: the compressor's hint that the data is probably text. */
    public boolean text() {
        return text;
    }

    /** Whether the header carried a CRC16 of itself (FHCRC); {@link GzipInputStream} verifies it when present. */
    public boolean headerCrc() {
        return headerCrc;
    }

    /** The XFL byte (2: best compression, 4: fastest, else 0). */
    public int extraFlags() {
        return extraFlags;
    }

    /** The OS byte (0..255), e.g. {@link #OS_UNIX}. */
    public int os() {
        return os;
    }

    /** This header with another FEXTRA payload (not copied: the caller hands it over). */
    GzipHeader withExtra(byte[] extra) {
        return new GzipHeader(text, headerCrc, mtime, extraFlags, os, extra, name, comment);
    }

    /** Serialises this header with the given XFL byte (the writer knows its level, the builder does not). */
    byte[] encode(int xfl) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(10 + (name == null ? 0 : name.length() + 1));
        int flags = (text ? FTEXT : 0) | (headerCrc ? FHCRC : 0) | (extra != null ? FEXTRA : 0)
                | (name != null ? FNAME : 0) | (comment != null ? FCOMMENT : 0);
        out.write(0x1f);
        out.write(0x8b);
        out.write(8);
        out.write(flags);
        for (int i = 0; i < 4; i++) {
            out.write((int) (mtime >>> (8 * i)));
        }
        out.write(xfl);
        out.write(os);
        if (extra != null) {
            out.write(extra.length);
            out.write(extra.length >>> 8);
            out.write(extra, 0, extra.length);
        }
        if (name != null) {
            out.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
            out.write(0);
        }
        if (comment != null) {
            out.writeBytes(comment.getBytes(StandardCharsets.ISO_8859_1));
            out.write(0);
        }
        if (headerCrc) {
            CRC32 crc = new CRC32();
            crc.update(out.toByteArray());
            int crc16 = (int) crc.getValue() & 0xffff;
            out.write(crc16);
            out.write(crc16 >>> 8);
        }
        return out.toByteArray();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GzipHeader)) {
            return false;
        }
        GzipHeader h = (GzipHeader) o;
        return text == h.text && headerCrc == h.headerCrc && mtime == h.mtime && extraFlags == h.extraFlags
                && os == h.os && Arrays.equals(extra, h.extra) && java.util.Objects.equals(name, h.name)
                && java.util.Objects.equals(comment, h.comment);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(text, headerCrc, mtime, extraFlags, os, Arrays.hashCode(extra), name, comment);
    }

    @Override
    public String toString() {
        return "GzipHeader{name=" + name + ", comment=" + comment + ", mtime=" + mtime + ", os=" + os + ", xfl="
                + extraFlags + ", text=" + text + ", fhcrc=" + headerCrc
                + ", extra=" + (extra == null ? "none" : extra.length + " bytes") + "}";
    }

    /** Builds a {@link GzipHeader}; not thread-safe. Each setter checks its argument at once. */
    public static final class Builder {
        private boolean text;
        private boolean headerCrc;
        private long mtime;
        private int os = OS_UNIX;
        private byte[] extra;
        private String name;
        private String comment;

        private Builder() {}

        /** Sets FNAME; {@code null} removes it. Throws IllegalArgumentException if it has a NUL or a char above 0xff. */
        public Builder name(String name) {
            this.name = latin1("name", name);
            return this;
        }

        /** Sets FCOMMENT; {@code null} removes it. Same rules as {@link #name}. */
        public Builder comment(String comment) {
            this.comment = latin1("comment", comment);
            return this;
        }

        /** Sets the FEXTRA payload (copied, at most 65535 bytes); {@code null} removes it. */
        public Builder extra(byte[] extra) {
            if (extra != null) {
                Checks.argument(extra.length <= 0xffff, "extra field longer than 65535 bytes: %s", extra.length);
            }
            this.extra = extra == null ? null : extra.clone();
            return this;
        }

        /**
         * Sets MTIME, truncated to whole seconds; {@code null} or the epoch means "no time stamp". Throws
         * IllegalArgumentException outside 1970-01-01 .. 2106-02-07, what 32 unsigned bits of seconds hold.
         */
        public Builder modificationTime(Instant time) {
            long s = time == null ? 0 : time.getEpochSecond();
            Checks.argument(s >= 0 && s <= 0xffffffffL, "modification time outside gzip's 32-bit range: %s", time);
            this.mtime = s;
            return this;
        }

        /** Sets the FTEXT hint. */
        public Builder text(boolean text) {
            this.text = text;
            return this;
        }

        /** Whether to write FHCRC, a CRC16 of the header (few readers check it; gzip does). */
        public Builder headerCrc(boolean headerCrc) {
            this.headerCrc = headerCrc;
            return this;
        }

        /** Sets the OS byte (0..255). */
        public Builder os(int os) {
            Checks.argument(os >= 0 && os <= 255, "os outside 0..255: %s", os);
            this.os = os;
            return this;
        }

        public GzipHeader build() {
            return new GzipHeader(text, headerCrc, mtime, 0, os, extra, name, comment);
        }

        private static String latin1(String what, String s) {
            if (s != null) {
                for (int i = 0; i < s.length(); i++) {
                    char c = s.charAt(i);
                    Checks.argument(c != 0 && c <= 0xff, "%s has a NUL or non-ISO-8859-1 char at index %s: %s",
                            what, i, s);
                }
            }
            return s;
        }
    }
}
