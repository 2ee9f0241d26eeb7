package dev.sluice.bench.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The experiments, in report order. */
public final class Experiments {
    private Experiments() {}

    private static final List<Experiment> ALL = List.of(
            new E1ByteAtATime(), new E2BufferSweep(), new E3OpenStrategies(), new E4Readers(), new E5Gzip(),
            new E6Available(), new E7CopyCompare());

    public static List<Experiment> all() {
        return ALL;
    }

    /** The experiment with this id (case-insensitive), or IllegalArgumentException naming it and the valid ids. */
    public static Experiment byId(String id) {
        for (Experiment e : ALL) {
            if (e.id().equalsIgnoreCase(id.trim())) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown experiment: " + id + " (known: " + ids() + ")");
    }

    /** Parses "E2,E5" (or "all"/empty for every experiment), in report order, without duplicates. */
    public static List<Experiment> select(String only) {
        if (only == null || only.isBlank() || only.trim().toLowerCase(Locale.ROOT).equals("all")) {
            return ALL;
        }
        List<Experiment> picked = new ArrayList<>();
        for (String id : only.split(",")) {
            Experiment e = byId(id);
            if (!picked.contains(e)) {
                picked.add(e);
            }
        }
        picked.sort((a, b) -> ALL.indexOf(a) - ALL.indexOf(b));
        return picked;
    }

    public static String ids() {
        StringBuilder sb = new StringBuilder();
        for (Experiment e : ALL) {
            sb.append(sb.length() == 0 ? "" : ", ").append(e.id());
        }
        return sb.toString();
    }
}
