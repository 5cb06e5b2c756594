package io.github.poolkit.stress;

/**
 * Plain assertions for code that runs under Lincheck: its instrumentation makes every call inside the checked scenario
 * part of the explored interleavings, and AssertJ's machinery (large, lazily initialised, lock-taking) then dominates
 * the run time and confuses its hang detection. These are one comparison each.
 */
final class Check {

    private Check() {
    }

    /**
     * @param what   what the value is, for the message
     * @param value  the value
     * @param min    the smallest allowed value
     * @param max    the largest allowed value
     */
    static void between(String what, long value, long min, long max) {
        if (value < min || value > max) {
            throw new AssertionError(what + " was " + value + ", expected between " + min + " and " + max);
        }
    }

    /**
     * @param what     what the value is, for the message
     * @param value    the value
     * @param expected the expected value
     */
    static void equal(String what, long value, long expected) {
        if (value != expected) {
            throw new AssertionError(what + " was " + value + ", expected " + expected);
        }
    }

    /**
     * @param what      what must hold, for the message
     * @param condition whether it holds
     */
    static void that(String what, boolean condition) {
        if (!condition) {
            throw new AssertionError("expected: " + what);
        }
    }
}
