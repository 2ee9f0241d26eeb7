import dev.sluice.gzip.GzipOutputStream;
import java.io.*;
import java.nio.file.*;
/** Whole-process probe: compresses a file to stdout with GzipOutputStream at the given level (engine per sluice.gzip.native). */
public class Gzip {
    public static void main(String[] a) throws IOException {
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        try (InputStream in = Files.newInputStream(Path.of(a[1]));
             GzipOutputStream out = GzipOutputStream.builder().level(Integer.parseInt(a[0])).bufferSize(1 << 18).build(stdout)) {
            in.transferTo(out);
        }
    }
}
