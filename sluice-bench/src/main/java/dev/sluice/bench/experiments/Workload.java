package dev.sluice.bench.experiments;

import java.io.IOException;

/**
 * One timed operation of an experiment: opens, reads or writes, closes. Returns a value derived from every byte
 * or char it touched (a sum, a count, an equality flag), so the JIT cannot drop the work and so that the variants
 * of one comparison can be checked to compute the same thing.
 */
@FunctionalInterface
public interface Workload {
    long run() throws IOException;
}
