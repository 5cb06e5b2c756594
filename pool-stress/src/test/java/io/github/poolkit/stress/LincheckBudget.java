package io.github.poolkit.stress;

/**
 * How much exploring the Lincheck tests do in the default build: small enough for CI (seconds per test), and
 * configurable for a deeper run, e.g. {@code -Dlincheck.iterations=100 -Dlincheck.invocations=20000 -Dlincheck.stressInvocations=5000
 * -Dlincheck.scenarioInvocations=5000}.
 */
final class LincheckBudget {

    /** Interleavings explored per generated scenario of a data-structure test. */
    static final int INVOCATIONS = Integer.getInteger("lincheck.invocations", 500);

    /** Runs of each generated scenario on real threads, for the stress strategy (each one costs a thread hand-off). */
    static final int STRESS_INVOCATIONS = Integer.getInteger("lincheck.stressInvocations", 200);

    /**
     * Interleavings explored by a {@code runConcurrentTest} scenario that starts real worker threads: each one costs
     * far more than a data-structure invocation (about 40 ms on the CI machines).
     */
    static final int SCENARIO_INVOCATIONS = Integer.getInteger("lincheck.scenarioInvocations", 200);

    /** Random scenarios generated per data-structure test. */
    static final int ITERATIONS = Integer.getInteger("lincheck.iterations", 10);

    private LincheckBudget() {
    }
}
