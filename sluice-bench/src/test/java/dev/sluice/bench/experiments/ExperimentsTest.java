package dev.sluice.bench.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Param;

/**
 * The experiments compute what they claim to: within one comparison (same experiment, same param) every variant
 * returns the same sum of the bytes or chars it read, so a fast variant cannot be fast by skipping work.
 */
class ExperimentsTest {
    @TempDir
    static Path dir;

    static Corpus corpus;

    @BeforeAll
    static void makeData() throws IOException {
        corpus = new Corpus(dir.resolve("data"), Scale.TINY, null);
    }

    /**
     * E3's out-of-line sum adds up exactly what the inlined one does, for reads of every length (a stream that
     * returns random short reads, seeded), and the compile command the runners get names a method that exists: a
     * rename would otherwise silently put the sum back inline (docs/design/report.md, "E3's sum out of line").
     */
    @Test
    void theOutOfLineSumAddsUpTheSameBytesAndItsCompileCommandNamesIt() throws Exception {
        long seed = System.nanoTime();
        System.out.println("theOutOfLineSum seed " + seed);
        java.util.Random random = new java.util.Random(seed);
        byte[] data = new byte[70_001];
        random.nextBytes(data);
        for (int array : new int[] {1, 7, 8192}) {
            long expected = Loops.sumBytes(new java.io.ByteArrayInputStream(data), array);
            java.io.InputStream shortReads = new java.io.FilterInputStream(new java.io.ByteArrayInputStream(data)) {
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    return super.read(b, off, len == 0 ? 0 : 1 + random.nextInt(len));
                }
            };
            assertEquals(expected, Loops.sumBytesOutOfLine(shortReads, array), "seed " + seed + ", array " + array);
        }
        java.lang.reflect.Method addUp = Sink.class.getDeclaredMethod("addUp", byte[].class, int.class);
        assertTrue(java.lang.reflect.Modifier.isStatic(addUp.getModifiers()));
        assertEquals(List.of("-XX:CompileCommand=quiet",
                "-XX:CompileCommand=dontinline," + Sink.class.getName() + "::" + addUp.getName()), Sink.DONT_INLINE);
    }

    /**
     * Every case's loops run in a class of their own (a hidden copy of LoopBody, so that the JIT profiles it alone),
     * and a copy computes exactly what the shared loops do.
     */
    @Test
    void isolatedLoopsAreSeparateClassesThatComputeTheSame() throws IOException {
        Loops.Body a = Loops.isolated();
        Loops.Body b = Loops.isolated();
        assertTrue(a.getClass() != b.getClass() && a.getClass() != LoopBody.class, "each copy is a class of its own");
        assertTrue(a.getClass().isHidden(), a.getClass().getName());
        Path src = corpus.bytes(corpus.scale().byteLoopBytes());
        long shared = Loops.copyByteAtATime(Files.newInputStream(src), java.io.OutputStream.nullOutputStream());
        try {
            Loops.use(a);
            assertEquals(shared, Loops.copyByteAtATime(Files.newInputStream(src),
                    java.io.OutputStream.nullOutputStream()));
            assertEquals(Loops.sumBytes(Files.newInputStream(src), 512), Loops.poll(Files.newInputStream(src), 512));
            Loops.use(b);
            assertEquals(shared, Loops.byteAtATime(Files.newInputStream(src)));
        } finally {
            Loops.use(null);
        }
    }

    @Test
    void variantsOfOneComparisonAgreeOnTheResult() throws IOException {
        for (Experiment e : Experiments.all()) {
            Map<String, Long> firstByParam = new LinkedHashMap<>();
            Map<String, String> firstVariant = new LinkedHashMap<>();
            Set<String> keys = new HashSet<>();
            for (Case c : e.cases(corpus)) {
                assertTrue(keys.add(c.key()), e.id() + ": duplicate case key " + c.key());
                assertTrue(c.bytes() > 0, e.id() + " " + c.key());
                long r = c.workload().run();
                // E2's array cells read the same file: all agree; elsewhere, per param.
                String group = e.id().equals("E2") && c.param().startsWith("array ") ? "all" : c.param();
                if (c.reference()) {
                    // A reference loop that does nothing with the bytes returns how many it moved.
                    Long sum = firstByParam.get(group);
                    assertTrue(sum == null || sum == r || r == c.bytes(), e.id() + " " + c.key() + ": " + r);
                    continue;
                }
                Long first = firstByParam.putIfAbsent(group, r);
                firstVariant.putIfAbsent(group, c.variant());
                if (first != null) {
                    assertEquals(first.longValue(), r, e.id() + " " + c.key() + " disagrees with " + firstVariant.get(group));
                }
            }
        }
    }

    @Test
    void copiesAreExact() throws IOException {
        Path src = corpus.bytes();
        for (Case c : Experiments.byId("E7").cases(corpus)) {
            if (c.param().equals(E7CopyCompare.TO_NULL)) {
                assertEquals(Files.size(src), c.workload().run(), c.key());
            } else if (c.param().equals(E7CopyCompare.COPY)) {
                Files.deleteIfExists(corpus.scratch("e7-copy"));
                assertEquals(Files.size(src), c.workload().run(), c.key());
                assertEquals(-1, Files.mismatch(src, corpus.scratch("e7-copy")), c.key());
            } else {
                assertEquals(1, c.workload().run(), c.key());
            }
        }
    }

    @Test
    void corporaHaveTheirSizesAndEncodings() throws IOException {
        assertEquals(4096, Files.size(corpus.japanese(4096)));
        assertEquals(1 << 20, Files.size(corpus.bytes()));
        String latin = new String(Files.readAllBytes(corpus.latin1(65536)), StandardCharsets.ISO_8859_1);
        assertTrue(latin.chars().anyMatch(ch -> ch > 127), "Latin-1 text has non-ASCII letters");
        String ja = new String(Files.readAllBytes(corpus.japanese(65536)), StandardCharsets.UTF_8);
        assertTrue(ja.chars().filter(ch -> ch >= 0x3040).count() > 1000, "Japanese text has kana/kanji");
        assertTrue(!corpus.sources().isEmpty());
    }

    @Test
    void jmhDefaultCaseKeysExist() throws Exception {
        // The JMH classes' default scale is quick: their default keys must name quick-scale cases.
        Corpus quick = new Corpus(dir.resolve("quick"), Scale.QUICK, null);
        for (Experiment e : Experiments.all()) {
            Class<?> bench = Class.forName(ExperimentBench.class.getPackageName() + "." + e.id() + "Bench");
            Param p = bench.getField("caseKey").getAnnotation(Param.class);
            assertNotNull(p, bench.getName());
            Set<String> keys = new HashSet<>();
            for (Case c : e.cases(corpus)) {
                keys.add(c.key());
            }
            if (!keys.containsAll(List.of(p.value()))) {
                // Only some experiments have quick-only sizes; making quick data for all would cost seconds.
                for (Case c : e.cases(quick)) {
                    keys.add(c.key());
                }
            }
            for (String k : p.value()) {
                assertTrue(keys.contains(k), bench.getSimpleName() + ": no case " + k + " in " + keys);
            }
        }
    }

    /**
     * The 27 claims are declared once each, and every cell a claim or an advice names is a case of its experiment, at
     * the tiny and the quick scale; the rule's shape fits the claim.
     */
    @Test
    void everyClaimIsDeclaredOnceAndNamesCasesThatExist() throws IOException {
        Corpus quick = new Corpus(dir.resolve("quick"), Scale.QUICK, null);
        for (Corpus co : List.of(corpus, quick)) {
            List<String> ids = new java.util.ArrayList<>();
            for (Experiment e : Experiments.all()) {
                Set<Claim.Cell> cells = new HashSet<>();
                for (Case c : e.cases(co)) {
                    cells.add(new Claim.Cell(c.variant(), c.param()));
                }
                for (Claim claim : e.claims(co.scale())) {
                    ids.add(claim.id());
                    assertTrue(!claim.pairs().isEmpty(), claim.id());
                    for (Claim.Pair p : claim.pairs()) {
                        assertTrue(!p.a().isEmpty() && !p.b().isEmpty(), claim.id() + " " + p);
                        assertEquals(claim.rule() == Claim.Rule.DIMINISHING, !p.c().isEmpty(), claim.id());
                    }
                    for (Claim.Cell cell : claim.cells()) {
                        assertTrue(cells.contains(cell), co.scale().name() + " " + claim.id() + ": no case " + cell);
                    }
                }
                for (Advice a : e.advice(co.scale())) {
                    for (String p : a.params()) {
                        for (String v : a.candidates()) {
                            assertTrue(cells.contains(new Claim.Cell(v, p)), a.basis() + ": no case " + v + " @ " + p);
                        }
                    }
                    assertEquals(a.property() == null ? 0 : a.candidates().size(), a.sizes().size(), a.basis());
                }
            }
            List<String> expected = new java.util.ArrayList<>();
            for (int i = 1; i <= 27; i++) {
                expected.add(String.format(java.util.Locale.ROOT, "C%02d", i));
            }
            assertEquals(expected, ids.stream().sorted().toList(), "each of C01-C27 once");
        }
    }

    /**
     * Planned rounds: at the quick scale E2's comparisons holding C05's cells take {@link E2BufferSweep#C05_ROUNDS},
     * every other comparison of every experiment the scale's rounds; C10's two cells go on alone to
     * {@link E6Available#C10_ROUNDS}, and no other claim has rounds of its own; the tiny (CI) scale plans no more
     * anywhere.
     */
    @Test
    void moreRoundsAreOnlyPlannedForC05sComparisonsAndC10sCellsInAQuickRun() throws IOException {
        Corpus quick = new Corpus(dir.resolve("quick"), Scale.QUICK, null);
        for (Corpus co : List.of(corpus, quick)) {
            Map<String, Integer> plan = new LinkedHashMap<>();
            Map<String, Integer> own = new LinkedHashMap<>();
            for (Experiment e : Experiments.all()) {
                for (Claim claim : e.claims(co.scale())) {
                    if (claim.id().equals("C05")) {
                        claim.cells().forEach(cell -> plan.put(e.id() + " " + cell.param(), E2BufferSweep.C05_ROUNDS));
                    }
                }
                own.putAll(e.claimRounds(co.scale()));
            }
            Set<String> c05 = co.scale() == Scale.QUICK ? Set.of("E2 array 512 B", "E2 array 1 KiB")
                    : Set.of("E2 array 512 B");
            assertEquals(c05, plan.keySet());
            assertEquals(co.scale() == Scale.QUICK ? Map.of("C10", E6Available.C10_ROUNDS) : Map.of(), own);
            for (Experiment e : Experiments.all()) {
                List<Case> cases = e.cases(co);
                for (Case c : cases) {
                    Integer planned = co.scale() == Scale.QUICK ? plan.get(e.id() + " " + c.param()) : null;
                    assertEquals(planned != null ? planned : co.scale().reps(), e.rounds(c.param(), co.scale()),
                            co.scale().name() + " " + e.id() + " " + c.param());
                }
                // Each planned claim finds its two cells in exactly one comparison.
                Map<String, List<Case>> groups = new LinkedHashMap<>();
                cases.forEach(c -> groups.computeIfAbsent(c.param(), k -> new java.util.ArrayList<>()).add(c));
                long found = groups.values().stream()
                        .mapToLong(g -> QuickRunner.ownRounds(e, co.scale(), g).size()).sum();
                assertEquals(e.claimRounds(co.scale()).size(), found, e.id());
            }
        }
    }

    /**
     * A claim's own rounds: after the comparison's rounds with every variant, its two cells alone go on, numbered on,
     * the order alternating, up to its planned count; the comparison's other variants keep the comparison's rounds.
     */
    @Test
    void aClaimsOwnRoundsMeasureItsTwoCellsAloneAfterTheComparisonsRounds() throws IOException {
        List<Case> group = List.of(new Case("a", "p", 1, () -> 1), new Case("b", "p", 1, () -> 1),
                new Case("c", "p", 1, () -> 1));
        Experiment fake = new Experiment("E9", "fake", "fake") {
            @Override
            public List<Case> cases(Corpus corpus) {
                return group;
            }

            @Override
            public List<Claim> claims(Scale scale) {
                return List.of(new Claim("C99", Claim.Source.A, "b beats a", "1.1x", Claim.Rule.BETTER, 1.1,
                        Claim.Metric.TIME, "fake", List.of(new Claim.Pair(Claim.at("b", "p"), Claim.at("a", "p"))),
                        false, null));
            }

            @Override
            public Map<String, Integer> claimRounds(Scale scale) {
                return Map.of("C99", 7);
            }
        };
        Map<Case, Map<String, Object>> rows = new LinkedHashMap<>();
        QuickRunner.measureGroup(group, Scale.TINY, 1, null, rows, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), fake, 0, 3);
        Map<String, List<Map<String, Object>>> samples = new LinkedHashMap<>();
        rows.forEach((c, row) -> {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> s = (List<Map<String, Object>>) row.get("samples");
            samples.put(c.variant(), s);
        });
        assertEquals(Scale.TINY.reps(), samples.get("c").size(), "not in the claim: the comparison's rounds only");
        for (String v : List.of("a", "b")) {
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), samples.get(v).stream().map(m -> m.get("round")).toList(), v);
        }
        // Own rounds alternate: b (side A) first in round 4 and 6, a first in 3 and 5.
        assertEquals(List.of(1, 0, 1, 0), samples.get("b").subList(3, 7).stream().map(m -> m.get("order")).toList());
        assertEquals(List.of(0, 1, 0, 1), samples.get("a").subList(3, 7).stream().map(m -> m.get("order")).toList());
        // Cold reads keep the scale's rounds.
        rows.clear();
        QuickRunner.measureGroup(group, Scale.TINY, 1, dir.resolve("data"), rows, new PrintStream(
                new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), fake, 0, 3);
        rows.values().forEach(row -> assertEquals(Scale.TINY.reps(), ((List<?>) row.get("samples")).size()));
    }

    @Test
    void selectParsesIdsInReportOrderAndRejectsUnknownOnes() {
        assertEquals(List.of("E2", "E5"), Experiments.select("e5,E2,E5").stream().map(Experiment::id).toList());
        assertEquals(7, Experiments.select("all").size());
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Experiments.select("E2,E9"));
        assertTrue(ex.getMessage().contains("E9"), ex.getMessage());
    }

    @Test
    void quickRunnerWritesRawJsonAndProgressEvents() throws IOException {
        Path out = dir.resolve("raw.json");
        ByteArrayOutputStream events = new ByteArrayOutputStream();
        QuickRunner.run(new String[] {"--data-dir", dir.resolve("data").toString(), "--scale", "tiny",
                "--only", "E6", "--out", out.toString()}, new PrintStream(events, true, StandardCharsets.UTF_8));
        String ev = events.toString(StandardCharsets.UTF_8);
        assertTrue(ev.startsWith("START E6 8\n"), ev);
        assertTrue(ev.contains("STEP E6 8 8 "), ev);
        JsonNode root = new ObjectMapper().readTree(out.toFile());
        assertEquals(QuickRunner.FORMAT, root.get("format").asText());
        JsonNode cases = root.get("experiments").get(0).get("cases");
        assertEquals(8, cases.size());
        JsonNode samples = cases.get(0).get("samples");
        assertEquals(Scale.TINY.reps(), samples.size());
        for (int r = 0; r < samples.size(); r++) {
            JsonNode sm = samples.get(r);
            assertEquals(r, sm.get("round").asInt());
            assertEquals(0, sm.get("fork").asInt());
            assertTrue(sm.get("nanos").asLong() > 0 && sm.get("bytes").asLong() > 0 && sm.get("ops").asLong() > 0);
        }
        // The order rotates: the first case of a comparison of 6 variants runs first in round 0, last in round 1.
        assertEquals(0, samples.get(0).get("order").asInt());
        assertEquals(5, samples.get(1).get("order").asInt());
        for (JsonNode c : cases) {
            for (JsonNode sm : c.get("samples")) {
                // CPU time can read 0 for a repetition shorter than the clock's tick; allocation is counted exactly.
                assertTrue(sm.get("cpuNanos").asLong() >= 0 && sm.get("allocatedBytes").asLong() > 0, sm.toString());
                assertTrue(sm.has("gcCount") && sm.has("gcMillis"), sm.toString());
            }
        }
        JsonNode claims = root.get("experiments").get(0).get("claims");
        assertEquals(List.of("C08", "C09", "C10"), claims.findValuesAsText("id"));
    }

    @Test
    void coldRunsTakeOneOperationPerRepetitionAfterDroppingTheData() throws IOException {
        Path out = dir.resolve("cold.json");
        QuickRunner.run(new String[] {"--data-dir", dir.resolve("data").toString(), "--scale", "tiny",
                "--only", "E3", "--out", out.toString(), "--reads", "cold", "--fork", "2"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        JsonNode root = new ObjectMapper().readTree(out.toFile());
        assertEquals("cold", root.get("reads").asText());
        assertTrue(root.get("sources").toString().contains("dd iflag=nocache"), root.get("sources").toString());
        for (JsonNode c : root.get("experiments").get(0).get("cases")) {
            for (JsonNode sm : c.get("samples")) {
                assertEquals(1, sm.get("ops").asLong(), c.toString());
                assertEquals(2, sm.get("fork").asInt());
            }
        }
    }

    /**
     * An extra look ({@code --claims}) runs the experiments declaring the named claims, as a planned fork runs them
     * up to the claims' last comparison (at the tiny scale C14's files are all of E3's sizes: the whole experiment),
     * and no other; its raw results say which claims it was for.
     */
    @Test
    void anExtraLookRunsTheExperimentsOfItsClaimsWhole() throws IOException {
        Path out = dir.resolve("look.json");
        QuickRunner.run(new String[] {"--data-dir", dir.resolve("data").toString(), "--scale", "tiny",
                "--only", "E3,E6", "--out", out.toString(), "--fork", "3", "--claims", "C14"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        JsonNode root = new ObjectMapper().readTree(out.toFile());
        assertEquals("[\"C14\"]", root.get("claims").toString());
        assertEquals(1, root.get("experiments").size(), "E6 declares no C14: " + root.get("experiments"));
        JsonNode e3 = root.get("experiments").get(0);
        assertEquals("E3", e3.get("id").asText());
        Set<Claim.Cell> expected = new HashSet<>();
        for (Case c : new E3OpenStrategies().cases(new Corpus(dir.resolve("data"), Scale.TINY, null))) {
            expected.add(new Claim.Cell(c.variant(), c.param()));
        }
        Set<Claim.Cell> ran = new HashSet<>();
        for (JsonNode c : e3.get("cases")) {
            ran.add(new Claim.Cell(c.get("variant").asText(), c.get("param").asText()));
            assertEquals(3, c.get("samples").get(0).get("fork").asInt());
        }
        assertEquals(expected, ran);
        assertEquals(4, e3.get("claims").size(), "the experiment's claims still travel whole");
    }

    /**
     * An extra look stops after the last comparison its claims name: C10's cells are all in E6's first comparison
     * (the article's loop), so a look at C10 runs its six cases and not the two of the earlier set-up after it; the
     * cases it runs are first warmed up once by a settling pass, which records nothing.
     */
    @Test
    void anExtraLookRunsItsExperimentUpToItsClaimsLastComparison() throws IOException {
        Path out = dir.resolve("look-c10.json");
        QuickRunner.run(new String[] {"--data-dir", dir.resolve("data").toString(), "--scale", "tiny",
                "--only", "E6", "--out", out.toString(), "--fork", "4", "--claims", "C10"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        JsonNode e6 = new ObjectMapper().readTree(out.toFile()).get("experiments").get(0);
        List<Case> all = new E6Available().cases(corpus);
        List<String> expected = all.stream().filter(c -> c.param().equals(E6Available.ARTICLE))
                .map(c -> c.variant()).toList();
        assertEquals(6, expected.size());
        assertEquals(expected, e6.get("cases").findValuesAsText("variant"));
        for (JsonNode c : e6.get("cases")) {
            assertEquals(E6Available.ARTICLE, c.get("param").asText());
            assertEquals(Scale.TINY.reps(), c.get("samples").size(), "the settling pass records nothing");
        }
        // C08 and C09 name the same comparison (their "also" cells of the earlier set-up are never looked at).
        List<Claim> claims = new E6Available().claims(Scale.TINY);
        assertEquals(all.subList(0, 6), QuickRunner.lookPrefix(all, claims, List.of("C08", "C09")));
        // A claim of E3's last comparison (C15: at --tiny, its largest file) takes the whole experiment.
        List<Case> e3 = new E3OpenStrategies().cases(corpus);
        assertEquals(e3, QuickRunner.lookPrefix(e3, new E3OpenStrategies().claims(Scale.TINY), List.of("C15")));
        int[] runs = new int[1];
        QuickRunner.settle(List.of(new Case("v", "p", 1, () -> ++runs[0])), Scale.TINY);
        assertTrue(runs[0] >= 2, "warmed up as calibrate does (at least two operations): " + runs[0]);
    }

    /** {@code --prepare} makes the data of the selected experiments and measures nothing (no raw results). */
    @Test
    void prepareMakesTheDataAndMeasuresNothing() throws IOException {
        Path data = dir.resolve("prepared");
        Path out = dir.resolve("prepared.json");
        ByteArrayOutputStream events = new ByteArrayOutputStream();
        QuickRunner.run(new String[] {"--data-dir", data.toString(), "--scale", "tiny", "--only", "E6",
                "--out", out.toString(), "--fork", "-1", "--prepare", "true"},
                new PrintStream(events, true, StandardCharsets.UTF_8));
        assertTrue(!Files.exists(out), "nothing measured, nothing written");
        assertEquals("", events.toString(StandardCharsets.UTF_8), "no experiment started");
        try (java.util.stream.Stream<Path> files = Files.list(data)) {
            assertTrue(files.anyMatch(p -> p.toString().endsWith(".tar") || p.toString().endsWith(".bin")),
                    "the E6 file is made");
        }
    }

    /**
     * {@code --rehome} writes every data file again into a new file (a new inode, so new pages in the cache) with
     * the same bytes, and leaves the forks' raw results (JSON) alone.
     */
    @Test
    void rehomeWritesEveryDataFileAnewWithTheSameBytes() throws IOException {
        Path data = dir.resolve("rehomed");
        Path out = data.resolve("raw-results--1.json");
        String[] args = {"--data-dir", data.toString(), "--scale", "tiny", "--only", "E6,E7",
                "--out", out.toString(), "--fork", "-1", "--prepare", "true"};
        QuickRunner.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        Path raw = data.resolve("raw-results-0.json");
        Files.writeString(raw, "{}");
        Map<Path, Object> inodes = new LinkedHashMap<>();
        Map<Path, byte[]> bytes = new LinkedHashMap<>();
        try (java.util.stream.Stream<Path> files = Files.list(data)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                inodes.put(p, Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class).fileKey());
                bytes.put(p, Files.readAllBytes(p));
            }
        }
        assertTrue(bytes.size() >= 3, "E6's and E7's files and the raw results: " + bytes.keySet());
        String[] again = java.util.Arrays.copyOf(args, args.length + 2);
        again[args.length] = "--rehome";
        again[args.length + 1] = "true";
        QuickRunner.run(again, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try (java.util.stream.Stream<Path> files = Files.list(data)) {
            assertEquals(bytes.keySet(), files.filter(Files::isRegularFile).collect(java.util.stream.Collectors.toSet()),
                    "no file made or left behind");
        }
        for (Path p : bytes.keySet()) {
            assertTrue(java.util.Arrays.equals(bytes.get(p), Files.readAllBytes(p)), p + ": the same bytes");
            Object key = Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            if (inodes.get(p) != null) { // file keys are (device, inode) on Linux
                assertEquals(p.equals(raw), inodes.get(p).equals(key), p + ": a new file unless it is raw results");
            }
        }
    }

    /** Every documented cause names a declared claim, says what changed, and gives its sources. */
    @Test
    void everyCauseNamesAClaimAndItsSources() {
        Set<String> ids = new HashSet<>();
        for (Experiment e : Experiments.all()) {
            e.claims(Scale.QUICK).forEach(c -> ids.add(c.id()));
        }
        assertTrue(Causes.ids().contains("C13"));
        for (String id : Causes.ids()) {
            assertTrue(ids.contains(id), id);
            Causes.Cause c = Causes.of(id);
            assertTrue(!c.sources().isEmpty() && c.sources().stream().allMatch(s -> s.startsWith("https://")), id);
            assertTrue(c.text().contains("JDK"), c.text());
        }
        assertTrue(Causes.of("C13").text().contains("JDK-8192939") && Causes.of("C13").text().contains("JDK 12"));
    }
}
