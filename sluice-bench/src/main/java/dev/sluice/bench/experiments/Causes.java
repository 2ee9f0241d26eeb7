package dev.sluice.bench.experiments;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why a claim no longer holds, where the reason is a documented change to the JDK or the OS: one table, by claim id,
 * beside the claims it speaks of ({@link Claim}). Facts only, each with the sources that state it; a claim that is
 * not here and did not hold gets "cause unknown" in the report. A cause travels with its claim into the raw results
 * and results.json, and {@code sluice report} shows it under a verdict of "did not hold" only.
 */
final class Causes {
    private Causes() {}

    /** A documented change and where it is documented (addresses anyone can open). */
    record Cause(String text, List<String> sources) {
        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("text", text);
            m.put("sources", sources);
            return m;
        }
    }

    private static final Map<String, Cause> KNOWN = Map.of(
            "C13", new Cause("FileInputStream no longer uses finalization. The article measured it when every "
                    + "FileInputStream was finalizable, which, as the CSR that ended it says, \"adds a significant "
                    + "overhead to garbage collection\". JDK 10 dropped the requirement that FileInputStream use "
                    + "finalization (CSR JDK-8187325) and JDK 12 removed FileInputStream.finalize() (JDK-8192939). "
                    + "JDK 17 and later, the JDKs Sluice runs on, have no finalizer there to pressure the collector.",
                    List.of("https://bugs.openjdk.org/browse/JDK-8187325",
                            "https://bugs.openjdk.org/browse/JDK-8192939",
                            "https://github.com/openjdk/jdk/pull/3111")));

    /** The documented cause of claim {@code id}'s change, or null where none is known. */
    static Cause of(String id) {
        return KNOWN.get(id);
    }

    /** The claim ids with a known cause (for the check that each names a declared claim). */
    static java.util.Set<String> ids() {
        return KNOWN.keySet();
    }
}
