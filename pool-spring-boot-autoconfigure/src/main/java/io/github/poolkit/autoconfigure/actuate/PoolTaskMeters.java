package io.github.poolkit.autoconfigure.actuate;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.github.poolkit.PoolListener;

/**
 * Times one pool's tasks, fed by the {@link PoolListener} the pool got at creation; all timers tagged {@code name} =
 * the bean name:
 * <ul>
 *   <li>{@code executor} and {@code poolkit.pool.task.duration}: how long tasks ran on a worker (Micrometer's
 *       executor convention, and poolkit's own name for it);</li>
 *   <li>{@code executor.idle} and {@code poolkit.pool.task.wait}: from acceptance to start, that is, time blocked in
 *       {@code execute} plus time queued.</li>
 * </ul>
 *
 * <p>The timers are registered up front, so every series exists (at zero) from the moment the registry is bound.
 * Micrometer's timers are thread-safe and lock-free to record into.
 */
final class PoolTaskMeters implements PoolListener {

    private final Timer run;
    private final Timer idle;
    private final Timer duration;
    private final Timer wait;

    PoolTaskMeters(MeterRegistry registry, String poolName) {
        this.run = timer(registry, "executor", "Time tasks ran on a worker", poolName);
        this.idle = timer(registry, "executor.idle", "Time from acceptance to start: blocked in execute plus queued",
                poolName);
        this.duration = timer(registry, "poolkit.pool.task.duration", "Time tasks ran on a worker", poolName);
        this.wait = timer(registry, "poolkit.pool.task.wait",
                "Time tasks waited for a worker: blocked in execute plus queued", poolName);
    }

    private static Timer timer(MeterRegistry registry, String meter, String description, String poolName) {
        return Timer.builder(meter).description(description).tag("name", poolName).register(registry);
    }

    @Override
    public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
        idle.record(waitedNanos, TimeUnit.NANOSECONDS);
        wait.record(waitedNanos, TimeUnit.NANOSECONDS);
        run.record(ranNanos, TimeUnit.NANOSECONDS);
        duration.record(ranNanos, TimeUnit.NANOSECONDS);
    }
}
