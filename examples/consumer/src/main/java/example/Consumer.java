package example;

import dev.sluice.file.FastFiles;
import dev.sluice.gzip.GzipEngines;
import dev.sluice.gzip.GzipInputStream;
import dev.sluice.gzip.GzipOutputStream;
import dev.sluice.text.FastReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a small text file through gzip, reads it back through GzipInputStream and FastReader, and prints which gzip
 * engine did the decoding. With {@code --expect-isal} it exits 1 unless that engine is ISA-L (examples/run.sh passes
 * it on JDK 22+ with native access enabled and libisal installed).
 */
public final class Consumer {
    private Consumer() {}

    public static void main(String[] args) throws IOException {
        boolean expectIsal = args.length > 0 && args[0].equals("--expect-isal");
        Path dir = Files.createTempDirectory("sluice-consumer");
        Path gz = dir.resolve("lines.txt.gz");
        int lines = 10_000;
        try (OutputStream out = new GzipOutputStream(FastFiles.newOutputStream(gz));
             Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8)) {
            for (int i = 0; i < lines; i++) {
                w.write("line " + i + " \u65e5\u672c\u8a9e\n");
            }
        }
        int read = 0;
        try (InputStream in = new GzipInputStream(FastFiles.newInputStream(gz));
             FastReader r = FastReader.of(in, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.equals("line " + read + " \u65e5\u672c\u8a9e")) {
                    throw new IllegalStateException("line " + read + " came back as " + line);
                }
                read++;
            }
        }
        Files.delete(gz);
        Files.delete(dir);
        String engine = GzipEngines.inflateEngine();
        System.out.println("Java " + Runtime.version().feature() + ": " + read + " lines back; gunzip engine: " + engine);
        if (read != lines) {
            throw new IllegalStateException(read + " lines read, " + lines + " written");
        }
        if (expectIsal && !engine.startsWith("ISA-L")) {
            System.err.println("expected ISA-L to decode gzip, got: " + engine);
            System.exit(1);
        }
    }
}
