package dev.sluice.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code sluice} command. Each subcommand is its own class; this one only wires them together and turns
 * failures into one line on stderr (a stack trace only with {@code --verbose}) and a conventional exit code.
 */
@Command(
        name = "sluice",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Fast file and stream I/O for Java, and the benchmarks that prove it.",
        subcommands = {ReportCommand.class, TuneCommand.class, CpCommand.class, CmpCommand.class, SumCommand.class,
            GzipCommand.class, GunzipCommand.class, IndexCommand.class, ExtractCommand.class, WcCommand.class,
            InfoCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    /**
     * Exit code for trouble (bad usage, I/O error), as cmp uses it. A command whose model tool answers trouble with 1
     * (gzip, gunzip, wc) says so with {@code exitCodeOnInvalidInput = 1}, and both handlers here use the command's
     * code.
     */
    public static final int EXIT_TROUBLE = 2;

    @Option(names = "--verbose", description = "Print stack traces of errors.", scope = CommandLine.ScopeType.INHERIT)
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Builds the command line with Sluice's error handling; tests call this to run commands in-process. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        // As GNU tools, and as the plain forms (PlainForm) parse: "@list" is a file name, not a file of arguments,
        // and a repeated option is no error (`wc -ll`, `gzip -c -c`).
        cl.setExpandAtFiles(false);
        cl.setOverwrittenOptionsAllowed(true);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            // --verbose is inherited, so it may be matched by the root command or any subcommand; a file named
            // "--verbose" (after --) is no request for stack traces.
            boolean verbose = false;
            for (CommandLine.ParseResult pr = parseResult; pr != null; pr = pr.subcommand()) {
                verbose |= pr.matchedOption("--verbose") != null;
            }
            if (verbose) {
                ex.printStackTrace(err);
            } else {
                err.println("sluice: " + describe(ex));
            }
            err.flush();
            return commandLine.getCommandSpec().exitCodeOnInvalidInput();
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("sluice: " + ex.getMessage());
            err.println("Try 'sluice " + (ex.getCommandLine() == ex.getCommandLine().getCommandSpec().root().commandLine()
                    ? "" : ex.getCommandLine().getCommandName() + " ") + "--help' for more information.");
            err.flush();
            return ex.getCommandLine().getCommandSpec().exitCodeOnInvalidInput();
        });
        return cl;
    }

    /** One line for an exception: its message, with the exception's simple name when that adds meaning. */
    static String describe(Throwable ex) {
        String msg = ex.getMessage();
        String type = ex.getClass().getSimpleName();
        if (msg == null || msg.isBlank()) {
            return type;
        }
        if (ex instanceof java.nio.file.NoSuchFileException) {
            return msg + ": No such file or directory";
        }
        if (ex instanceof java.nio.file.AccessDeniedException) {
            return msg + ": Permission denied";
        }
        if (ex instanceof java.nio.file.FileAlreadyExistsException) {
            return msg + ": File exists";
        }
        if (ex instanceof java.nio.file.NotDirectoryException) {
            return msg + ": Not a directory";
        }
        if (ex instanceof java.nio.file.DirectoryNotEmptyException) {
            return msg + ": Directory not empty";
        }
        return msg;
    }

    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals(CdsTraining.ARGUMENT)) {
            CdsTraining.run();
            return;
        }
        int status = run(args);
        // Success returns instead of calling System.exit: since JDK 21 Runtime.exit asks System.Logger whether to
        // log the call, which starts the logging framework, about 10 ms of a 50 ms tiny command on JDK 25
        // (docs/benchmarks/cli.md). Returning ends the JVM the same way once main's thread ends: every thread
        // Sluice starts is a daemon, and shutdown hooks still run.
        if (status != 0) {
            System.exit(status);
        }
    }

    /** Runs one command line as {@code sluice ARGS} does and returns its exit code. */
    static int run(String[] args) {
        // The plain forms of the everyday commands skip picocli's start-up; see PlainForm.
        // Flushed at every line, as picocli's own writers are: a line of `wc` or `sum` shows as soon as it is
        // known, and messages stay in order with data written to the raw stdout (gzip -c).
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        Integer quick = CmpCommand.runPlainForm(args, out, err);
        if (quick == null) {
            quick = GzipCommand.runPlainForm(args, err);
        }
        if (quick == null) {
            quick = GunzipCommand.runPlainForm(args, err);
        }
        if (quick == null) {
            quick = WcCommand.runPlainForm(args, out, err);
        }
        if (quick == null) {
            quick = CpCommand.runPlainForm(args, err);
        }
        if (quick == null) {
            quick = SumCommand.runPlainForm(args, out, err);
        }
        return quick != null ? quick : commandLine().execute(args);
    }

    /** Reports the Sluice version and the JVM running it. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {
                "sluice " + (v == null ? "development build" : v),
                "JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
            };
        }
    }
}
