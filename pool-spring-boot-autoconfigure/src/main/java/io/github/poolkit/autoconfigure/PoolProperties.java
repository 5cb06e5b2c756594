package io.github.poolkit.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Settings of one worker pool: the primary one ({@code poolkit.pool}) or a named one ({@code poolkit.pools.<name>}),
 * both of this one shape. A key left unset ({@code null}) on a named pool takes the value of the same key under
 * {@code poolkit.pool}; a key unset there too takes poolkit's default (listed on each key). {@code enabled} is never
 * inherited.
 */
public class PoolProperties extends OverdueProperties {

    /**
     * Whether to create this pool's bean: true or false. Not inherited: a named pool is created unless it says
     * otherwise.
     */
    private boolean enabled = true;

    /** Most tasks running at once (workers alive); zero or negative means unlimited. Default: 256. */
    private Integer capacity;

    /**
     * How long an idle worker may stay unused before it is stopped, also the interval of that check. Zero means
     * the default; negative is only valid with disable-purge. Default: 1s.
     */
    private Duration expiry;

    /** Whether a submit fails at once with PoolOverloadException instead of blocking when no worker is free. */
    private Boolean nonblocking;

    /** Most callers that may be blocked in a submit at once; 0 means no limit. Default: 0. */
    private Integer maxBlockingTasks;

    /**
     * Longest a caller may block in a submit before it gets PoolOverloadException; 0 fails at once (as
     * nonblocking). Unset: callers wait without limit.
     */
    private Duration maxWait;

    /** Whether the capacity is fixed (ants' PreAlloc): tune is then a no-op; needs a positive capacity. */
    private Boolean preAlloc;

    /** Whether idle workers are kept forever instead of being stopped after the expiry. */
    private Boolean disablePurge;

    /**
     * Tasks that may wait in a FIFO queue when every worker is busy: 0 for no queue (callers block), n for a
     * queue of n tasks, -1 for an unbounded queue (a submit never blocks). Default: 0.
     */
    private Integer queueCapacity;

    /**
     * Whether each task runs on a fresh virtual thread (not pooled) instead of a pooled platform worker; capacity
     * then bounds the tasks in flight. Unset: follows spring.threads.virtual.enabled.
     */
    private Boolean virtualThreads;

    /**
     * How long running and queued tasks may take to finish on context close (and on a context stop). All pools and
     * the scheduler drain together against one deadline: the longest shutdown-timeout that is set (named pools
     * inherit this one); with none set anywhere, spring.lifecycle.timeout-per-shutdown-phase (30s by default).
     * At the deadline running tasks are interrupted, and tasks that never started are logged and handed to the
     * application in a PoolTasksAbandonedEvent.
     */
    private Duration shutdownTimeout;

    /**
     * A capacity that follows the latency of the pool's tasks; each key unset here is inherited from
     * poolkit.pool.adaptive.
     */
    @NestedConfigurationProperty
    private final AdaptiveProperties adaptive = new AdaptiveProperties();

    /** Creates one pool's settings, every key unset (inherited or defaulted) and {@code enabled} true. */
    public PoolProperties() {
    }

    /** {@return the adaptive capacity's settings} */
    public AdaptiveProperties getAdaptive() {
        return adaptive;
    }

    /** {@return whether to create this pool} */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Sets whether to create this pool.
     *
     * @param enabled whether to create this pool
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return the capacity, or {@code null} when unset} */
    public Integer getCapacity() {
        return capacity;
    }

    /**
     * Sets the capacity; zero or negative means unlimited.
     *
     * @param capacity the capacity; zero or negative means unlimited
     */
    public void setCapacity(Integer capacity) {
        this.capacity = capacity;
    }

    /** {@return the expiry, or {@code null} when unset} */
    public Duration getExpiry() {
        return expiry;
    }

    /**
     * Sets how long an idle worker may stay unused.
     *
     * @param expiry how long an idle worker may stay unused
     */
    public void setExpiry(Duration expiry) {
        this.expiry = expiry;
    }

    /** {@return whether a submit fails instead of blocking, or {@code null} when unset} */
    public Boolean getNonblocking() {
        return nonblocking;
    }

    /**
     * Sets whether a submit fails instead of blocking.
     *
     * @param nonblocking whether a submit fails instead of blocking
     */
    public void setNonblocking(Boolean nonblocking) {
        this.nonblocking = nonblocking;
    }

    /** {@return the most callers blocked at once, or {@code null} when unset} */
    public Integer getMaxBlockingTasks() {
        return maxBlockingTasks;
    }

    /**
     * Sets the most callers blocked at once; 0 means no limit.
     *
     * @param maxBlockingTasks the most callers blocked at once; 0 means no limit
     */
    public void setMaxBlockingTasks(Integer maxBlockingTasks) {
        this.maxBlockingTasks = maxBlockingTasks;
    }

    /** {@return the longest a caller blocks, or {@code null} when unset (no limit)} */
    public Duration getMaxWait() {
        return maxWait;
    }

    /**
     * Sets the longest a caller blocks; zero fails at once.
     *
     * @param maxWait the longest a caller blocks; zero fails at once
     */
    public void setMaxWait(Duration maxWait) {
        this.maxWait = maxWait;
    }

    /** {@return whether to pre-allocate, or {@code null} when unset} */
    public Boolean getPreAlloc() {
        return preAlloc;
    }

    /**
     * Sets whether to pre-allocate the idle-worker store.
     *
     * @param preAlloc whether to pre-allocate the idle-worker store
     */
    public void setPreAlloc(Boolean preAlloc) {
        this.preAlloc = preAlloc;
    }

    /** {@return whether idle workers are kept forever, or {@code null} when unset} */
    public Boolean getDisablePurge() {
        return disablePurge;
    }

    /**
     * Sets whether idle workers are kept forever.
     *
     * @param disablePurge whether idle workers are kept forever
     */
    public void setDisablePurge(Boolean disablePurge) {
        this.disablePurge = disablePurge;
    }

    /** {@return the queue capacity, or {@code null} when unset} */
    public Integer getQueueCapacity() {
        return queueCapacity;
    }

    /**
     * Sets the queue capacity: 0 none, n bounded, -1 unbounded.
     *
     * @param queueCapacity the queue capacity: 0 none, n bounded, -1 unbounded
     */
    public void setQueueCapacity(Integer queueCapacity) {
        this.queueCapacity = queueCapacity;
    }

    /** {@return whether tasks run on virtual threads, or {@code null} when unset} */
    public Boolean getVirtualThreads() {
        return virtualThreads;
    }

    /**
     * Sets whether tasks run on virtual threads.
     *
     * @param virtualThreads whether tasks run on virtual threads
     */
    public void setVirtualThreads(Boolean virtualThreads) {
        this.virtualThreads = virtualThreads;
    }

    /** {@return the shutdown timeout, or {@code null} when unset} */
    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    /**
     * Sets how long to wait for tasks on context close.
     *
     * @param shutdownTimeout how long to wait for tasks on context close
     */
    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }
}
