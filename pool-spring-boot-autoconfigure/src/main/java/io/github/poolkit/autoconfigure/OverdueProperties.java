package io.github.poolkit.autoconfigure;

import java.time.Duration;

/**
 * The overdue keys, the same under {@code poolkit.pool}, {@code poolkit.pools.<name>} and {@code poolkit.scheduler}:
 * a key left unset ({@code null}) on a named pool or on the scheduler takes the value of the same key under
 * {@code poolkit.pool}; unset there too, nothing is watched.
 */
public abstract class OverdueProperties {

    /**
     * A task (for the scheduler: a job's run) still running this long after it started is reported as overdue, once,
     * while it runs: a WARN log line with the worker's stack, a PoolTaskOverdueEvent, the poolkit.pool.tasks.overdue
     * counter and the recentOverdue entries in the pools endpoint. The task is not stopped (see interrupt-overdue).
     * Unset on a named pool or the scheduler: poolkit.pool.run-timeout; unset there too: running tasks are not
     * watched.
     */
    private Duration runTimeout;

    /**
     * A task not yet started this long after it was accepted (queued, or its caller blocked in a submit; for the
     * scheduler: a due run waiting for a worker) is reported as overdue, once, as with run-timeout; it keeps its
     * place. Unset on a named pool or the scheduler: poolkit.pool.queue-timeout; unset there too: waiting tasks are not
     * watched.
     */
    private Duration queueTimeout;

    /**
     * Whether the worker of a task overdue by run-timeout is also interrupted (only while it still runs that task), so
     * that a task blocked in an interruptible call gives up. Needs run-timeout. Unset on a named pool or the
     * scheduler: poolkit.pool.interrupt-overdue; unset there too: false.
     */
    private Boolean interruptOverdue;

    /** For the settings classes that have these keys. */
    protected OverdueProperties() {
    }

    /** {@return how long a task may run before it is reported overdue, or {@code null} when unset} */
    public Duration getRunTimeout() {
        return runTimeout;
    }

    /**
     * Sets how long a task may run before it is reported overdue.
     *
     * @param runTimeout how long a task may run before it is reported overdue
     */
    public void setRunTimeout(Duration runTimeout) {
        this.runTimeout = runTimeout;
    }

    /** {@return how long a task may wait to start before it is reported overdue, or {@code null} when unset} */
    public Duration getQueueTimeout() {
        return queueTimeout;
    }

    /**
     * Sets how long a task may wait to start before it is reported overdue.
     *
     * @param queueTimeout how long a task may wait to start before it is reported overdue
     */
    public void setQueueTimeout(Duration queueTimeout) {
        this.queueTimeout = queueTimeout;
    }

    /** {@return whether overdue tasks are interrupted, or {@code null} when unset} */
    public Boolean getInterruptOverdue() {
        return interruptOverdue;
    }

    /**
     * Sets whether the worker of a task overdue by the run timeout is interrupted.
     *
     * @param interruptOverdue whether the worker of a task overdue by the run timeout is interrupted
     */
    public void setInterruptOverdue(Boolean interruptOverdue) {
        this.interruptOverdue = interruptOverdue;
    }
}
