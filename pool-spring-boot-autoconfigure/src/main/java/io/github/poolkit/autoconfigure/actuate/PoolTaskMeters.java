package io.github.poolkit.autoconfigure.actuate;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.github.poolkit.PoolListener;

/**
 * Records one pool's task events into Micrometer meters, all tagged {@code name} = the pool's bean name:
 * <ul>
 *   <li>{@code poolkit.pool.tasks} (counter), tag {@code outcome} = {@code completed}, {@code failed} (the task threw)
 *       or {@code rejected} (the pool was closed or overloaded, or the caller was interrupted);</li>
 *   <li>{@code poolkit.pool.task.duration} (timer): how long tasks ran on a worker;</li>
 *   <li>{@code poolkit.pool.task.wait} (timer): how long tasks waited for a worker, blocked in {@code execute} plus
 *       queued.</li>
 * </ul>
 *
 * <p>The meters are registered up front, so every series exists (at zero) from the moment the registry is bound.
 * Micrometer's meters are thread-safe; each event costs one or three lock-free updates.
 */
final class PoolTaskMeters implements PoolListener {

    private final Counter completed;
    private final Counter failed;
    private final Counter rejected;
    private final Timer duration;
    private final Timer wait;

    PoolTaskMeters(MeterRegistry registry, String poolName) {
        this.completed = tasks(registry, poolName, "completed");
        this.failed = tasks(registry, poolName, "failed");
        this.rejected = tasks(registry, poolName, "rejected");
        this.duration = Timer.builder("poolkit.pool.task.duration")
                .description("Time tasks ran on a worker")
                .tag("name", poolName)
                .register(registry);
        this.wait = Timer.builder("poolkit.pool.task.wait")
                .description("Time tasks waited for a worker: blocked in execute plus queued")
                .tag("name", poolName)
                .register(registry);
    }

    private static Counter tasks(MeterRegistry registry, String poolName, String outcome) {
        return Counter.builder("poolkit.pool.tasks")
                .description("Tasks a pool finished or refused, by outcome")
                .tag("name", poolName)
                .tag("outcome", outcome)
                .register(registry);
    }

    @Override
    public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
        wait.record(waitedNanos, TimeUnit.NANOSECONDS);
        duration.record(ranNanos, TimeUnit.NANOSECONDS);
        (failure == null ? completed : failed).increment();
    }

    @Override
    public void taskRejected(RuntimeException reason) {
        rejected.increment();
    }
}
