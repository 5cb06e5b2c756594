package io.github.poolkit.autoconfigure;

import java.util.Objects;

import io.github.poolkit.OverdueTask;

import org.springframework.context.ApplicationEvent;

/**
 * Published once for each task of a pool or scheduler bean (poolkit's, or one the application made itself) that ran
 * longer than its {@code run-timeout}, or waited to start longer than its {@code queue-timeout}: the task was still
 * running, or still waiting, when it was found overdue (it may have ended by the time the event is published, after
 * the events of the pool's earlier overdue tasks). Listen with {@code @EventListener} or an
 * {@code ApplicationListener<PoolTaskOverdueEvent>} bean.
 *
 * <p>Published on the pool's overdue reporting thread ({@code poolkit-overdue-<pool>-<n>}), never on the worker that
 * runs the task, so a listener may take its time without holding the task up; it does delay that pool's later
 * reports (not other pools'). Events of different pools may be published at the same time, each on its pool's
 * thread. An exception a listener throws is logged.
 *
 * <p>Immutable.
 */
public class PoolTaskOverdueEvent extends ApplicationEvent {

    /** The overdue task (not serialized: it holds a stack). */
    private final transient OverdueTask overdueTask;

    /**
     * Creates the event.
     *
     * @param pool        the pool or scheduler, the event's source
     * @param overdueTask the overdue task: pool name, kind, task, thread, elapsed time and the worker's stack
     */
    public PoolTaskOverdueEvent(Object pool, OverdueTask overdueTask) {
        super(pool);
        this.overdueTask = Objects.requireNonNull(overdueTask, "overdueTask");
    }

    /** {@return the overdue task: pool name, kind, task, thread, elapsed time and the worker's stack} */
    public OverdueTask getOverdueTask() {
        return overdueTask;
    }
}
