package io.github.poolkit.autoconfigure;

import java.time.Duration;

/** Settings of the delay scheduler ({@code poolkit.scheduler}). */
public class SchedulerProperties extends OverdueProperties {

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
}
