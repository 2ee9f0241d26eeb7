package dev.sluice.cli.report;

import dev.sluice.cli.report.Report.Result;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Draws one comparison (the variants of an experiment at one param) with XChart as a PNG: one stacked bar per
 * variant whose three segments end at the min, the median and the max MB/s over the repetitions, so every figure
 * shows its spread rather than one number.
 */
final class Charts {
    private Charts() {}

    static {
        // Charts are drawn off-screen; without this a machine with no display could fail in AWT's start-up.
        System.setProperty("java.awt.headless", "true");
    }

    static final Color MIN = new Color(0x1f, 0x4e, 0x79);
    static final Color MEDIAN = new Color(0x5b, 0x9b, 0xd5);
    static final Color MAX = new Color(0xbd, 0xd7, 0xee);

    static byte[] comparison(String title, List<Result> results) throws IOException {
        List<String> names = new ArrayList<>();
        List<Double> min = new ArrayList<>();
        List<Double> toMedian = new ArrayList<>();
        List<Double> toMax = new ArrayList<>();
        for (Result r : results) {
            if (!r.measured()) {
                continue;
            }
            names.add(r.variant());
            min.add(r.mbPerSec().min());
            toMedian.add(r.mbPerSec().median() - r.mbPerSec().min());
            toMax.add(r.mbPerSec().max() - r.mbPerSec().median());
        }
        if (names.isEmpty()) {
            return null;
        }
        int width = Math.max(560, 110 + names.size() * 70);
        CategoryChart chart = new CategoryChartBuilder().width(width).height(names.size() > 3 ? 560 : 440).title(title)
                .yAxisTitle("MB/s (higher is better)").build();
        Styler.ChartTheme theme = Styler.ChartTheme.XChart;
        chart.getStyler().setTheme(theme.newInstance(theme));
        chart.getStyler().setStacked(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setXAxisLabelRotation(names.size() > 3 ? 90 : 0);
        chart.getStyler().setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        chart.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        chart.getStyler().setSeriesColors(new Color[] {MIN, MEDIAN, MAX});
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridVerticalLinesVisible(false);
        chart.getStyler().setYAxisMin(0.0);
        chart.addSeries("min", names, min);
        chart.addSeries("min to median", names, toMedian);
        chart.addSeries("median to max", names, toMax);
        return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    }
}
