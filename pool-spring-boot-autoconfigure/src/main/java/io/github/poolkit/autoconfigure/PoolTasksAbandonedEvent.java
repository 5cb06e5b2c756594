package io.github.poolkit.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.springframework.context.ApplicationEvent;

/**
 * Published when a pool or the scheduler that poolkit created has not finished its work by the shutdown deadline (on
 * context close, or on {@code stop()}): its running tasks have just been interrupted and its tasks that never started
 * have been taken out of it, and this event hands them to the application, which may persist them to run them later.
 *
 * <p>One event per pool or scheduler that had anything left, published on the thread that stops the context, while
 * the context's listeners can still receive events. Listen with {@code @EventListener} or an
 * {@code ApplicationListener<PoolTasksAbandonedEvent>} bean; an exception a listener throws is logged and does not
 * stop the shutdown of the other pools.
 *
 * <p>The tasks are those the pool's {@code shutdownNow()} took out, in the order they would have run: for a pool, the
 * objects passed to {@code execute} (also when the application's task decorator wrapped them; a {@code submit} call's
 * task is the {@code Future} it returned); for the scheduler, each job's own
 * {@link java.util.concurrent.ScheduledFuture}, now cancelled. Running one of them later runs that task.
 *
 * <p>Immutable.
 */
public class PoolTasksAbandonedEvent extends ApplicationEvent {

    /** The bean name of the pool or scheduler. */
    private final String poolName;
    /** The tasks accepted but never started (not serialized: tasks need not be serializable). */
    private final transient List<Runnable> unstartedTasks;
    /** How many running tasks were interrupted. */
    private final int interruptedTasks;
    /** The shutdown deadline that passed. */
    private final Duration deadline;

    /**
     * Creates the event for one pool or scheduler that did not finish in time.
     *
     * @param pool             the pool or scheduler, the event's source
     * @param poolName         its bean name
     * @param unstartedTasks   the tasks that never started, those its {@code shutdownNow()} took out
     * @param interruptedTasks how many running tasks were interrupted
     * @param deadline         the shutdown deadline they did not meet
     */
    public PoolTasksAbandonedEvent(Object pool, String poolName, List<Runnable> unstartedTasks, int interruptedTasks,
            Duration deadline) {
        super(pool);
        this.poolName = Objects.requireNonNull(poolName, "poolName");
        this.unstartedTasks = List.copyOf(unstartedTasks);
        this.interruptedTasks = interruptedTasks;
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    /** {@return the bean name of the pool or scheduler} */
    public String getPoolName() {
        return poolName;
    }

    /** {@return the tasks that were accepted but never started, in the order the pool would have run them} */
    public List<Runnable> getUnstartedTasks() {
        return unstartedTasks;
    }

    /** {@return how many tasks were running at the deadline and were interrupted} */
    public int getInterruptedTasks() {
        return interruptedTasks;
    }

    /** {@return the shutdown deadline that passed} */
    public Duration getDeadline() {
        return deadline;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[pool=" + poolName + ", interrupted=" + interruptedTasks + ", unstarted="
                + unstartedTasks.size() + ", deadline=" + deadline + "]";
    }
}
