package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Outcome;
import dev.sluice.cli.report.Report.Recommendation;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Verdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * index.html: one self-contained page (inline CSS and SVG, no script, nothing fetched), so it can be mailed or
 * attached to an issue. At the top, the machine, every claim's measured ratio and interval against its threshold, and
 * the verdict table; then per experiment its comparisons (dots with interval bars; size sweeps as log-x lines; small
 * files in µs per operation) and every number.
 */
final class HtmlPage {
    private HtmlPage() {}

    private static final String CSS = String.join("\n",
            "body{font:15px/1.45 system-ui,sans-serif;max-width:1150px;margin:2em auto;padding:0 1em;color:#222}",
            "h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}",
            ".env{background:#f5f7fa;border:1px solid #dde;padding:.6em 1em;border-radius:4px}",
            ".env dt{font-weight:bold;float:left;clear:left;width:8em}.env dd{margin-left:8.5em}",
            "table{border-collapse:collapse;margin:.8em 0;font-size:.9em}",
            "th,td{border:1px solid #ccd;padding:.25em .6em;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}",
            "th{background:#eef2f7}caption{caption-side:top;text-align:left;color:#555;font-size:.85em;padding:.3em 0}",
            ".held{color:#176c2f;font-weight:bold}.did-not-hold{color:#a3260f;font-weight:bold}.inconclusive{color:#777;font-weight:bold}",
            ".not-judged-here{color:#999;font-style:italic}tr.greyed td{color:#999;background:#fafafa}",
            ".cause{font-size:.9em;color:#5a3a00}",
            "figure{margin:.8em 0}figcaption{font-size:.8em;color:#555;max-width:760px}",
            "code{background:#f2f2f2;padding:0 .25em}.note{color:#555;font-size:.9em}");

    static final String HELD = "#2ca02c";
    static final String NOT_HELD = "#d62728";
    static final String OPEN = "#888888";
    static final String NOT_JUDGED = "#cccccc";

    static void write(Report report, Path file) throws IOException {
        Files.writeString(file, render(report), StandardCharsets.UTF_8);
    }

