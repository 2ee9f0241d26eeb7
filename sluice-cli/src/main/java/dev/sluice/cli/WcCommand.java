package dev.sluice.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice wc [-l] [-w] [-m] [-c] [FILE...]}: GNU wc's counts and output format for UTF-8 text. Chunks of plain
 * ASCII are counted as bytes, eight at a time; others are decoded first. With only -l and -c the bytes are counted
 * without decoding, as wc does.
 *
 * <p>Counts as GNU coreutils 9.1 {@code wc} in a UTF-8 locale: a word is a run of printable chars between separators
 * (ASCII white space, U+00A0, U+1680, U+2000..U+200A, U+202F, U+205F, U+2060, U+3000); non-printable chars (controls,
 * U+2028, U+2029, unassigned code points by this JDK's Unicode tables) neither start nor end a word; -m counts code
 * points. One difference, on malformed UTF-8 only: GNU wc counts an invalid byte as no char, sluice counts each
 * U+FFFD that replaces a malformed sequence as one printable char.
 */
@Command(name = "wc", mixinStandardHelpOptions = true, sortOptions = false, exitCodeOnInvalidInput = 1,
        description = {"Print newline, word, char and byte counts for each FILE, and a total line if more than one "
                + "FILE is given. Text is decoded as UTF-8. With no FILE, or when FILE is -, read standard input.",
            "Exit status: 0 if all files were read, 1 if some could not be or the command line is wrong."})
final class WcCommand implements Callable<Integer> {

    @Option(names = {"-l", "--lines"}, description = "print the newline counts")
    boolean lines;

    @Option(names = {"-w", "--words"}, description = "print the word counts")
    boolean words;

    @Option(names = {"-m", "--chars"}, description = "print the character counts (code points)")
    boolean chars;

    @Option(names = {"-c", "--bytes"}, description = "print the byte counts")
    boolean bytes;

    @Parameters(paramLabel = "FILE", description = "files to count (- for standard input)")
    List<String> files = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The counts of one input; -1 for a count not asked for. */
    static final class Counts {
        long lines;
        long words;
        long chars;
        long bytes;
    }

    @Override
    public Integer call() throws IOException {
        return run(spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /**
     * The common form, {@code sluice wc [-lwmc] FILE...}, without picocli (see {@link PlainForm}).
     *
     * @return the exit code, or null when picocli must handle these arguments
     */
    static Integer runPlainForm(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length < 2 || !args[0].equals("wc")) {
            return null;
        }
        WcCommand c = new WcCommand();
        Plain plain = c.new Plain();
        List<String> names = PlainForm.parse(args, plain);
        if (names == null) {
            return null;
        }
        c.files = names;
        return PlainForm.run(plain, out, err, 1);
    }

    /** The plain form's options (-l, -w, -m, -c, grouped or not) and work. */
    private final class Plain implements PlainForm.Options, PlainForm.Body {
        @Override
        public int run(PrintWriter out, PrintWriter err) throws IOException {
            return WcCommand.this.run(out, err);
        }

        @Override
        public boolean letter(char ch) {
            switch (ch) {
                case 'l':
                    lines = true;
                    return true;
                case 'w':
                    words = true;
                    return true;
                case 'm':
                    chars = true;
                    return true;
                case 'c':
                    bytes = true;
                    return true;
                default:
                    return false;
            }
        }
    }

    private int run(PrintWriter out, PrintWriter err) throws IOException {
        if (!lines && !words && !chars && !bytes) {
            lines = words = bytes = true;
        }
        List<String> names = files.isEmpty() ? List.of("-") : files;
        int width = width(names);
        Counts total = new Counts();
        int status = 0;
        for (String name : names) {
            Counts c;
            if (!name.equals("-") && Files.isDirectory(Path.of(name))) {
                // As wc: an error, and a line of zeros for it.
                out.flush();
                err.println("sluice: wc: " + name + ": Is a directory");
                err.flush();
                status = 1;
                c = new Counts();
            } else {
                try {
                    c = count(name);
                } catch (IOException e) {
                    out.flush();
                    err.println("sluice: wc: " + Main.describe(e));
                    err.flush();
                    status = 1;
                    continue;
                }
            }
            total.lines += c.lines;
            total.words += c.words;
            total.chars += c.chars;
            total.bytes += c.bytes;
            out.println(format(c, width, files.isEmpty() ? null : name));
        }
        if (names.size() > 1) {
            out.println(format(total, width, "total"));
        }
        out.flush();
        return status;
    }

    /**
     * GNU wc's column width: 1 for a single count of a single input, else the digits of the summed sizes of the
     * regular files, at least 7 when an input is not a regular file (its size is unknown).
     */
    private int width(List<String> names) {
        int asked = (lines ? 1 : 0) + (words ? 1 : 0) + (chars ? 1 : 0) + (bytes ? 1 : 0);
        if (names.size() == 1 && asked == 1) {
            return 1;
        }
        long total = 0;
        int minimum = 1;
        for (String name : names) {
            Path p = Path.of(name);
            if (!name.equals("-") && !Files.exists(p)) {
                continue; // a file that cannot be stat'ed does not count
            }
            if (name.equals("-") || !Files.isRegularFile(p)) {
                minimum = 7;
                continue;
            }
            try {
                total += Files.size(p);
            } catch (IOException e) {
                // counted as failed, as wc does
            }
        }
        return Math.max(minimum, Long.toString(total).length());
    }

    private String format(Counts c, int width, String name) {
        StringBuilder sb = new StringBuilder();
        appendCount(sb, lines, c.lines, width);
        appendCount(sb, words, c.words, width);
        appendCount(sb, chars, c.chars, width);
        appendCount(sb, bytes, c.bytes, width);
        if (name != null) {
            sb.append(' ').append(name);
        }
        return sb.toString();
    }

    private static void appendCount(StringBuilder sb, boolean wanted, long value, int width) {
        if (!wanted) {
            return;
        }
        if (sb.length() > 0) {
            sb.append(' ');
        }
        String s = Long.toString(value);
        for (int i = s.length(); i < width; i++) {
            sb.append(' ');
        }
        sb.append(s);
    }

    private Counts count(String name) throws IOException {
        Counts c = new Counts();
        boolean stdin = name.equals("-");
        try (ReadableByteChannel raw = stdin ? Channels.newChannel(System.in) : FileChannel.open(Path.of(name))) {
            CountingChannel ch = new CountingChannel(raw);
            if (words || chars) {
                countText(ch, c);
            } else if (lines) {
                c.lines = countNewlines(ch);
            } else if (!stdin) {
                c.bytes = ((FileChannel) raw).size(); // -c alone: the size is the answer, as wc uses fstat
                return c;
            } else {
                countNewlines(ch);
            }
            c.bytes = ch.count;
        }
        return c;
    }

    /** Counts '\n' bytes eight at a time: no decoding is needed for lines, whatever the encoding. */
    private static long countNewlines(ReadableByteChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long n = 0;
        while (ch.read(buf) >= 0) {
            buf.flip();
            while (buf.remaining() >= 8) {
                long x = buf.getLong() ^ 0x0A0A0A0A0A0A0A0AL;
                // Exact zero-byte test (no false positives from borrows): high bit set where a byte of x is 0.
                long t = ((x & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | x;
                n += Long.bitCount(~t & 0x8080808080808080L);
            }
            while (buf.hasRemaining()) {
                if (buf.get() == '\n') {
                    n++;
                }
            }
            buf.clear();
        }
        return n;
    }

    private static final long HIGH = 0x8080808080808080L;
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte OTHER = 0;
    private static final byte SEPARATOR = 1;
    private static final byte NON_PRINTABLE = 2;
    /** Word classes of the ASCII chars, the common case, looked up rather than computed. */
    private static final byte[] ASCII_CLASS = new byte[128];

    static {
        for (int i = 0; i < 128; i++) {
            ASCII_CLASS[i] = i < 0x20 || i == 0x7F ? NON_PRINTABLE : OTHER;
        }
        for (char s : new char[] {' ', '\t', '\n', 0x0B, '\f', '\r'}) {
            ASCII_CLASS[s] = SEPARATOR;
        }
    }

    private static byte classOf(int cp) {
        if (cp < 128) {
            return ASCII_CLASS[cp];
        }
        if (cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F || cp == 0x205F
                || cp == 0x2060 || cp == 0x3000) {
            return SEPARATOR;
        }
        int type = Character.getType(cp);
        return type == Character.CONTROL || type == Character.UNASSIGNED || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE ? NON_PRINTABLE : OTHER;
    }

    /**
     * Counts lines, words and chars of UTF-8 text. A chunk of bytes that is all printable ASCII and ASCII white space
     * (most chunks of source code) is counted as bytes, eight at a time, without decoding; any other chunk is decoded
     * with the JDK's decoder (which replaces malformed input as FastReader does) and counted as chars. A sequence cut
     * by the chunk's end stays in the buffer for the next chunk, so chunks never change the result.
     */
    private void countText(ReadableByteChannel ch, Counts c) throws IOException {
        TextCounter counter = new TextCounter();
        ByteBuffer bytes = ByteBuffer.allocate(1 << 16);
        CharBuffer chars = CharBuffer.allocate(1 << 16);
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
        boolean eof = false;
        while (!eof) {
            eof = ch.read(bytes) < 0;
            bytes.flip();
            if (counter.countPlainAscii(bytes.array(), bytes.position(), bytes.limit())) {
                bytes.position(bytes.limit());
            } else {
                for (;;) {
                    CoderResult r = decoder.decode(bytes, chars, eof);
                    chars.flip();
                    counter.count(chars.array(), chars.limit());
                    chars.clear();
                    if (!r.isOverflow()) {
                        break;
                    }
                }
                if (eof) {
                    decoder.flush(chars);
                }
            }
            bytes.compact();
        }
        c.lines = counter.lines;
        c.words = counter.words + counter.inWord;
        c.chars = counter.chars;
    }

    /**
     * Counts lines, words and code points chunk by chunk. A method per chunk rather than one loop over the file: the
     * JIT compiles a method called many times fully, where one long-running loop only gets on-stack replacement.
     */
    static final class TextCounter {
        long lines;
        long words;
        long chars;
        int inWord; // 1 inside a word
        char high; // a high surrogate whose low half may start the next chunk

        void count(char[] buf, int n) {
            long nLines = 0;
            long nWords = 0;
            long nChars = 0;
            int in = inWord;
            char h = high;
            for (int i = 0; i < n; i++) {
                char ch = buf[i];
                int cls;
                if (ch < 0x80 && h == 0) {
                    cls = ASCII_CLASS[ch];
                    nLines += ch == '\n' ? 1 : 0;
                } else {
                    int cp;
                    if (h != 0) {
                        // The decoder yields no lone surrogate from UTF-8; one here would count as a char.
                        cp = Character.isLowSurrogate(ch) ? Character.toCodePoint(h, ch) : ch;
                        h = 0;
                    } else if (Character.isHighSurrogate(ch)) {
                        h = ch;
                        continue;
                    } else {
                        cp = ch;
                    }
                    cls = classOf(cp);
                }
                nChars++;
                // Without branches (word boundaries are too irregular to predict): a separator ends a word, a
                // printable char is in one, a non-printable char changes nothing.
                int sep = cls == SEPARATOR ? 1 : 0;
                nWords += sep & in;
                in = (cls == OTHER ? 1 : 0) | (in & (sep ^ 1));
            }
            lines += nLines;
            words += nWords;
            chars += nChars;
            inWord = in;
            high = h;
        }

        /**
         * The common chunk: bytes of printable ASCII and ASCII white space only (source code, logs), counted eight at
         * a time without decoding. Whether a byte is in a word then depends on that byte alone, so words are counted
         * as their starts. Counts nothing and returns false when {@code b[from, to)} holds anything else (or a high
         * surrogate is pending), for the caller to decode.
         */
        boolean countPlainAscii(byte[] b, int from, int to) {
            if (high != 0) {
                return false;
            }
            long special = 0; // high bits: a byte that is not ASCII, or not printable and not white space
            long nLines = 0;
            long starts = 0;
            long carry = inWord == 1 ? 0x80L : 0; // "the byte before is in a word", at byte 0's high bit
            int i = from;
            for (; i + 8 <= to; i += 8) {
                long x = (long) LONGS.get(b, i);
                long low = x & LOW7;
                // Each sum sets a byte's high bit exactly when the byte is at least the bound (no carries: low < 0x80).
                long ge09 = low + 0x7777777777777777L;
                long ge0E = low + 0x7272727272727272L;
                long ge20 = low + 0x6060606060606060L;
                long ge21 = low + 0x5F5F5F5F5F5F5F5FL;
                long ge7F = low + 0x0101010101010101L;
                long word = ge21 & ~ge7F & HIGH; // 0x21..0x7E
                long space = (ge09 & ~ge0E | ge20 & ~ge21) & HIGH; // \t \n \v \f \r and ' '
                special |= (x | ~(word | space)) & HIGH;
                long nl = low ^ 0x0A0A0A0A0A0A0A0AL;
                nLines += Long.bitCount(~((nl & LOW7) + LOW7 | nl) & HIGH);
                starts += Long.bitCount(word & ~(word << 8 | carry));
                carry = word >>> 56;
            }
            int prev = carry != 0 ? 1 : 0;
            for (; i < to; i++) {
                int ch = b[i];
                int cls = ch < 0 ? NON_PRINTABLE : ASCII_CLASS[ch];
                special |= cls >>> 1; // NON_PRINTABLE (2), or not ASCII
                nLines += ch == '\n' ? 1 : 0;
                int word = cls == OTHER ? 1 : 0;
                starts += word & (prev ^ 1);
                prev = word;
            }
            if (special != 0) {
                return false;
            }
            // count() adds a word when a separator ends it and the caller adds the one still open at the end.
            words += starts + inWord - prev;
            inWord = prev;
            lines += nLines;
            chars += to - from;
            return true;
        }
    }

    /** Passes reads through and counts the bytes, for -c alongside decoded counts. */
    private static final class CountingChannel implements ReadableByteChannel {
        private final ReadableByteChannel ch;
        long count;

        CountingChannel(ReadableByteChannel ch) {
            this.ch = ch;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            int n = ch.read(dst);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return ch.isOpen();
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }
}
