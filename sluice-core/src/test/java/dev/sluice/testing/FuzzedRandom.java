package dev.sluice.testing;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.util.Random;

/**
 * A {@link Random} whose choices come from a Jazzer {@link FuzzedDataProvider}, so that a seeded random test (an
 * operation sequence drawn from a {@code Random}) becomes a coverage-guided fuzz target with no second copy of its
 * logic. {@link #nextInt(int)} takes the fuzzer's value in range directly, so the fuzzer can steer every choice;
 * once the input is used up every choice is 0 (the provider's answer), which ends the sequences that test draws
 * (their "how many operations" is drawn first).
 */
public final class FuzzedRandom extends Random {
    private static final long serialVersionUID = 1L;

    private final transient FuzzedDataProvider data;

    public FuzzedRandom(FuzzedDataProvider data) {
        super(0);
        this.data = data;
    }

    @Override
    protected int next(int bits) {
        // Random's constructor calls setSeed, not next, so data is set before the first call.
        return data.consumeInt() >>> (32 - bits);
    }

    @Override
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive: " + bound);
        }
        return data.consumeInt(0, bound - 1);
    }

    @Override
    public boolean nextBoolean() {
        return data.consumeBoolean();
    }

    @Override
    public void nextBytes(byte[] bytes) {
        // Data content from a seed the fuzzer picks: taking the bytes themselves from the input would let one
        // 200 KB array swallow the whole input, leaving no choices for the operations that follow.
        new Random(data.consumeLong()).nextBytes(bytes);
    }
}
