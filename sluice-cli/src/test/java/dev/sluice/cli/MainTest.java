package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {

    /** Runs the command line in-process; returns exit code, stdout and stderr. */
    static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @Test
    void helpListsTheCommands() {
        String[] r = run("--help");
        assertEquals("0", r[0]);
        assertTrue(r[1].contains("Usage: sluice"), r[1]);
        assertTrue(r[1].contains("info"), r[1]);
    }

    @Test
    void anUnknownOptionIsOneLineOfTroubleAndExitTwo() {
        String[] r = run("--no-such-option");
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("sluice: Unknown option: '--no-such-option'"), r[2]);
        assertTrue(r[2].lines().count() <= 2, r[2]);
        assertTrue(!r[2].contains("\tat "), "no stack trace: " + r[2]);
    }

    /** Issue 23: a usage error exits with the command's trouble code: 1 for gzip, gunzip and wc (as theirs), 2 else. */
    @Test
    void aUsageErrorExitsWithTheCommandsTroubleCode() {
        assertEquals("1", run("wc", "--bogus")[0]);
        assertEquals("1", run("gzip", "--bogus")[0]);
        assertEquals("1", run("gunzip", "--bogus")[0]);
        assertEquals("2", run("cmp", "--bogus", "a", "b")[0]);
        assertEquals("2", run("extract", "--bogus", "a")[0]);
    }

    @Test
    void aFailingCommandPrintsOneLineWithoutAStackTraceUnlessVerbose() {
        String[] r = run("info", "/no/such/dir");
        assertEquals("2", r[0]);
        assertEquals("sluice: /no/such/dir: No such file or directory", r[2].strip());
        String[] v = run("--verbose", "info", "/no/such/dir");
        assertEquals("2", v[0]);
        assertTrue(v[2].contains("\tat "), "stack trace with --verbose: " + v[2]);
    }

    @Test
    void infoDescribesThePlatform() {
        String[] r = run("info", ".");
        assertEquals("0", r[0]);
        assertTrue(r[1].contains("JDK:") && r[1].contains("CPU:") && r[1].contains("File system:"), r[1]);
    }

    /** --verbose after the subcommand counts too; a file named "--verbose" (after --) does not. */
    @Test
    void verboseIsAnOptionWhereverItStandsButNotAFileName() {
        String[] v = run("info", "--verbose", "/no/such/dir");
        assertEquals("2", v[0]);
        assertTrue(v[2].contains("\tat "), "stack trace with --verbose after the subcommand: " + v[2]);
        String[] quiet = run("cp", "-n", "--", "--verbose", "/no/such/dir/x");
        assertEquals("2", quiet[0]);
        assertFalse(quiet[2].contains("\tat "), "a file named --verbose asks for nothing: " + quiet[2]);
    }
}
