package io.github.poolkit.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

/** A native image keeps the cluster semaphore's Lua script, which pool-redis loads from its resources. */
class ClusterSemaphoreRuntimeHintsTests {

    @Test
    void theScriptIsARegisteredResourceThatExists() {
        RuntimeHints hints = new RuntimeHints();
        new ClusterSemaphoreRuntimeHints().registerHints(hints, getClass().getClassLoader());
        assertThat(RuntimeHintsPredicates.resource().forResource(ClusterSemaphoreRuntimeHints.SCRIPT)).accepts(hints);
        assertThat(getClass().getClassLoader().getResource(ClusterSemaphoreRuntimeHints.SCRIPT)).isNotNull();
    }
}
