package dev.sluice.cli;

import dev.sluice.gzip.GzipEngines;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code sluice info [DIR]}: the facts every measurement must state (JDK, OS, CPU, file system). */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Print the JDK, OS, CPU and file system that measurements here would run on.")
final class InfoCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "DIR", description = "Directory whose file system to describe (default: .)")
    Path dir = Path.of(".");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        Platform p = Platform.probe(dir);
        out.println("JDK:         " + p.jdk());
        out.println("OS:          " + p.os());
        out.println("CPU:         " + p.cpu());
        out.println("Cores:       " + p.cores());
        out.println("File system: " + p.fileSystem());
        out.println("Gunzip:      " + GzipEngines.inflateEngine());
        out.println("Gzip:        " + GzipEngines.deflateEngine());
        out.flush();
        return 0;
    }
}
