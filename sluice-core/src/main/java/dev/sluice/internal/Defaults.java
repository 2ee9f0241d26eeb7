package dev.sluice.internal;

/**
 * Reads the {@code sluice.*} system properties that override a default, so that the settings {@code sluice tune}
 * and {@code sluice report} recommend apply without code changes. Each default itself is a named constant in the
 * class it governs, whose javadoc cites the benchmark that chose it.
 */
public final class Defaults {
    private Defaults() {}

    /**
     * Returns the integer system property {@code name} if it is set to a positive number, else {@code fallback}.
     * A malformed or non-positive value is ignored rather than failing class initialisation: a typo in a tuning
     * flag must not take an application down. A value may end in {@code k} or {@code m} (KiB, MiB).
     */
    public static int intProperty(String name, int fallback) {
        return intProperty(name, 1, fallback);
    }

    /**
     * Returns the integer system property {@code name} if it is set to a number of at least {@code min}, else
     * {@code fallback}; otherwise as {@link #intProperty(String, int)} (for settings where 0 means something).
     */
    public static int intProperty(String name, int min, int fallback) {
        String raw;
        try {
            raw = System.getProperty(name);
        } catch (SecurityException e) {
            return fallback;
        }
        if (raw == null) {
            return fallback;
        }
        try {
            long v = parseSize(raw.trim());
            return v >= min && v <= Integer.MAX_VALUE - 8 ? (int) v : fallback;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** Parses {@code 4096}, {@code 64k}, {@code 1m} (binary units, case-insensitive). */
    public static long parseSize(String s) {
        if (s.isEmpty()) {
            throw new NumberFormatException("empty size");
        }
        char last = Character.toLowerCase(s.charAt(s.length() - 1));
        long unit = last == 'k' ? 1024 : last == 'm' ? 1024 * 1024 : last == 'g' ? 1024L * 1024 * 1024 : 1;
        String digits = unit == 1 ? s : s.substring(0, s.length() - 1);
        return Math.multiplyExact(Long.parseLong(digits), unit);
    }
}
