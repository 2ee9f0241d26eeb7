package dev.sluice.bench.experiments;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.bench.DataFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs the experiments and writes their raw measurements as JSON: what {@code sluice report} launches in a child
 * JVM (the peers it measures live only in this module's jar, never in the CLI's).
 *
 * <pre>
 * java -cp benchmarks.jar dev.sluice.bench.experiments.QuickRunner --data-dir DIR --out raw.json
 *      [--scale tiny|quick|full] [--only E1,E2] [--user-data DIR] [--harness quick|jmh] [--fork N]
 *      [--reads page-cached|cold] [--claims C14,C17] [--prepare true] [--rehome true]
 * </pre>
 *
 * <p>One run is one fork: the CLI starts the runner {@link Scale#forks} times, one after the other, with
 * {@code --fork 0, 1, …}, and pools their samples. Each sample is one timed repetition
 * {@code {fork, round, order, nanos, bytes, ops, cpuNanos, allocatedBytes, gcCount, gcMillis[, retainedBytes]}}
 * ({@link Measure}): in round {@code r} the variants of a comparison run once each,
 * starting at variant {@code r mod n} (the order rotates, so no variant always runs first or after the same one).
 *
 * <p>{@code --claims} runs only the experiments that declare the named claims, each as a planned fork runs it up to
 * the last comparison those claims name ({@link #lookPrefix}), after a settling pass over the same cases
 * ({@link #settle}): an extra look the CLI takes at claims whose interval straddled their threshold after the planned
 * forks (docs/design/report.md, "Adaptive rounds"). Its raw results name the claims. {@code --prepare true} makes
 * the data and measures nothing; with {@code --rehome true} it also writes every data file again into new pages
 * ({@link #rehome}), which the CLI asks for before every fork after the first.
 *
 * <p>Standard output carries one line per event for the parent's progress bars: {@code START E1 16},
 * {@code STEP E1 3 16 <variant> @ <param>}, {@code END E1}. Every other line is a message for the user.
 * Exit status 0 on success, 2 on bad arguments or a failed run (with one line on stderr).
 */
public final class QuickRunner {
    private QuickRunner() {}

    /** The raw format's name and version; the CLI checks it before reading. */
    public static final String FORMAT = "sluice-raw-results/3";

    public static void main(String[] args) {
        try {
            run(args, System.out);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("sluice-runner: " + e.getMessage());
            System.exit(2);
        }
    }

    static void run(String[] args, PrintStream events) throws IOException {
        Map<String, String> opt = parse(args);
        Path dataDir = Path.of(require(opt, "--data-dir"));
        Path out = Path.of(require(opt, "--out"));
        Scale scale = Scale.of(opt.getOrDefault("--scale", "quick"));
        Path userData = opt.containsKey("--user-data") ? Path.of(opt.get("--user-data")) : null;
        String harness = opt.getOrDefault("--harness", "quick");
        int fork = Integer.parseInt(opt.getOrDefault("--fork", "0"));
        String reads = opt.getOrDefault("--reads", "page-cached");
        if (!reads.equals("page-cached") && !reads.equals("cold")) {
            throw new IllegalArgumentException("unknown reads: " + reads + " (page-cached or cold)");
        }
        boolean cold = reads.equals("cold");
        if (!harness.equals("quick") && !harness.equals("jmh")) {
            throw new IllegalArgumentException("unknown harness: " + harness + " (quick or jmh)");
        }
        List<Experiment> selected = Experiments.select(opt.get("--only"));
        List<String> claimIds = opt.containsKey("--claims") ? List.of(opt.get("--claims").split(",")) : null;
        Corpus corpus = new Corpus(dataDir, scale, userData);
        if (Boolean.parseBoolean(opt.getOrDefault("--prepare", "false"))) {
            prepare(selected, corpus, dataDir, Boolean.parseBoolean(opt.getOrDefault("--rehome", "false")));
            return;
        }

        List<Map<String, Object>> experiments = new ArrayList<>();
        for (Experiment e : selected) {
            List<Case> cases = e.cases(corpus);
            if (claimIds != null) {
                if (!declaresAny(e.claims(scale), claimIds)) {
                    continue;
                }
                cases = lookPrefix(cases, e.claims(scale), claimIds);
                settle(cases, scale);
            }
            events.println("START " + e.id() + " " + cases.size());
            events.flush();
            List<Map<String, Object>> rows = new ArrayList<>();
            Map<String, List<Case>> groups = new LinkedHashMap<>();
            for (Case c : cases) {
                groups.computeIfAbsent(c.param(), k -> new ArrayList<>()).add(c);
            }
            Map<Case, Map<String, Object>> rowOf = new LinkedHashMap<>();
            int done = 0;
            for (List<Case> group : groups.values()) {
                if (harness.equals("jmh")) {
                    for (Case c : group) {
                        Map<String, Object> row = row(c);
                        try {
                            double[] nanos = JmhHarness.nanosPerOp(e, c, corpus);
                            List<Map<String, Object>> samples = new ArrayList<>();
                            for (int i = 0; i < nanos.length; i++) {
                                // JMH's iteration scores are per operation: one sample per iteration, one op each.
                                // JMH measures time only: CPU and allocation are not known (-1).
                                samples.add(sample(fork, i, 0, new Measure.Rep(Math.round(nanos[i]), -1, -1, -1, -1, -1),
                                        c.bytes(), 1));
                            }
                            row.put("samples", samples);
                        } catch (IOException | RuntimeException ex) {
                            row.put("error", ex.getClass().getSimpleName() + ": " + ex.getMessage());
                        }
                        rowOf.put(c, row);
                        step(events, e, ++done, cases.size(), c);
                    }
                } else {
                    measureGroup(group, scale, fork, cold ? dataDir : null, rowOf, events, e, done, cases.size());
                    done += group.size();
                    step(events, e, done, cases.size(), group.get(group.size() - 1));
                }
            }
            for (Case c : cases) {
                rows.add(rowOf.get(c));
            }
            Map<String, Object> exp = new LinkedHashMap<>();
            exp.put("id", e.id());
            exp.put("title", e.title());
            exp.put("claim", e.claim());
            exp.put("claims", e.claims(scale).stream().map(Claim::toJson).toList());
            exp.put("advice", e.advice(scale).stream().map(Advice::toJson).toList());
            exp.put("cases", rows);
            experiments.add(exp);
            events.println("END " + e.id());
            events.flush();
        }

        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", FORMAT);
        root.put("scale", scale.name());
        root.put("harness", harness.equals("jmh") ? "JMH " + JmhHarness.version() : "quick in-process estimate");
        root.put("reps", harness.equals("jmh") ? JmhHarness.MEASUREMENT_ITERATIONS : scale.reps());
        root.put("fork", fork);
        root.put("reads", reads);
        if (claimIds != null) {
            root.put("claims", claimIds);
        }
        root.put("warmupNanos", harness.equals("jmh") ? -1 : scale.warmupNanos());
        root.put("rule", Claim.RULE_TEXT);
        root.put("jvm", jvmDescription());
        root.put("dataDir", dataDir.toAbsolutePath().toString());
        List<String> sources = new ArrayList<>(corpus.sources());
        if (cold) {
            sources.add(Cold.HOW);
        }
        if (JmhHarness.lockIgnored) {
            sources.add("note: another JMH run held this machine's JMH lock for over 2 minutes; measured beside it");
        }
        root.put("sources", sources);
        root.put("experiments", experiments);
        root.put("sink", Measure.sink);
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), root);
    }

    /**
     * Makes the data of the selected experiments (their cases name every file) and writes it to disk, measuring
     * nothing: the CLI runs this in a JVM of its own before fork 0. When fork 0 made the data itself, it measured
     * in a JVM whose JIT had profiled the corpus makers' streams (a zip, tar and gzip pipeline through the JDK's
     * stream classes, the Japanese pages' gunzip) and while the kernel was writing back the fresh files: over four
     * quick runs, fork 0 was the odd fork out of several claims (C10 0.96x against 0.86x in forks 1 and 2, C17 1.18x
     * against 1.01-1.05x, C19 1.22x against 1.04-1.06x). Now every fork starts alike.
     */
    static void prepare(List<Experiment> selected, Corpus corpus, Path dataDir, boolean rehome) throws IOException {
        for (Experiment e : selected) {
            e.cases(corpus);
        }
        for (Path p : dataFiles(dataDir)) {
            if (rehome) {
                rehome(p);
            }
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(p,
                    java.nio.file.StandardOpenOption.READ)) {
                ch.force(true);
            }
        }
    }

    /**
     * The regular files in the data directory but the forks' raw results, which the CLI writes there as JSON (no
     * data file is JSON).
     */
    private static List<Path> dataFiles(Path dataDir) throws IOException {
        try (java.util.stream.Stream<Path> files = Files.list(dataDir)) {
            return files.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().endsWith(".json"))
                    .sorted().toList();
        }
    }

    /**
     * Writes {@code p} again, a page at a time ({@link DataFiles#inPages}), into a new file renamed over it, and
     * reads it once: the bytes are the same, the pages that cache them are new ones. Where in physical memory a
     * page-cached file lies is one of the things that change how fast small reads of it are: six 32 MiB files made
     * alike (single pages, 4 KiB writes) took 7.9-11.2 ms to read with 4 KiB arrays and 7.1-9.3 ms with 8 KiB ones,
     * most keeping their own speed across three JVMs (one at 1.10-1.14, another at 1.18-1.23). Data made once per
     * run gives every fork the same placement, a state of the whole run that no interval within it sees (C25 at
     * 1.16x in all seven forks of one run and 1.25x in all five of the next); data placed anew before each fork makes
     * it one more fork-to-fork difference, which the intervals resample, where the allocator's state lets the new
     * pages lie elsewhere (docs/design/report.md, "Data in single pages", which also says what it did not settle).
     */
    static void rehome(Path p) throws IOException {
        Path tmp = Files.createTempFile(p.getParent(), "rehome", ".tmp");
        try {
            try (java.io.InputStream in = Files.newInputStream(p);
                 java.io.OutputStream out = DataFiles.inPages(Files.newOutputStream(tmp))) {
                in.transferTo(out);
            }
            Files.move(tmp, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        DataFiles.warm(p);
    }

    /**
     * Whether an experiment declares one of the claims named in {@code ids}: an extra look runs such an experiment
     * with every case in the planned order (up to its claims' last comparison: {@link #lookPrefix}), because a cell
     * measured alone is not the cell the planned forks measured. The JIT compiles the code the variants share for the stream classes it has seen; run alone, a pair
     * of cells gets code the planned forks never had. In one quick run (2026-11-28) C16's four extra forks of its
     * cells alone gave 0.90-0.99x against 1.08-1.11x in the planned forks, and in four runs C10's ~5% more than
     * its planned forks 1 and 2.
     */
    static boolean declaresAny(List<Claim> claims, List<String> ids) {
        return claims.stream().anyMatch(c -> ids.contains(c.id()));
    }

    /**
     * The cases an extra look at {@code ids} runs: the experiment's cases in the planned order up to the last
     * comparison (param) whose cells one of those claims names, and none after. What a planned fork measured before
     * those comparisons runs as it did there; what it measured after them cannot have changed them, and is left out
     * (an extra look at C14 and C16, files of 16 B-32 KiB, skips E3's 500 KB and 5 MB: ~2 s of its ~8 s). The CLI
     * estimates a look's cost over the same cases ({@code AdaptiveRounds.seconds}).
     */
    static List<Case> lookPrefix(List<Case> cases, List<Claim> claims, List<String> ids) {
        Set<String> named = new HashSet<>();
        for (Claim c : claims) {
            if (ids.contains(c.id())) {
                for (Claim.Pair p : c.pairs()) {
                    for (List<Claim.Cell> side : List.of(p.a(), p.b(), p.c())) {
                        side.forEach(cell -> named.add(cell.param()));
                    }
                }
            }
        }
        int last = -1;
        for (int i = 0; i < cases.size(); i++) {
            if (named.contains(cases.get(i).param())) {
                last = i;
            }
        }
        // Cases of one comparison are listed together: the prefix ends with the last case of that comparison.
        while (last >= 0 && last + 1 < cases.size() && cases.get(last + 1).param().equals(cases.get(last).param())) {
            last++;
        }
        return last < 0 ? cases : cases.subList(0, last + 1);
    }

    /**
     * An extra look's settling pass: every case it will measure is warmed up once, as {@link Measure#calibrate}
     * does, and nothing is recorded. A planned fork measures E3 after E1 and E2 (about 40 s of the JDK's file code);
     * an extra fork measures its experiment first, in a fresh JVM. In the quick runs of 2026-11-28 (rpt-y1, rpt-y2)
     * every extra fork of E3 measured its first comparison (16 B files) before the JIT had settled: the first 3-4
     * of its 6 rounds ran about twice as slow as the rest for all six variants (FileInputStream 9.2 against 5.2
     * us per file), while no planned fork did; paired rounds in that state gave ratios near 1 where the planned forks
     * measured 1.16-1.23, and those forks pulled C14's and C16's looks down. Cases that fail here fail again, and are
     * recorded, when measured.
     */
    static void settle(List<Case> cases, Scale scale) {
        for (Case c : cases) {
            try {
                Loops.use(Loops.isolated());
                Measure.calibrate(c.workload(), scale);
            } catch (IOException | RuntimeException ex) {
                // Recorded by the measured pass.
            }
        }
        Loops.use(null);
    }

    /** The measuring JVM as the report's header shows it: version, flags, garbage collectors, maximum heap. */
    static String jvmDescription() {
        List<String> gcs = new ArrayList<>();
        for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs.add(gc.getName());
        }
        List<String> flags = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
        return System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version") + "; flags: " + (flags.isEmpty() ? "none" : String.join(" ", flags))
                + "; GC: " + String.join(", ", gcs) + "; max heap " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB"
                + "; Sluice gunzip engine: " + dev.sluice.gzip.GzipEngines.inflateEngine();
    }

    private static Map<String, Object> row(Case c) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("variant", c.variant());
        row.put("param", c.param());
        row.put("key", c.key());
        row.put("bytesPerOp", c.bytes());
        row.put("wholeProcess", c.wholeProcess());
        row.put("reference", c.reference());
        return row;
    }

    private static void step(PrintStream events, Experiment e, int done, int total, Case c) {
        events.println("STEP " + e.id() + " " + done + " " + total + " " + c.variant() + " @ " + c.param());
        events.flush();
    }

    /**
     * The quick harness over one comparison: warms up and calibrates each variant, then takes paired rounds: in
     * round {@code r} every variant runs one repetition, starting at variant {@code r mod n} and going round, so a
     * burst of load from elsewhere on the machine hits a whole round (whose ratios the report takes) rather than one
     * variant, and no variant always runs first. A variant that throws is recorded with its error and left out. In a
     * page-cached run a claim with rounds of its own ({@link Experiment#claimRounds}) then has its two cells go on
     * alone, round after round, until it has them.
     */
    static void measureGroup(List<Case> group, Scale scale, int fork, Path coldDir,
                             Map<Case, Map<String, Object>> rowOf, PrintStream events, Experiment e,
                             int doneBefore, int total) {
        Map<Case, Long> ops = new LinkedHashMap<>();
        Map<Case, List<Map<String, Object>>> samples = new LinkedHashMap<>();
        // Each case's shared loops run in a copy of their own, as a user's loop sees one stream class (see LoopBody).
        Map<Case, Loops.Body> loops = new LinkedHashMap<>();
        for (Case c : group) {
            rowOf.put(c, row(c));
            try {
                loops.put(c, Loops.isolated());
                Loops.use(loops.get(c));
                ops.put(c, Measure.calibrate(c.workload(), scale));
                samples.put(c, new ArrayList<>());
            } catch (IOException | RuntimeException ex) {
                rowOf.get(c).put("error", ex.getClass().getSimpleName() + ": " + ex.getMessage());
            }
            step(events, e, doneBefore, total, c);   // message only: the count moves when the group is done
        }
        int n = group.size();
        // Cold reads keep the scale's rounds: a plan of more rounds is sized on page-cached spread (Experiment.rounds,
        // Experiment.claimRounds).
        int rounds = coldDir == null ? e.rounds(group.get(0).param(), scale) : scale.reps();
        for (int r = 0; r < rounds; r++) {
            announce(events, e, doneBefore, total, r, rounds, group.get(0).param());
            for (int k = 0; k < n; k++) {
                measureOne(group.get((r + k) % n), fork, r, k, ops, samples, loops, coldDir, rowOf);
            }
        }
        // A claim's own rounds (Experiment.claimRounds): its two cells alone, numbered on, the order alternating.
        for (OwnRounds own : coldDir == null ? ownRounds(e, scale, group) : List.<OwnRounds>of()) {
            for (int r = rounds; r < own.rounds(); r++) {
                announce(events, e, doneBefore, total, r, own.rounds(), group.get(0).param());
                for (int k = 0; k < 2; k++) {
                    measureOne((r + k) % 2 == 0 ? own.a() : own.b(), fork, r, k, ops, samples, loops, null, rowOf);
                }
            }
        }
        Loops.use(null);
        samples.forEach((c, s) -> rowOf.get(c).put("samples", s));
    }

    private static void announce(PrintStream events, Experiment e, int doneBefore, int total, int r, int rounds,
                                 String param) {
        events.println("STEP " + e.id() + " " + doneBefore + " " + total + " round " + (r + 1) + "/" + rounds
                + " @ " + param);
        events.flush();
    }

    /** One timed repetition of {@code c} in round {@code r} at position {@code k}; a failure drops the case. */
    private static void measureOne(Case c, int fork, int r, int k, Map<Case, Long> ops,
                                   Map<Case, List<Map<String, Object>>> samples, Map<Case, Loops.Body> loops,
                                   Path coldDir, Map<Case, Map<String, Object>> rowOf) {
        List<Map<String, Object>> s = samples.get(c);
        if (s == null) {
            return;
        }
        try {
            long o = ops.get(c);
            if (coldDir != null) {   // cold: one operation, straight after the data left the page cache
                o = 1;
                Cold.drop(coldDir);
            }
            Loops.use(loops.get(c));
            s.add(sample(fork, r, k, Measure.rep(c, o), c.bytes() * o, o));
        } catch (IOException | RuntimeException ex) {
            rowOf.get(c).put("error", ex.getClass().getSimpleName() + ": " + ex.getMessage());
            samples.remove(c);
        }
    }

    /** A claim's two cells in one comparison and the paired rounds per fork it is planned to have. */
    record OwnRounds(Case a, Case b, int rounds) {}

    /**
     * The claims of {@link Experiment#claimRounds} whose two sides are one cell each of {@code group}, with their
     * cases: a claim over more cells, or over another comparison, has no rounds of its own here.
     */
    static List<OwnRounds> ownRounds(Experiment e, Scale scale, List<Case> group) {
        Map<String, Integer> plan = e.claimRounds(scale);
        List<OwnRounds> own = new ArrayList<>();
        for (Claim claim : e.claims(scale)) {
            if (!plan.containsKey(claim.id()) || claim.pairs().size() != 1) {
                continue;
            }
            Claim.Pair p = claim.pairs().get(0);
            if (p.a().size() != 1 || p.b().size() != 1 || !p.c().isEmpty()) {
                continue;
            }
            Case a = find(group, p.a().get(0));
            Case b = find(group, p.b().get(0));
            if (a != null && b != null) {
                own.add(new OwnRounds(a, b, plan.get(claim.id())));
            }
        }
        return own;
    }

    private static Case find(List<Case> group, Claim.Cell cell) {
        for (Case c : group) {
            if (c.variant().equals(cell.variant()) && c.param().equals(cell.param())) {
                return c;
            }
        }
        return null;
    }

    private static Map<String, Object> sample(int fork, int round, int order, Measure.Rep rep, long bytes, long ops) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fork", fork);
        m.put("round", round);
        m.put("order", order);
        m.put("nanos", rep.nanos());
        m.put("bytes", bytes);
        m.put("ops", ops);
        m.put("cpuNanos", rep.cpuNanos());
        m.put("allocatedBytes", rep.allocatedBytes());
        m.put("gcCount", rep.gcCount());
        m.put("gcMillis", rep.gcMillis());
        if (rep.retainedBytes() >= 0) {
            m.put("retainedBytes", rep.retainedBytes());
        }
        return m;
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got: " + args[i]);
            }
            m.put(args[i], args[++i]);
        }
        return m;
    }

    private static String require(Map<String, String> opt, String name) {
        String v = opt.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing " + name);
        }
        return v;
    }
}