    static String render(Report report) {
        Report.Environment env = report.environment();
        StringBuilder h = new StringBuilder(1 << 16);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sluice report</title><style>")
                .append(CSS).append("</style></head><body>\n");
        h.append("<h1>Sluice report: the classic Java I/O experiments on this machine</h1>\n");
        h.append("<dl class=\"env\">");
        dt(h, "CPU", env.cpu() + " (" + env.cores() + " cores)");
        dt(h, "OS", env.os());
        dt(h, "JDK", env.jdk());
        dt(h, "JVM", env.jvm());
        dt(h, "File system", env.fileSystem() + "; " + env.reads() + " reads");
        dt(h, "Harness", env.harness() + ": " + env.forks() + " JVM forks × " + env.repetitions()
                + " paired rounds per case, more where an experiment plans them from earlier runs' spread (each case's"
                + " samples count them); the variants of a comparison take turns, order rotated each round");
        dt(h, "Rounds", rounds(env));
        dt(h, "Data", String.join("; ", report.dataSources()));
        dt(h, "Generated", report.generated() + " by " + report.command());
        h.append("</dl>\n");

        h.append("<h2>Claims at a glance</h2>\n");
        h.append("<p class=\"note\">").append(esc(report.rule())).append(" Intervals: "
                + Verdicts.percent(1 - AdaptiveRounds.LOOK_ALPHA) + " bootstrap over forks, then rounds within them, "
                + "of the median of the paired per-round ratios, the same level at every look (see Rounds above).</p>\n");
        h.append("<figure>").append(claimsChart(report)).append("<figcaption>Each claim's measured ratio (dot) and "
                + Verdicts.percent(1 - AdaptiveRounds.LOOK_ALPHA) + " interval (bar) on a log axis; the black tick is its threshold; green held, red did not hold, "
                + "grey inconclusive here; claims about disks in a page-cached run are not judged here (no bar: rerun "
                + "with --cold). ")
                .append(esc(env.caption())).append("</figcaption></figure>\n");
        Map<String, String[]> sources = new java.util.TreeMap<>();
        for (ExperimentReport e : report.experiments()) {
            for (Report.ClaimSpec c : e.claims()) {
                sources.putIfAbsent(c.source(), new String[] {c.sourceTitle(), c.sourceYear()});
            }
        }
        List<Verdict> all = Reports.sorted(report);
        for (Map.Entry<String, String[]> src : sources.entrySet()) {
            h.append("<h3>").append(esc(src.getKey() + ": " + src.getValue()[0] + " (" + src.getValue()[1] + ")"))
                    .append("</h3>\n<table><tr><th>id</th><th>claim</th><th>metric</th><th>claimed</th>"
                    + "<th>measured [" + Verdicts.percent(1 - AdaptiveRounds.LOOK_ALPHA) + " CI]</th><th>threshold</th><th>verdict</th><th>reads</th></tr>\n");
            for (Verdict v : all) {
                if (!src.getKey().equals(v.source())) {
                    continue;
                }
                h.append(v.outcome() == Outcome.NOT_JUDGED ? "<tr class=\"greyed\">" : "<tr>").append("<td>")
                        .append(esc(v.id())).append(" <span class=\"note\">")
                        .append(esc(Reports.experimentOf(report, v))).append("</span></td><td>").append(esc(v.claim()))
                        .append("<br><span class=\"note\">").append(esc(v.setup())).append(" Rule: ")
                        .append(esc(v.rule())).append(".</span>");
                if (v.also() != null) {
                    h.append("<br><span class=\"note\">Also measured (not judged): ").append(esc(v.also().label()))
                            .append(": ").append(esc(v.also().measured() == null ? "not measured"
                                    : Verdicts.x(v.also().measured()) + " [" + Verdicts.x(v.also().ci()[0]) + ", "
                                    + Verdicts.x(v.also().ci()[1]) + "], " + outcomeText(v.also().outcome())
                                    + " by the same rule")).append("</span>");
                }
                for (String n : v.notes()) {
                    h.append("<br><span class=\"note\">").append(esc(n)).append("</span>");
                }
                if (v.looks() > 1) {
                    h.append("<br><span class=\"note\">").append(esc(v.summary())).append(".</span>");
                }
                if (v.cause() != null) {
                    h.append("<br><span class=\"cause\"><b>Why it did not hold:</b> ").append(esc(v.cause().text()));
                    for (String address : v.cause().sources()) {
                        h.append(" <a href=\"").append(esc(address)).append("\">").append(esc(address)).append("</a>");
                    }
                    h.append("</span>");
                }
                h.append("</td><td>").append(esc(v.metric())).append("</td><td>").append(esc(v.claimed()))
                        .append("</td><td class=\"n\">").append(esc(measured(v))).append("</td><td class=\"n\">")
                        .append(esc(Verdicts.x(v.threshold()) + (v.upper() == null ? "" : "–" + Verdicts.x(v.upper()))))
                        .append("</td><td class=\"").append(cls(v.outcome())).append("\">")
                        .append(esc(outcomeText(v.outcome())))
                        .append(v.outcome() == Outcome.NOT_JUDGED ? "<br>rerun with --cold" : "")
                        .append("</td><td>").append(esc(v.reads())).append("</td></tr>\n");
            }
            h.append("</table>\n");
        }

        if (report.byJdk() != null) {
            h.append("<h2>Across JDKs</h2>\n<table><caption>The same claims on each JDK, same data and machine: "
                    + "verdict, measured ratio [" + Verdicts.percent(1 - AdaptiveRounds.LOOK_ALPHA) + " CI]. Each JDK's full report is in the directory named.</caption><tr>"
                    + "<th>id</th><th>claim</th><th>metric</th>");
            for (Report.JdkColumn c : report.byJdk()) {
                h.append("<th>").append(esc(c.jdk())).append("<br><span class=\"note\">").append(esc(c.directory()))
                        .append("</span></th>");
            }
            h.append("</tr>\n");
            List<Report.JdkVerdict> first = report.byJdk().get(0).verdicts();
            for (int i = 0; i < first.size(); i++) {
                h.append("<tr><td>").append(esc(first.get(i).id())).append("</td><td>")
                        .append(esc(first.get(i).claim())).append("</td><td>").append(esc(first.get(i).metric()))
                        .append("</td>");
                for (Report.JdkColumn c : report.byJdk()) {
                    Report.JdkVerdict v = i < c.verdicts().size() ? c.verdicts().get(i) : null;
                    h.append(v == null ? "<td>-</td>" : "<td class=\"" + cls(v.outcome()) + "\">"
                            + esc(Reports.cell(v) + " (" + v.reads() + ")") + "</td>");
                }
                h.append("</tr>\n");
            }
            h.append("</table>\n");
        }

        h.append("<h2>Recommendations</h2>\n<p class=\"note\">Only from like-for-like comparisons, and only where the "
                + "winner leads the runner-up by at least " + Math.round((Recommendations.BAND - 1) * 100) + "% (the "
                + "practical-equivalence band), its interval excludes 1 and it was ahead in every fork.</p>\n");
        if (env.scale().equals("tiny")) {
            h.append("<p class=\"note\"><b>A --tiny run:</b> the numbers are not meaningful; do not apply these "
                    + "settings.</p>\n");
        }
        h.append("<ul>\n");
        for (Recommendation r : report.recommendations()) {
            h.append("<li>");
            if (r.jvmFlag() != null) {
                h.append("<code>").append(esc(r.jvmFlag())).append("</code>: ");
            }
            h.append(esc(r.advice())).append(" <span class=\"note\">[").append(esc(r.basis())).append("]</span></li>\n");
        }
        h.append("</ul>\n");

        for (ExperimentReport e : report.experiments()) {
            h.append("<h2 id=\"").append(esc(e.id())).append("\">").append(esc(e.id())).append(": ").append(esc(e.title()))
                    .append("</h2>\n<p><b>Claim:</b> ").append(esc(e.claim())).append("</p>\n");
            for (Verdict v : e.verdicts()) {
                h.append("<p>").append(esc(v.id())).append(" <span class=\"").append(cls(v.outcome())).append("\">")
                        .append(esc(outcomeText(v.outcome()))).append("</span> (").append(esc(v.reads())).append("): ")
                        .append(esc(v.claim())).append(" ").append(esc(v.summary()))
                        .append(v.cause() == null ? "" : " <span class=\"cause\">Cause: " + esc(v.cause().text())
                                + "</span>").append("</p>\n");
            }
            charts(h, e, env);
            table(h, e, env);
        }
        h.append("<p class=\"note\">Raw numbers, every sample: <a href=\"results.json\">results.json</a> (schema: ")
                .append("<a href=\"results.schema.json\">results.schema.json</a>), <a href=\"results.csv\">results.csv</a>.</p>\n");
        h.append("</body></html>\n");
        return h.toString();
    }

