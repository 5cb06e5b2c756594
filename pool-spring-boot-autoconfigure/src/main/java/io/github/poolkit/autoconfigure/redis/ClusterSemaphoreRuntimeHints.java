package io.github.poolkit.autoconfigure.redis;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What a cluster semaphore reads at run time that a native image must keep: the Lua script it loads from its own
 * module's resources ({@link #SCRIPT}), which Redis then runs.
 */
class ClusterSemaphoreRuntimeHints implements RuntimeHintsRegistrar {

    /** The script's resource path in pool-redis. */
    static final String SCRIPT = "io/github/poolkit/redis/semaphore.lua";

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern(SCRIPT);
    }
}
