package dev.sluice.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * E3's sum is kept out of line by two launchers: the CLI starts every runner JVM with
 * {@link Reports#SINK_OUT_OF_LINE}, and sluice-bench's {@code JmhHarness} starts its forks with
 * {@code Sink.DONT_INLINE}. The CLI does not depend on sluice-bench at run time (it starts the benchmarks jar as a
 * process), so the list is written in both; this test, on the one class path that holds both, keeps them equal.
 */
class SinkOptionsTest {
    @Test
    void theCliPassesTheRunnerTheSameCompileCommandsAsTheBenchmarksForks() throws ReflectiveOperationException {
        Class<?> sink = Class.forName("dev.sluice.bench.experiments.Sink");
        Field field = sink.getDeclaredField("DONT_INLINE");
        field.setAccessible(true);
        assertEquals(field.get(null), Reports.SINK_OUT_OF_LINE);
        // And both name a method that exists: a renamed addUp would make HotSpot ignore the command silently.
        List<?> commands = (List<?>) field.get(null);
        String target = ((String) commands.get(commands.size() - 1)).replaceFirst(".*,", "");
        assertEquals(sink.getName(), target.substring(0, target.indexOf("::")));
        sink.getDeclaredMethod(target.substring(target.indexOf("::") + 2), byte[].class, int.class);
    }
}