    private static void dt(StringBuilder h, String term, String value) {
        h.append("<dt>").append(esc(term)).append("</dt><dd>").append(esc(value)).append("</dd>");
    }

    /** The planned forks, the budget of extra looks and what this run spent, and the rule. */
    static String rounds(Report.Environment env) {
        Report.Rounds r = env.rounds();
        String planned = env.forks() + " planned forks × " + env.repetitions() + " rounds for every claim (more where planned)";
        if (r == null) {
            return planned + "; no extra looks recorded.";
        }
        if (r.budgetSeconds() == 0) {
            return planned + "; no extra looks in a " + env.scale() + " run (only the quick run has a budget for "
                    + "them). Measuring took " + Math.round(r.elapsedSeconds()) + " s.";
        }
        return String.format(Locale.ROOT, "%s; %d extra fork%s (budget: the whole run within %d s; measuring took "
                + "%d s). %s", planned, r.extraForks(), r.extraForks() == 1 ? "" : "s", r.budgetSeconds(),
                Math.round(r.elapsedSeconds()), r.rule());
    }

    static String outcomeText(Outcome o) {
        return o == Outcome.INCONCLUSIVE ? "inconclusive here" : o.text();
    }

    private static String cls(Outcome o) {
        return o.text().replace(' ', '-');
    }

    static String measured(Verdict v) {
        if (v.outcome() == Outcome.NOT_JUDGED) {
            return "not measured here";
        }
        return v.measured() == null ? "not measured" : Verdicts.x(v.measured()) + " [" + Verdicts.x(v.ci()[0]) + ", "
                + Verdicts.x(v.ci()[1]) + "]" + (v.level() != 1 - AdaptiveRounds.LOOK_ALPHA ? " at "
                + Verdicts.percent(v.level()) : "");
    }

