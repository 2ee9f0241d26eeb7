package dev.sluice.bench.experiments;

import java.util.SplittableRandom;

/** Seeded generators of text for machines without a text corpus installed. */
final class TextGen {
    private TextGen() {}

    private static final String[] LATIN1_WORDS = {
        "Straße", "über", "Müller", "größer", "déjà", "café", "élève", "garçon", "façade", "naïve", "año", "niño",
        "señor", "São", "coração", "fjord", "smörgåsbord", "Ørsted", "the", "and", "of", "to", "in", "data", "file",
        "stream", "buffer", "read", "write", "Java", "und", "der", "die", "das", "le", "la", "les", "et", "est",
        "que", "por", "para", "com", "não", "après", "être", "Köln", "Zürich", "Málaga"
    };

    /** About {@code chars} chars of space-separated European words, lines of ~70 chars. */
    static String latin1(int chars) {
        SplittableRandom r = new SplittableRandom(1);
        StringBuilder sb = new StringBuilder(chars + 80);
        int line = 0;
        while (sb.length() < chars) {
            String w = LATIN1_WORDS[r.nextInt(LATIN1_WORDS.length)];
            sb.append(w);
            line += w.length() + 1;
            if (line > 70) {
                sb.append(r.nextInt(4) == 0 ? ".\n" : "\n");
                line = 0;
            } else {
                sb.append(' ');
            }
        }
        return sb.toString();
    }

    /**
     * About {@code chars} chars shaped like Japanese prose: hiragana runs, katakana words, CJK ideographs,
     * punctuation, and some ASCII (man pages are about a third ASCII).
     */
    static String japanese(int chars) {
        SplittableRandom r = new SplittableRandom(2);
        StringBuilder sb = new StringBuilder(chars + 80);
        int line = 0;
        while (sb.length() < chars) {
            int kind = r.nextInt(10);
            int len = 1 + r.nextInt(5);
            for (int i = 0; i < len; i++) {
                char c;
                if (kind < 4) {
                    c = (char) (0x3041 + r.nextInt(0x3093 - 0x3041));      // hiragana
                } else if (kind < 6) {
                    c = (char) (0x30A1 + r.nextInt(0x30F6 - 0x30A1));      // katakana
                } else if (kind < 9) {
                    c = (char) (0x4E00 + r.nextInt(0x9FA5 - 0x4E00));      // CJK unified ideographs
                } else {
                    c = (char) ('a' + r.nextInt(26));                      // ASCII
                }
                sb.append(c);
            }
            line += len;
            if (r.nextInt(8) == 0) {
                sb.append(r.nextBoolean() ? '、' : '。');
            }
            if (line > 40) {
                sb.append('\n');
                line = 0;
            }
        }
        return sb.toString();
    }
}
