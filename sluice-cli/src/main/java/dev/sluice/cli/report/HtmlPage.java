package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Recommendation;
import dev.sluice.cli.report.Report.Result;
import dev.sluice.cli.report.Report.Verdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * index.html: one self-contained page (inline CSS, charts as base64 PNG), so it can be mailed or attached to an
 * issue. Every chart's caption and every table's header state the JDK, OS, CPU, file system and cached-or-cold.
 */
final class HtmlPage {
    private HtmlPage() {}

    private static final String CSS = String.join("\n",
            "body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}",
            "h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}",
            ".env{background:#f5f7fa;border:1px solid #dde;padding:.6em 1em;border-radius:4px}",
            "table{border-collapse:collapse;margin:.8em 0;font-size:.9em}",
            "th,td{border:1px solid #ccd;padding:.25em .6em;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}",
            "th{background:#eef2f7}caption{caption-side:top;text-align:left;color:#555;font-size:.85em;padding:.3em 0}",
            ".held{color:#176c2f;font-weight:bold}.did-not-hold{color:#a3260f;font-weight:bold}.inconclusive{color:#777;font-weight:bold}",
            "figure{display:inline-block;margin:.5em 1em .5em 0;vertical-align:top}figcaption{font-size:.8em;color:#555;max-width:560px}",
            "code{background:#f2f2f2;padding:0 .25em}.note{color:#555;font-size:.9em}");

    static void write(Report report, Path file) throws IOException {
        Files.writeString(file, render(report), StandardCharsets.UTF_8);
    }

    static String render(Report report) throws IOException {
        Report.Environment env = report.environment();
        StringBuilder h = new StringBuilder(1 << 16);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sluice report</title><style>")
                .append(CSS).append("</style></head><body>\n");
        h.append("<h1>Sluice report: the classic Java I/O experiments on this machine</h1>\n");
        h.append("<div class=\"env\"><b>Measured on:</b> ").append(esc(env.caption())).append("<br><b>Generated:</b> ")
                .append(esc(report.generated())).append(" by <code>").append(esc(report.command())).append("</code><br>");
        h.append(report.estimate()
                ? "<b>Quick mode:</b> an estimate (one JVM, short repetitions). <code>sluice report --full</code> measures with JMH."
                : "<b>JMH</b>: one fork per case, warm-up and measurement iterations of one second.");
        h.append("<br><b>Data:</b> ").append(esc(String.join("; ", report.dataSources()))).append("</div>\n");

        h.append("<h2>Verdicts</h2>\n<table><caption>").append(esc(env.caption()))
                .append("</caption><tr><th>experiment</th><th>claim</th><th>verdict</th><th>how much</th></tr>\n");
        for (ExperimentReport e : report.experiments()) {
            for (Verdict v : e.verdicts()) {
                h.append("<tr><td>").append(esc(e.id())).append("</td><td>").append(esc(v.claim())).append("</td><td class=\"")
                        .append(v.outcome().text().replace(' ', '-')).append("\">").append(esc(v.outcome().text()))
                        .append("</td><td>").append(esc(v.summary())).append(" <span class=\"note\">(").append(esc(v.rule()))
                        .append(")</span></td></tr>\n");
            }
        }
        h.append("</table>\n");

        h.append("<h2>Recommendations</h2>\n");
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
                h.append("<p><span class=\"").append(v.outcome().text().replace(' ', '-')).append("\">")
                        .append(esc(v.outcome().text())).append("</span>: ").append(esc(v.summary())).append("</p>\n");
            }
            for (Map.Entry<String, List<Result>> group : byParam(e.results()).entrySet()) {
                byte[] png;
                try {
                    png = Charts.comparison(e.id() + " · " + group.getKey() + " (" + env.reads() + ")", group.getValue());
                } catch (RuntimeException | LinkageError | InternalError ex) {
                    // A JDK without fonts or AWT libraries cannot draw: keep the report, say why the chart is missing.
                    h.append("<p class=\"note\">Chart of ").append(esc(group.getKey())).append(" not drawn: ")
                            .append(esc(ex.toString())).append(" (the table below has every number).</p>\n");
                    continue;
                }
                if (png != null) {
                    h.append("<figure><img alt=\"").append(esc(e.id() + " " + group.getKey()))
                            .append("\" src=\"data:image/png;base64,").append(Base64.getEncoder().encodeToString(png))
                            .append("\"><figcaption>").append(esc(e.id() + ", " + group.getKey()))
                            .append(": bars end at the min, median and max MB/s over the repetitions. ")
                            .append(esc(env.caption())).append("</figcaption></figure>\n");
                }
            }
            table(h, e, env);
        }
        h.append("<p class=\"note\">Raw numbers: <a href=\"results.json\">results.json</a> (schema: ")
                .append("<a href=\"results.schema.json\">results.schema.json</a>), <a href=\"results.csv\">results.csv</a>.</p>\n");
        h.append("</body></html>\n");
        return h.toString();
    }

    private static void table(StringBuilder h, ExperimentReport e, Report.Environment env) {
        h.append("<table><caption>").append(esc(e.id())).append(" in MB/s, min / median / max over repetitions. ")
                .append(esc(env.caption())).append("</caption>\n<tr><th>param</th><th>variant</th><th>min</th>")
                .append("<th>median</th><th>max</th><th>median time per op</th></tr>\n");
        for (Result r : e.results()) {
            h.append("<tr><td>").append(esc(r.param())).append("</td><td>").append(esc(r.variant())).append("</td>");
            if (r.measured()) {
                h.append(cell(r.mbPerSec().min())).append(cell(r.mbPerSec().median())).append(cell(r.mbPerSec().max()))
                        .append("<td class=\"n\">").append(esc(time(r.nanosPerOp().median()))).append("</td>");
            } else {
                h.append("<td colspan=\"4\">failed: ").append(esc(r.error())).append("</td>");
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

    private static String cell(double v) {
        return "<td class=\"n\">" + String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v) + "</td>";
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
