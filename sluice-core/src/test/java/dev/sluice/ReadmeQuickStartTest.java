package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.io.PrintWriter;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compiles the README's quick start against the library as built, and runs it: the example cannot rot. */
class ReadmeQuickStartTest {

    @TempDir
    Path dir;

    @Test
    void quickStartCompilesAndRuns() throws Exception {
        Path readme = Path.of("..", "README.md");
        String text = Files.readString(readme);
        Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(text);
        assertTrue(m.find(), "README.md has a ```java block");
        Path src = dir.resolve("QuickStart.java");
        Files.writeString(src, m.group(1));

        // java.util.spi.ToolProvider is in java.base, so the test module needs no extra reads edge.
        ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        PrintWriter w = new PrintWriter(diagnostics, true, StandardCharsets.UTF_8);
        int rc = javac.run(w, w, "-d", dir.toString(),
                "-cp", System.getProperty("java.class.path"), src.toString());
        assertEquals(0, rc, "README example does not compile:\n" + diagnostics.toString(StandardCharsets.UTF_8));

        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream old = System.out;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            Method main = loader.loadClass("QuickStart").getMethod("main", String[].class);
            main.invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(old);
        }
        long expectedSum = 0;
        for (int i = 0; i < 1_000_000; i++) {
            expectedSum += i & 0xFF;
        }
        assertEquals(List.of("sum=" + expectedSum + " copied=1000000"),
                captured.toString(StandardCharsets.UTF_8).lines().toList());
    }
}
