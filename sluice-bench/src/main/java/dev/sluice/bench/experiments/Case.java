package dev.sluice.bench.experiments;

import java.util.Locale;

/**
 * One measured cell of an experiment: a named strategy ({@code variant}) at one setting ({@code param}, e.g. a file
 * size or an array size), moving {@code bytes} bytes per operation.
 *
 * @param variant what is measured, as the report shows it (e.g. "JDK BufferedInputStream")
 * @param param the setting the variant is compared at; variants with the same param are compared with each other
 * @param bytes bytes of file data one run of the workload moves (for MB/s)
 * @param workload the operation itself
 */
public record Case(String variant, String param, long bytes, Workload workload) {

    /** A stable key for this case within its experiment: JMH's {@code caseKey} parameter. */
    public String key() {
        return slug(param) + "/" + slug(variant);
    }

    static String slug(String s) {
        String t = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        return t.replaceAll("^-+|-+$", "");
    }
}
