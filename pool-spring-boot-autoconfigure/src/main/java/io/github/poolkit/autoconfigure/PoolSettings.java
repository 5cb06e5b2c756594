package io.github.poolkit.autoconfigure;

import static io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException.check;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.autoconfigure.PoolkitProperties.NamedPool;
import io.github.poolkit.autoconfigure.PoolkitProperties.Pool;

/**
 * The effective settings of one worker-pool bean: a named pool's own values merged over {@code poolkit.pool}'s, each
 * value remembering the property key it came from so that an invalid one is reported under the key the user wrote.
 *
 * <p>Immutable once built; {@link #validate()} applies the same rules as {@code WorkerPool.create} but reports them as
 * {@link InvalidPoolkitPropertyException}s naming the property.
 */
final class PoolSettings {

    /** The prefix of the primary pool's keys, which named pools inherit. */
    static final String PRIMARY_PREFIX = "poolkit.pool";

    final String beanName;
    final int capacity;
    final Duration expiry;
    final boolean nonblocking;
    final int maxBlockingTasks;
    final boolean preAlloc;
    final boolean disablePurge;
    final int queueCapacity;
    final boolean virtualThreads;
    final Duration shutdownTimeout;

    /** Where keys set on this entry live ({@code poolkit.pool} or {@code poolkit.pools.<name>}). */
    private final String prefix;

    /** The kebab-case keys set on this entry itself; the others come from {@link #PRIMARY_PREFIX}. */
    private final Set<String> ownKeys;

    private PoolSettings(String beanName, String prefix, Set<String> ownKeys, int capacity, Duration expiry,
            boolean nonblocking, int maxBlockingTasks, boolean preAlloc, boolean disablePurge, int queueCapacity,
            boolean virtualThreads, Duration shutdownTimeout) {
        this.beanName = beanName;
        this.prefix = prefix;
        this.ownKeys = ownKeys;
        this.capacity = capacity;
        this.expiry = expiry;
        this.nonblocking = nonblocking;
        this.maxBlockingTasks = maxBlockingTasks;
        this.preAlloc = preAlloc;
        this.disablePurge = disablePurge;
        this.queueCapacity = queueCapacity;
        this.virtualThreads = virtualThreads;
        this.shutdownTimeout = shutdownTimeout;
    }

    /**
     * @param beanName the bean name of the primary pool
     * @param pool     {@code poolkit.pool}
     * @return the primary pool's settings
     */
    static PoolSettings primary(String beanName, Pool pool) {
        return new PoolSettings(beanName, PRIMARY_PREFIX, Set.of(), pool.getCapacity(), pool.getExpiry(),
                pool.isNonblocking(), pool.getMaxBlockingTasks(), pool.isPreAlloc(), pool.isDisablePurge(),
                pool.getQueueCapacity(), pool.isVirtualThreads(), pool.getShutdownTimeout());
    }

    /**
     * @param name     the key under {@code poolkit.pools}, which is also the bean name
     * @param own      {@code poolkit.pools.<name>}
     * @param defaults {@code poolkit.pool}, for the keys {@code own} leaves unset
     * @return the named pool's settings
     */
    static PoolSettings named(String name, NamedPool own, Pool defaults) {
        Set<String> ownKeys = new HashSet<>();
        return new PoolSettings(name, "poolkit.pools." + name, ownKeys,
                pick(ownKeys, "capacity", own.getCapacity(), defaults.getCapacity()),
                pick(ownKeys, "expiry", own.getExpiry(), defaults.getExpiry()),
                pick(ownKeys, "nonblocking", own.getNonblocking(), defaults.isNonblocking()),
                pick(ownKeys, "max-blocking-tasks", own.getMaxBlockingTasks(), defaults.getMaxBlockingTasks()),
                pick(ownKeys, "pre-alloc", own.getPreAlloc(), defaults.isPreAlloc()),
                pick(ownKeys, "disable-purge", own.getDisablePurge(), defaults.isDisablePurge()),
                pick(ownKeys, "queue-capacity", own.getQueueCapacity(), defaults.getQueueCapacity()),
                pick(ownKeys, "virtual-threads", own.getVirtualThreads(), defaults.isVirtualThreads()),
                pick(ownKeys, "shutdown-timeout", own.getShutdownTimeout(), defaults.getShutdownTimeout()));
    }

    private static <T> T pick(Set<String> ownKeys, String key, T own, T inherited) {
        if (own == null) {
            return inherited;
        }
        ownKeys.add(key);
        return own;
    }

    /**
     * @param key a kebab-case key such as {@code expiry}
     * @return the full property key the value of {@code key} came from
     */
    String property(String key) {
        return (ownKeys.contains(key) ? prefix : PRIMARY_PREFIX) + "." + key;
    }

    /**
     * @param key a kebab-case key such as {@code disable-purge}
     * @return the full key of {@code key} on this entry, where a fix for this pool belongs
     */
    String ownProperty(String key) {
        return prefix + "." + key;
    }

    /**
     * Checks the settings together, as {@code WorkerPool.create} would.
     *
     * @throws InvalidPoolkitPropertyException naming the first invalid property
     */
    void validate() {
        check(expiry != null, property("expiry"), null, "the expiry must be set",
                "set it to a positive duration such as 1s");
        check(!expiry.isNegative() || disablePurge, property("expiry"), expiry,
                "a negative expiry is only valid when idle workers are never purged",
                "set " + property("expiry") + " to a positive duration such as 1s, or set "
                        + ownProperty("disable-purge") + " to true to keep idle workers forever");
        check(!preAlloc || capacity > 0, property("pre-alloc"), true,
                "pre-allocation needs a bounded pool, but " + property("capacity") + " is " + capacity
                        + " (unlimited)",
                "set " + ownProperty("capacity") + " to a positive number, or set " + property("pre-alloc")
                        + " to false");
        check(maxBlockingTasks >= 0, property("max-blocking-tasks"), maxBlockingTasks,
                "the number of blocked callers cannot be negative",
                "set " + property("max-blocking-tasks") + " to 0 (no limit) or a positive number");
        check(queueCapacity >= -1, property("queue-capacity"), queueCapacity,
                "the queue capacity must be -1 (unbounded), 0 (no queue) or positive",
                "set " + property("queue-capacity") + " to -1, 0 or a positive number");
        check(shutdownTimeout != null && !shutdownTimeout.isNegative(), property("shutdown-timeout"),
                shutdownTimeout, "the shutdown timeout cannot be negative",
                "set " + property("shutdown-timeout") + " to zero or a positive duration such as 30s");
    }

    /**
     * @return a builder with these settings and the bean name as the pool's name; thread factory, panic handler and
     *         listener are left for the caller
     */
    PoolOptions.Builder toOptions() {
        return PoolOptions.builder()
                .name(beanName)
                .expiry(expiry)
                .nonblocking(nonblocking)
                .maxBlockingTasks(maxBlockingTasks)
                .preAlloc(preAlloc)
                .disablePurge(disablePurge)
                .queueCapacity(queueCapacity);
    }
}