    static String claimsChart(Report report) {
        List<Svg.Row> rows = new ArrayList<>();
        for (Verdict v : Reports.sorted(report)) {
            String color = v.outcome() == Outcome.HELD ? HELD : v.outcome() == Outcome.DID_NOT_HOLD ? NOT_HELD
                    : v.outcome() == Outcome.NOT_JUDGED ? NOT_JUDGED : OPEN;
            // Short enough for the chart's label column: the claimed figure is in the table below.
            String label = v.id() + " " + v.metric() + ": " + (v.outcome() == Outcome.NOT_JUDGED
                    ? "not judged here (--cold)" : shortClaim(v.claim()));
            rows.add(v.measured() == null ? new Svg.Row(label, Double.NaN, Double.NaN, Double.NaN, color, v.threshold())
                    : new Svg.Row(label, v.measured(), v.ci()[0], v.ci()[1], color, v.threshold()));
        }
        return Svg.intervals("Every claim: measured ratio [" + Verdicts.percent(1 - AdaptiveRounds.LOOK_ALPHA) + " CI] against its threshold", "ratio (log scale)", rows,
                List.of(new Svg.Ref(1, "1 = no difference", "#555")), true);
    }

    private static String shortClaim(String claim) {
        String c = claim.endsWith(".") ? claim.substring(0, claim.length() - 1) : claim;
        return c.length() <= 30 ? c : c.substring(0, 29) + "…";
    }

    /** Sizes in bytes that count as small files: shown as time per operation. */
    static final long SMALL = 64 << 10;

    private static void charts(StringBuilder h, ExperimentReport e, Report.Environment env) {
        Map<String, List<Result>> groups = byParam(e.results());
        sweep(h, e, env);
        fileSizeSweep(h, e, env);
        for (Map.Entry<String, List<Result>> g : groups.entrySet()) {
            if (Verdicts.arrayOf(g.getKey()) > 0) {
                continue;   // drawn in the sweep
            }
            List<Result> rs = g.getValue();
            boolean small = rs.stream().allMatch(r -> r.bytesPerOp() < SMALL);
            List<Svg.Row> rows = new ArrayList<>();
            List<Svg.Ref> refs = new ArrayList<>();
            int i = 0;
            for (Result r : rs) {
                if (!r.measured()) {
                    continue;
                }
                double[] v = small ? micros(r) : new double[] {r.mbPerSec().median(), r.mbPerSecCi()[0], r.mbPerSecCi()[1]};
                if (r.reference()) {
                    refs.add(new Svg.Ref(v[0], r.variant() + " (reference)", "#888"));
                    continue;
                }
                rows.add(new Svg.Row(r.variant(), v[0], v[1], v[2], Svg.PALETTE[i++ % Svg.PALETTE.length], Double.NaN));
            }
            if (rows.isEmpty()) {
                continue;
            }
            String title = e.id() + " · " + g.getKey() + " (" + env.reads() + ")";
            h.append("<figure>").append(Svg.intervals(title, small ? "µs per operation (lower is better)"
                    : "MB/s (higher is better)", rows, refs, false)).append("<figcaption>").append(esc(e.id() + ", "
                    + g.getKey())).append(": dot at the median over every fork and round, bar over its 95% interval. ")
                    .append(esc(env.caption())).append("</figcaption></figure>\n");
        }
    }

    /** µs per operation: median and the interval, from the MB/s interval (time is bytes over speed). */
    static double[] micros(Result r) {
        double b = r.bytesPerOp();
        return new double[] {b / r.mbPerSec().median(), b / r.mbPerSecCi()[1], b / r.mbPerSecCi()[0]};
    }

    /**
     * The "array N" cells as log-x lines by read size, one chart per family of variants (the first word of their
     * names: "JDK buffer 8 KiB", "Sluice buffer 8 KiB"), one line per variant.
     */
    private static void sweep(StringBuilder h, ExperimentReport e, Report.Environment env) {
        Map<String, Map<String, List<double[]>>> families = new LinkedHashMap<>();
        for (Result r : e.results()) {
            long array = Verdicts.arrayOf(r.param());
            if (r.measured() && array > 0) {
                String family = r.variant().split(" ")[0];
                families.computeIfAbsent(family, k -> new LinkedHashMap<>()).computeIfAbsent(r.variant(),
                        k -> new ArrayList<>()).add(new double[] {array, r.mbPerSec().median(), r.mbPerSecCi()[0],
                        r.mbPerSecCi()[1]});
            }
        }
        families.forEach((family, lines) -> lineFigure(h, e.id() + " · " + family + " by bytes per read() call ("
                + env.reads() + ")", "bytes per read() call (log scale)", "MB/s", lines, false, env));
    }

