package io.github.poolkit.autoconfigure.actuate;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;

/**
 * Times one pool's tasks, fed by a {@link PoolListener} of the pool (the one poolkit gave it at creation, or one added
 * to an application's pool with {@code addListener}); all timers tagged {@code name} = the bean name:
 * <ul>
 *   <li>{@code executor} and {@code poolkit.pool.task.duration}: how long tasks ran on a worker (Micrometer's
 *       executor convention, and poolkit's own name for it);</li>
 *   <li>{@code executor.idle} and {@code poolkit.pool.task.wait}: from acceptance to start, that is, time blocked in
 *       {@code execute} plus time queued.</li>
 * </ul>
 * and the counter {@code poolkit.pool.tasks.overdue}, tagged {@code name} and {@code kind} ({@code run}: ran longer than
 * the run timeout; {@code queue}: waited longer than the queue timeout to start), one per overdue task.
 *
 * <p>The timers are registered up front, so every series exists (at zero) from the moment the registry is bound.
 * Micrometer's timers are thread-safe and lock-free to record into.
 */
final class PoolTaskMeters implements PoolListener {

    private final Timer run;
    private final Timer idle;
    private final Timer duration;
    private final Timer wait;
    private final Counter overdueRuns;
    private final Counter overdueWaits;

    PoolTaskMeters(MeterRegistry registry, String poolName) {
        this.run = timer(registry, "executor", "Time tasks ran on a worker", poolName);
        this.idle = timer(registry, "executor.idle", "Time from acceptance to start: blocked in execute plus queued",
                poolName);
        this.duration = timer(registry, "poolkit.pool.task.duration", "Time tasks ran on a worker", poolName);
        this.wait = timer(registry, "poolkit.pool.task.wait",
                "Time tasks waited for a worker: blocked in execute plus queued", poolName);
        this.overdueRuns = overdue(registry, poolName, "run");
        this.overdueWaits = overdue(registry, poolName, "queue");
    }

    private static Counter overdue(MeterRegistry registry, String poolName, String kind) {
        return Counter.builder("poolkit.pool.tasks.overdue")
                .description("Tasks that ran longer than the run timeout (kind run) or waited longer than the queue"
                        + " timeout to start (kind queue)")
                .tag("name", poolName).tag("kind", kind).register(registry);
    }

    @Override
    public void taskOverdue(OverdueTask task) {
        (task.kind() == OverdueTask.Kind.RUN ? overdueRuns : overdueWaits).increment();
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
