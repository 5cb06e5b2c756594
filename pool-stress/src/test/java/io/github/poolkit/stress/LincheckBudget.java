package io.github.poolkit.stress;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * How much exploring the Lincheck tests do in the default build: small enough for CI (seconds per test), and
 * configurable for a deeper run, e.g. {@code -Dlincheck.iterations=100 -Dlincheck.invocations=20000 -Dlincheck.stressInvocations=5000
 * -Dlincheck.scenarioInvocations=5000}.
 */
public final class LincheckBudget {

    /** Interleavings explored per generated scenario of a data-structure test. */
    public static final int INVOCATIONS = Integer.getInteger("lincheck.invocations", 500);

    /** Runs of each generated scenario on real threads, for the stress strategy (each one costs a thread hand-off). */
    public static final int STRESS_INVOCATIONS = Integer.getInteger("lincheck.stressInvocations", 200);

    /**
     * Interleavings explored by a {@code runConcurrentTest} scenario that starts real worker threads: each one costs
     * far more than a data-structure invocation (about 40 ms on the CI machines).
     */
    public static final int SCENARIO_INVOCATIONS = Integer.getInteger("lincheck.scenarioInvocations", 200);

    /** Random scenarios generated per data-structure test. */
    public static final int ITERATIONS = Integer.getInteger("lincheck.iterations", 10);

    private LincheckBudget() {
    }

    /**
     * Model-checks a data-structure test class (public, with {@code @Operation} methods) within this budget: 2 threads
     * of 3 operations each.
     *
     * @param test the test class
     */
    public static void modelCheck(Class<?> test) {
        new ModelCheckingOptions()
                .iterations(ITERATIONS)
                .invocationsPerIteration(INVOCATIONS)
                .threads(2)
                .actorsPerThread(3)
                .check(test);
    }

    /**
     * Runs a data-structure test class's scenarios on real threads within this budget: 2 threads of 3 operations each.
     *
     * @param test the test class
     */
    public static void stress(Class<?> test) {
        new StressOptions()
                .iterations(ITERATIONS)
                .invocationsPerIteration(STRESS_INVOCATIONS)
                .threads(2)
                .actorsPerThread(3)
                .check(test);
    }
}
