package dev.sluice.cli.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.cli.report.Report.ExperimentReport;
import dev.sluice.cli.report.Report.Result;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Draws index.html in headless Chromium (Debian's {@code chromium}; .ci/run installs it) and checks that the charts
 * were drawn: the screenshot must hold the charts' own colours (the first palette blue of the dots and lines, the
 * green of a held claim), which no text on the page uses. Skips only when no chromium is installed. Runs as any user:
 * the browser gets a fresh profile and HOME in a temp dir.
 */
class HtmlRenderTest {
    @TempDir
    Path dir;

    static Path chromium() {
        for (String p : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/snap/bin/chromium")) {
            if (Files.isExecutable(Path.of(p))) {
                return Path.of(p);
            }
        }
        return null;
    }

    static Report sample() {
        Report base = ReportFilesTest.sample();
        List<Result> e3 = new ArrayList<>();
        for (String size : List.of("16 B", "4 KiB", "500 KB")) {
            long bytes = Verdicts.parseSize(size);
            double mbs = bytes / 10.0;
            e3.add(VerdictsTest.r("FileInputStream", "file " + size, mbs));
            e3.add(VerdictsTest.r("FileChannel.open + Channels.newInputStream", "file " + size, mbs * 1.2));
        }
        List<Report.Pair> pairs = new ArrayList<>();
        for (String size : List.of("16 B", "4 KiB")) {
            pairs.add(new Report.Pair(List.of(new Report.Cell("FileChannel.open + Channels.newInputStream", "file " + size)),
                    List.of(new Report.Cell("FileInputStream", "file " + size)), null));
        }
        Report.ClaimSpec c14 = new Report.ClaimSpec("C14", "C", "FileInputStream against channels", "c. 2017",
                "channels faster on small files", "faster", "BETTER", 1.1, 1.05, null, "time", "set-up", false, pairs,
                null, null);
        ExperimentReport exp3 = new ExperimentReport("E3", "Open strategies", "channels 30-40% faster", List.of(c14),
                List.of(), e3, List.of());
        exp3 = exp3.withVerdicts(Verdicts.judge(exp3, "page-cached"));
        List<ExperimentReport> all = new ArrayList<>(List.of(exp3));
        all.addAll(base.experiments());
        return new Report(base.schemaVersion(), base.generated(), base.command(), base.estimate(), base.environment(),
                base.dataSources(), base.rule(), all, Recommendations.from(all));
    }

    @Test
    @Timeout(120)
    void chromiumDrawsTheCharts() throws IOException, InterruptedException {
        Path browser = chromium();
        Assumptions.assumeTrue(browser != null, "chromium is not installed");
        Path html = dir.resolve("index.html");
        HtmlPage.write(sample(), html);
        Path profile = Files.createDirectories(dir.resolve("profile"));
        Path png = dir.resolve("shot.png");
        ProcessBuilder pb = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--hide-scrollbars", "--user-data-dir=" + profile, "--window-size=1200,3000",
                "--screenshot=" + png, html.toUri().toString());
        pb.environment().put("HOME", profile.toString());
        pb.redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile());
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s");
        }
        assertTrue(Files.size(png) > 0, "no screenshot: " + Files.readString(dir.resolve("chromium.log")));
        BufferedImage img = ImageIO.read(new File(png.toString()));
        int blue = 0;
        int green = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y);
                blue += near(rgb, 0x1f77b4) ? 1 : 0;
                green += near(rgb, 0x2ca02c) ? 1 : 0;
            }
        }
        // A 4.5 px dot is ~60 pixels; lines and several dots give hundreds.
        assertTrue(blue > 150, "palette blue pixels (dots, lines): " + blue);
        assertTrue(green > 30, "green pixels (the held claim's dot): " + green);
    }

    private static boolean near(int rgb, int want) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs(((rgb >> shift) & 0xff) - ((want >> shift) & 0xff)) > 12) {
                return false;
            }
        }
        return true;
    }
}
