package io.github.poolkit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * Which paths the pool takes follows the processors the JVM sees ({@link Spin}). The build runs the engine's suites a
 * second time with {@code -XX:ActiveProcessorCount=8} (pool-core's {@code many-processors} execution); this test makes
 * sure that run really took the many-processor paths.
 */
class SpinModeTest {

    @Test
    void manyProcessorsRunTakesTheManyProcessorPaths() {
        Integer processors = Integer.getInteger("poolkit.test.processors");
        // The default execution excludes this test; a -Dtest run, which overrides that, skips it there.
        assumeTrue(processors != null, "only in the many-processors run, which sets poolkit.test.processors");
        assertEquals(processors.intValue(), Spin.PROCESSORS, "-XX:ActiveProcessorCount did not reach the test JVM");
        assertEquals(true, Spin.TAKE_LOCKED, "a queued pool's workers take under the take lock from 4 processors up");
        assertEquals(true, Spin.CALLERS_SPIN, "callers spin for a hand-off from 4 processors up");
    }
}
