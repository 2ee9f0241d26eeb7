package dev.sluice.bench.experiments;

import java.util.Locale;

/**
 * One measured cell of an experiment: a named strategy ({@code variant}) at one setting ({@code param}, e.g. a file
 * size or an array size), moving {@code bytes} bytes per operation.
 *
 * @param variant what is measured, as the report shows it (e.g. "JDK BufferedInputStream")
 * @param param the setting the variant is compared at; variants with the same param are measured in the same rounds
 * @param bytes bytes of file data one run of the workload moves (for MB/s; for a memory case, one per open stream)
 * @param workload the operation itself
 * @param wholeProcess the workload runs threads of its own: its CPU time is the process's, its allocation every
 *     thread's (else the calling thread's)
 * @param reference drawn as a reference line only, never a candidate of advice
 */
public record Case(String variant, String param, long bytes, Workload workload, boolean wholeProcess,
                   boolean reference) {

    public Case(String variant, String param, long bytes, Workload workload) {
        this(variant, param, bytes, workload, false, false);
    }

    /** A stable key for this case within its experiment: JMH's {@code caseKey} parameter. */
    public String key() {
        return slug(param) + "/" + slug(variant);
    }

    static String slug(String s) {
        String t = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        return t.replaceAll("^-+|-+$", "");
    }
}
