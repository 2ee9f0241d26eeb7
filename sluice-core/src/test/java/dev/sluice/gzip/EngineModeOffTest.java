package dev.sluice.gzip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code sluice.gzip.native=off} binds no native library at all (it used to bind and self-test ISA-L to find out
 * whether it could be used, and then not use it: the start-up that {@code off} is for). Runs a child JVM on the
 * packaged jar, where the Java 22 classes are, with class loading logged; only in the native test run.
 */
class EngineModeOffTest {
    /** Gunzips and gzips a few bytes; the child process of the test. */
    public static void main(String[] args) throws IOException {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write("sluice\n".getBytes(StandardCharsets.US_ASCII));
        }
        try (InputStream in = new GzipInputStream(new ByteArrayInputStream(gz.toByteArray()))) {
            in.transferTo(System.out);
        }
        for (int level : new int[] {1, 6}) {
            try (GzipOutputStream out = GzipOutputStream.builder().level(level).build(new ByteArrayOutputStream())) {
                out.write(1);
            }
        }
    }

    private static List<String> run(String mode) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        List<String> cmd = List.of(java, "--enable-native-access=ALL-UNNAMED", "-Dsluice.gzip.native=" + mode,
                "-Xlog:class+load=info:stdout", "-cp", classPath, EngineModeOffTest.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (var r = p.inputReader()) {
            r.lines().forEach(lines::add);
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not end");
        assertEquals(0, p.exitValue(), String.join("\n", lines));
        assertTrue(lines.contains("sluice"), "decoded output missing");
        return lines;
    }

    private static boolean bindsNative(List<String> log) {
        return log.stream().anyMatch(l -> l.contains("jdk.internal.foreign.abi.DowncallStub")
                || l.contains("dev.sluice.gzip.IsalInflateEngine") || l.contains("dev.sluice.gzip.LibdeflateEngine"));
    }

    @Test
    @Timeout(120)
    void offBindsNoNativeLibraryWhereAutoDoes() throws Exception {
        assumeTrue(Boolean.getBoolean("sluice.test.expectNative"), "needs the packaged jar on JDK 22+ (native run)");
        assumeTrue(System.getProperty("java.class.path").contains(".jar" + File.pathSeparator)
                || System.getProperty("java.class.path").endsWith(".jar"), "needs the packaged jar");
        assertTrue(bindsNative(run("auto")), "auto binds the native engines: the check below could not fail");
        assertFalse(bindsNative(run("off")), "off bound a native library");
    }
}
