package io.github.poolkit.autoconfigure;

import java.time.Duration;

/** Settings of the delay scheduler ({@code poolkit.scheduler}). */
public class SchedulerProperties {

    /** Whether to create the DelayScheduler bean "delayScheduler": true or false. */
    private boolean enabled = true;

    /** Workers that run due jobs; must be positive. */
    private int workers = 4;

    /**
     * How long due, running and still-pending one-shot jobs may take on context close (running jobs also on a
     * context stop, which pauses the scheduler). The scheduler and all pools share one deadline: the longest
     * shutdown-timeout that is set; with none set anywhere, spring.lifecycle.timeout-per-shutdown-phase (30s by
     * default). At the deadline running jobs are interrupted, and jobs that never ran are logged and handed to
     * the application in a PoolTasksAbandonedEvent.
     */
    private Duration shutdownTimeout;

    /**
     * A job's run still going this long after it started is reported as overdue, once, while it runs (a WARN log
     * line with the worker's stack, a PoolTaskOverdueEvent, the poolkit.pool.tasks.overdue counter and the
     * scheduler's recentOverdue in the pools endpoint); the run is not stopped (see interrupt-overdue). Unset:
     * inherited from poolkit.pool.run-timeout; unset there too, runs are not watched.
     */
    private Duration runTimeout;

    /**
     * A due job's run not yet started this long after it was handed to the workers is reported as overdue, once, as
     * with run-timeout. Unset: inherited from poolkit.pool.queue-timeout; unset there too, waiting runs are not
     * watched.
     */
    private Duration queueTimeout;

    /**
     * Whether the worker of a run overdue by run-timeout is also interrupted (only while it still runs that job), so
     * that a job blocked in an interruptible call gives up. Needs a run-timeout (the scheduler's or the inherited
     * one). Unset: inherited from poolkit.pool.interrupt-overdue (default false).
     */
    private Boolean interruptOverdue;

    /** Creates the scheduler's settings, every key at its default. */
    public SchedulerProperties() {
    }

    /** {@return whether to create the scheduler} */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Sets whether to create the scheduler.
     *
     * @param enabled whether to create the scheduler
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return the number of workers} */
    public int getWorkers() {
        return workers;
    }

    /**
     * Sets the number of workers.
     *
     * @param workers the number of workers
     */
    public void setWorkers(int workers) {
        this.workers = workers;
    }

    /** {@return the shutdown timeout, or {@code null} when unset} */
    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    /**
     * Sets how long to wait for jobs on context close.
     *
     * @param shutdownTimeout how long to wait for jobs on context close
     */
    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    /** {@return how long a job's run may take before it is reported overdue, or {@code null} when unset} */
    public Duration getRunTimeout() {
        return runTimeout;
    }

    /**
     * Sets how long a job's run may take before it is reported overdue.
     *
     * @param runTimeout how long a job's run may take before it is reported overdue
     */
    public void setRunTimeout(Duration runTimeout) {
        this.runTimeout = runTimeout;
    }

    /** {@return how long a due run may wait to start before it is reported overdue, or {@code null} when unset} */
    public Duration getQueueTimeout() {
        return queueTimeout;
    }

    /**
     * Sets how long a due run may wait to start before it is reported overdue.
     *
     * @param queueTimeout how long a due run may wait to start before it is reported overdue
     */
    public void setQueueTimeout(Duration queueTimeout) {
        this.queueTimeout = queueTimeout;
    }

    /** {@return whether the workers of overdue runs are interrupted, or {@code null} when unset} */
    public Boolean getInterruptOverdue() {
        return interruptOverdue;
    }

    /**
     * Sets whether the worker of a run overdue by the run timeout is interrupted.
     *
     * @param interruptOverdue whether the worker of a run overdue by the run timeout is interrupted
     */
    public void setInterruptOverdue(Boolean interruptOverdue) {
        this.interruptOverdue = interruptOverdue;
    }
}
