package io.github.poolkit.autoconfigure;

import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The panic handler of every pool poolkit's auto-configuration creates: logs what a task threw, with its stack trace,
 * at ERROR through the application's logging system (Spring's commons-logging bridge, so Logback, Log4j 2 or JUL as
 * configured), naming the pool. Category: {@code io.github.poolkit.autoconfigure.PoolPanicLogger}.
 *
 * <p>Stateless apart from the pool's name; safe to call from any number of workers at once.
 */
final class PoolPanicLogger implements Consumer<Throwable> {

    private static final Log logger = LogFactory.getLog(PoolPanicLogger.class);

    private final String poolName;

    /** @param poolName the bean name of the pool, named in every message */
    PoolPanicLogger(String poolName) {
        this.poolName = poolName;
    }

    @Override
    public void accept(Throwable failure) {
        logger.error("Task on pool '" + poolName + "' failed", failure);
    }
}
