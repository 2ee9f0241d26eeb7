package dev.sluice.cli.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Inline SVG charts for index.html, drawn by hand (no library, no script): the page stays one self-contained file
 * that any browser shows and any text tool can search.
 * <ul>
 *   <li>{@link #intervals}: one row per item, a dot at the estimate and a bar over its 95% interval, on a linear or
 *   log axis; optional per-row threshold ticks and vertical reference lines;</li>
 *   <li>{@link #lines}: a size sweep, log x, one line per series with interval bars at each point.</li>
 * </ul>
 */
final class Svg {
    private Svg() {}

    static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#393b79", "#637939"};

    /** One row of an interval chart. {@code tick} is a threshold mark on the row (NaN for none). */
    record Row(String label, double value, double lo, double hi, String color, double tick) {}

    /** A vertical reference line across the plot, e.g. "no difference" at 1, or a bulk loop's speed. */
    record Ref(double x, String label, String color) {}

    /** One line of a sweep: points {x, y, lo, hi}. */
    record Series(String name, List<double[]> points) {}

    static String intervals(String title, String axis, List<Row> rows, List<Ref> refs, boolean log) {
        int labelW = 370;
        int plotW = 420;
        int rowH = 22;
        int top = 44;
        int h = top + rows.size() * rowH + 40;
        int w = labelW + plotW + 30;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Row r : rows) {
            for (double v : new double[] {r.value(), r.lo(), r.hi(), r.tick()}) {
                if (!Double.isNaN(v) && (!log || v > 0)) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        for (Ref ref : refs) {
            min = Math.min(min, ref.x());
            max = Math.max(max, ref.x());
        }
        if (!(min <= max)) {
            return "";
        }
        Axis ax = log ? Axis.log(min, max) : Axis.linear(Math.min(0, min), max);
        StringBuilder s = open(w, h, title);
        s.append(text(8, 18, title, "start", 13, "bold"));
        int x0 = labelW;
        int yEnd = top + rows.size() * rowH;
        for (double t : ax.ticks()) {
            double x = x0 + ax.pos(t) * plotW;
            s.append(line(x, top - 4, x, yEnd, "#e3e3e3", 1, null));
            s.append(text(x, yEnd + 14, ax.label(t), "middle", 11, null));
        }
        s.append(text(x0 + plotW / 2.0, yEnd + 30, axis, "middle", 11, null));
        for (Ref ref : refs) {
            double x = x0 + ax.pos(ref.x()) * plotW;
            s.append(line(x, top - 6, x, yEnd, ref.color(), 1.5, "4 3"));
            boolean right = ax.pos(ref.x()) > 0.6;   // keep the label inside the chart
            s.append(text(right ? x - 3 : x + 3, top - 10, ref.label(), right ? "end" : "start", 10, null));
        }
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            double y = top + i * rowH + rowH / 2.0;
            if (i % 2 == 0) {
                s.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f7f8fa\"/>",
                        y - rowH / 2.0, w, rowH));
            }
            s.append(text(labelW - 8, y + 4, r.label(), "end", 12, null));
            if (!Double.isNaN(r.lo()) && !Double.isNaN(r.hi())) {
                double a = x0 + ax.pos(r.lo()) * plotW;
                double b = x0 + ax.pos(r.hi()) * plotW;
                s.append(String.format(Locale.ROOT, "<rect class=\"ci\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"6\" "
                        + "fill=\"%s\" fill-opacity=\"0.35\"/>", a, y - 3, Math.max(1.5, b - a), r.color()));
            }
            if (!Double.isNaN(r.tick())) {
                double t = x0 + ax.pos(r.tick()) * plotW;
                s.append(line(t, y - 8, t, y + 8, "#222", 2, null));
            }
            if (!Double.isNaN(r.value())) {
                s.append(String.format(Locale.ROOT, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\">"
                                + "<title>%s: %s [%s, %s]</title></circle>", x0 + ax.pos(r.value()) * plotW, y, r.color(),
                        HtmlPage.esc(r.label()), Axis.num(r.value()), Axis.num(r.lo()), Axis.num(r.hi())));
            }
        }
        return s.append("</svg>").toString();
    }

    static String lines(String title, String xAxis, String yAxis, List<Series> series, boolean logY) {
        int w = 760;
        int left = 70;
        int plotW = 440;
        int top = 30;
        int plotH = 260;
        double xmin = Double.POSITIVE_INFINITY;
        double xmax = 0;
        double ymin = Double.POSITIVE_INFINITY;
        double ymax = 0;
        for (Series sr : series) {
            for (double[] p : sr.points()) {
                xmin = Math.min(xmin, p[0]);
                xmax = Math.max(xmax, p[0]);
                for (int k = 1; k < 4; k++) {
                    if (!Double.isNaN(p[k]) && p[k] > 0) {
                        ymin = Math.min(ymin, p[k]);
                        ymax = Math.max(ymax, p[k]);
                    }
                }
            }
        }
        if (!(xmin <= xmax) || !(ymin <= ymax)) {
            return "";
        }
        Axis ax = Axis.log(xmin, xmax);
        Axis ay = logY ? Axis.log(ymin, ymax) : Axis.linear(0, ymax);
        int h = top + plotH + 50;
        StringBuilder s = open(w, h, title);
        s.append(text(8, 18, title, "start", 13, "bold"));
        java.util.TreeSet<Double> xs = new java.util.TreeSet<>();
        series.forEach(sr -> sr.points().forEach(p -> xs.add(p[0])));
        double lastLabel = Double.NEGATIVE_INFINITY;
        for (double t : xs) {   // the sizes measured are the ticks: a sweep's points are its story
            double x = left + ax.pos(t) * plotW;
            s.append(line(x, top, x, top + plotH, "#e3e3e3", 1, null));
            if (x - lastLabel >= 34) {   // labels of close sizes would overlap: the grid line stays
                s.append(text(x, top + plotH + 14, sizeLabel(t), "middle", 10, null));
                lastLabel = x;
            }
        }
        for (double t : ay.ticks()) {
            double y = top + plotH - ay.pos(t) * plotH;
            s.append(line(left, y, left + plotW, y, "#e3e3e3", 1, null));
            s.append(text(left - 4, y + 4, ay.label(t), "end", 11, null));
        }
        s.append(text(left + plotW / 2.0, top + plotH + 32, xAxis, "middle", 11, null));
        s.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 14 %d)\" "
                + "text-anchor=\"middle\">%s</text>", top + plotH / 2, top + plotH / 2, HtmlPage.esc(yAxis)));
        for (int i = 0; i < series.size(); i++) {
            Series sr = series.get(i);
            String c = PALETTE[i % PALETTE.length];
            StringBuilder path = new StringBuilder();
            for (double[] p : sr.points()) {
                double x = left + ax.pos(p[0]) * plotW;
                double y = top + plotH - ay.pos(p[1]) * plotH;
                path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
                if (!Double.isNaN(p[2]) && !Double.isNaN(p[3])) {
                    s.append(line(x, top + plotH - ay.pos(p[2]) * plotH, x, top + plotH - ay.pos(p[3]) * plotH, c, 1.5,
                            null));
                }
                s.append(String.format(Locale.ROOT, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>",
                        x, y, c));
            }
            s.append("<path class=\"series\" d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(c)
                    .append("\" stroke-width=\"1.5\"/>");
            double ly = top + 10 + i * 16;
            s.append(line(left + plotW + 14, ly - 4, left + plotW + 34, ly - 4, c, 2.5, null));
            s.append(text(left + plotW + 40, ly, sr.name(), "start", 11, null));
        }
        return s.append("</svg>").toString();
    }

    /** "64 KiB", "500 KB", "16 B". */
    static String sizeLabel(double bytes) {
        long b = (long) bytes;
        if (b % 1024 == 0 && b >= 1024) {
            return Recommendations.size(b);
        }
        if (b % 1_000_000 == 0 && b > 0) {
            return b / 1_000_000 + " MB";
        }
        if (b % 1000 == 0 && b > 0) {
            return b / 1000 + " KB";
        }
        return b + " B";
    }

    private static StringBuilder open(int w, int h, String title) {
        StringBuilder s = new StringBuilder(4096);
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
                + "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"system-ui,sans-serif\">", w, h, w, h));
        s.append("<title>").append(HtmlPage.esc(title)).append("</title>");
        return s;
    }

    private static String text(double x, double y, String t, String anchor, int size, String weight) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\"%s>%s</text>",
                x, y, size, anchor, weight == null ? "" : " font-weight=\"" + weight + "\"", HtmlPage.esc(t));
    }

    private static String line(double x1, double y1, double x2, double y2, String color, double width, String dash) {
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                + "stroke-width=\"%.1f\"%s/>", x1, y1, x2, y2, color, width,
                dash == null ? "" : " stroke-dasharray=\"" + dash + "\"");
    }

    /** A linear or log10 axis mapping values to [0, 1], with round ticks. */
    record Axis(double lo, double hi, boolean log) {
        static Axis linear(double lo, double hi) {
            double step = niceStep((hi - lo) / 5);
            return new Axis(Math.floor(lo / step) * step, Math.ceil(hi * 1.05 / step) * step, false);
        }

        static Axis log(double lo, double hi) {
            double a = Math.log10(lo);
            double b = Math.log10(hi);
            double pad = Math.max(0.05, (b - a) * 0.06);
            return new Axis(a - pad, b + pad, true);
        }

        double pos(double v) {
            double x = log ? Math.log10(Math.max(v, 1e-300)) : v;
            return Math.max(0, Math.min(1, (x - lo) / (hi - lo)));
        }

        List<Double> ticks() {
            List<Double> t = new ArrayList<>();
            if (!log) {
                double step = niceStep((hi - lo) / 5);
                for (double v = lo; v <= hi + step / 2; v += step) {
                    t.add(v);
                }
                return t;
            }
            double span = hi - lo;
            double[] mults = span < 1 ? new double[] {1, 1.2, 1.5, 2, 3, 5, 7} : span < 2.5 ? new double[] {1, 2, 5}
                    : new double[] {1};
            for (int e = (int) Math.floor(lo) - 1; e <= Math.ceil(hi); e++) {
                for (double m : mults) {
                    double v = m * Math.pow(10, e);
                    if (Math.log10(v) >= lo && Math.log10(v) <= hi) {
                        t.add(v);
                    }
                }
            }
            return t;
        }

        String label(double v) {
            return num(v);
        }

        static String num(double v) {
            if (Double.isNaN(v)) {
                return "?";
            }
            double a = Math.abs(v);
            if (a >= 10) {
                return String.format(Locale.ROOT, "%.0f", v);
            }
            if (a >= 1) {
                return String.format(Locale.ROOT, "%.2g", v).replaceAll("\\.0+$", "");
            }
            return String.format(Locale.ROOT, "%.2g", v);
        }

        private static double niceStep(double raw) {
            if (raw <= 0 || Double.isNaN(raw)) {
                return 1;
            }
            double p = Math.pow(10, Math.floor(Math.log10(raw)));
            double m = raw / p;
            return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
        }
    }
}
