package io.github.poolkit.autoconfigure.actuate;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolStats;

/**
 * Times one pool's tasks, fed by a {@link PoolListener} of the pool (the one poolkit gave it at creation, or one added
 * to an application's pool with {@code addListener}); all timers tagged {@code name} = the bean name:
 * <ul>
 *   <li>{@code executor} and {@code poolkit.pool.task.duration}: how long tasks ran on a worker (Micrometer's
 *       executor convention, and poolkit's own name for it);</li>
 *   <li>{@code executor.idle} and {@code poolkit.pool.task.wait}: from acceptance to start, that is, time blocked in
 *       {@code execute} plus time queued.</li>
 * </ul>
 * the counter {@code poolkit.pool.tasks}, tagged {@code name} and {@code outcome} ({@code completed}, {@code failed}:
 * the task threw, {@code rejected}: refused), which starts from the pool's own totals when the meters are bound
 * ({@link PoolStats}) and then counts each task as the listener hears of it (a task given to {@code submit} before its
 * future completes); and the counter {@code poolkit.pool.tasks.overdue}, tagged {@code name} and {@code kind}
 * ({@code run}: ran longer than the run timeout; {@code queue}: waited longer than the queue timeout to start), one
 * per overdue task reported after the meters are bound (unlike the task counts, it starts at 0: the pool's
 * {@link PoolStats#overdue()} total does not say which kind each was).
 *
 * <p>The meters are registered up front, so every series exists from the moment the registry is bound. Micrometer's
 * timers and counters are thread-safe and lock-free to record into.
 */
final class PoolTaskMeters implements PoolListener {

    private final Timer run;
    private final Timer idle;
    private final Timer duration;
    private final Timer wait;
    private final Counter overdueRuns;
    private final Counter overdueWaits;
    private final Counter completed;
    private final Counter failed;
    private final Counter rejected;

    /**
     * Registers one pool's meters.
     *
     * @param totals the pool's figures read before this listener is attached: its tasks so far (a task that ends
     *               between that read and the attachment is not counted)
     */
    PoolTaskMeters(MeterRegistry registry, String poolName, PoolStats totals) {
        this.run = timer(registry, "executor", "Time tasks ran on a worker", poolName);
        this.idle = timer(registry, "executor.idle", "Time from acceptance to start: blocked in execute plus queued",
                poolName);
        this.duration = timer(registry, "poolkit.pool.task.duration", "Time tasks ran on a worker", poolName);
        this.wait = timer(registry, "poolkit.pool.task.wait",
                "Time tasks waited for a worker: blocked in execute plus queued", poolName);
        this.overdueRuns = overdue(registry, poolName, "run");
        this.overdueWaits = overdue(registry, poolName, "queue");
        this.completed = tasks(registry, poolName, "completed", totals.completed());
        this.failed = tasks(registry, poolName, "failed", totals.failed());
        this.rejected = tasks(registry, poolName, "rejected", totals.rejected());
    }

    private static Counter tasks(MeterRegistry registry, String poolName, String outcome, long sofar) {
        Counter counter = Counter.builder("poolkit.pool.tasks")
                .description("Tasks a pool finished or refused since it was created, by outcome")
                .baseUnit(BaseUnits.TASKS).tag("name", poolName).tag("outcome", outcome).register(registry);
        counter.increment(sofar);
        return counter;
    }

    /** Removes every meter again, for a pool that cannot take this listener (they would never move). */
    void removeAll(MeterRegistry registry) {
        for (Meter meter : new Meter[] {run, idle, duration, wait, overdueRuns, overdueWaits, completed, failed,
                rejected}) {
            registry.remove(meter);
        }
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
        (failure == null ? completed : failed).increment();
    }

    @Override
    public void taskRejected(RuntimeException reason) {
        rejected.increment();
    }
}