    private static void fileSizeSweep(StringBuilder h, ExperimentReport e, Report.Environment env) {
        Map<String, List<double[]>> lines = new LinkedHashMap<>();
        for (Result r : e.results()) {
            long size = r.param().startsWith("file ") ? Verdicts.parseSize(r.param().substring(5)) : -1;
            if (r.measured() && size > 0) {
                double[] us = micros(r);
                lines.computeIfAbsent(r.variant(), k -> new ArrayList<>()).add(new double[] {size, us[0], us[1], us[2]});
            }
        }
        lineFigure(h, e.id() + " · open, read and close by file size (" + env.reads() + ")", "file size in bytes "
                + "(log scale)", "µs per file (log scale)", lines, true, env);
    }

    private static void lineFigure(StringBuilder h, String title, String x, String y, Map<String, List<double[]>> lines,
                                   boolean logY, Report.Environment env) {
        List<Svg.Series> series = new ArrayList<>();
        lines.forEach((name, pts) -> {
            pts.sort((a, b) -> Double.compare(a[0], b[0]));
            series.add(new Svg.Series(name, pts));
        });
        if (series.isEmpty()) {
            return;
        }
        h.append("<figure>").append(Svg.lines(title, x, y, series, logY)).append("<figcaption>").append(esc(title))
                .append(": medians with 95% intervals. ").append(esc(env.caption())).append("</figcaption></figure>\n");
    }

    private static void table(StringBuilder h, ExperimentReport e, Report.Environment env) {
        h.append("<table><caption>").append(esc(e.id())).append(" in MB/s: median [95% CI], min and max over every "
                + "sample. ").append(esc(env.caption())).append("</caption>\n<tr><th>param</th><th>variant</th>"
                + "<th>forks × samples</th><th>median [95% CI]</th><th>min</th><th>max</th><th>median time per op</th>"
                + "<th>CPU per op</th><th>allocated per op</th><th>vs baseline</th></tr>\n");
        for (Result r : e.results()) {
            h.append("<tr><td>").append(esc(r.param())).append("</td><td>").append(esc(r.variant())).append("</td>");
            if (r.measured()) {
                h.append("<td class=\"n\">").append(r.forks()).append(" × ").append(r.samples().size()).append("</td>")
                        .append("<td class=\"n\">").append(num(r.mbPerSec().median())).append(" [")
                        .append(num(r.mbPerSecCi()[0])).append(", ").append(num(r.mbPerSecCi()[1])).append("]</td>")
                        .append("<td class=\"n\">").append(num(r.mbPerSec().min())).append("</td><td class=\"n\">")
                        .append(num(r.mbPerSec().max())).append("</td><td class=\"n\">")
                        .append(esc(time(r.nanosPerOp().median()))).append("</td><td class=\"n\">")
                        .append(esc(r.cpuNanosPerOp() == null ? "-" : time(r.cpuNanosPerOp().median())
                                + (r.wholeProcess() ? " (process)" : ""))).append("</td><td class=\"n\">")
                        .append(esc(r.allocatedBytesPerOp() == null ? "-" : bytes(r.allocatedBytesPerOp().median())))
                        .append("</td><td>")
                        .append(r.baseline() == null ? "" : esc(r.baseline().change() + " " + Verdicts.x(r.baseline().ratio())
                                + " [" + Verdicts.x(r.baseline().ci()[0]) + ", " + Verdicts.x(r.baseline().ci()[1]) + "]"))
                        .append("</td>");
            } else {
                h.append("<td colspan=\"8\">failed: ").append(esc(r.error())).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
    }

    static Map<String, List<Result>> byParam(List<Result> results) {
        Map<String, List<Result>> m = new LinkedHashMap<>();
        for (Result r : results) {
            m.computeIfAbsent(r.param(), k -> new ArrayList<>()).add(r);
        }
        return m;
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }

    static String time(double nanos) {
        if (nanos >= 1e9) {
            return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
        }
        if (nanos >= 1e6) {
            return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
        }
        if (nanos >= 1e3) {
            return String.format(Locale.ROOT, "%.2f µs", nanos / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f ns", nanos);
    }

    static String bytes(double b) {
        if (b >= 10 << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (1 << 20));
        }
        if (b >= 10 << 10) {
            return String.format(Locale.ROOT, "%.1f KiB", b / 1024);
        }
        return String.format(Locale.ROOT, "%.0f B", b);
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<': b.append("&lt;"); break;
                case '>': b.append("&gt;"); break;
                case '&': b.append("&amp;"); break;
                case '"': b.append("&quot;"); break;
                case '\'': b.append("&#39;"); break;
                default: b.append(c);
            }
        }
        return b.toString();
    }
}
