import dev.sluice.gzip.GzipInputStream;
import java.io.*;
import java.nio.file.*;
/** Whole-process probe: decodes a gzip file to nothing with GzipInputStream (the engine chosen by sluice.gzip.native). */
public class Gunzip {
    public static void main(String[] a) throws IOException {
        try (InputStream in = new GzipInputStream(Files.newInputStream(Path.of(a[0])))) {
            byte[] b = new byte[65536];
            long n = 0;
            for (int r; (r = in.read(b)) >= 0; ) n += r;
            System.out.println(n);
        }
    }
}
