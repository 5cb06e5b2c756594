package io.github.poolkit.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Configuration properties under {@code poolkit}: the primary worker pool ({@code poolkit.pool}), named pools
 * ({@code poolkit.pools.<name>}), the primary weighted semaphore ({@code poolkit.semaphore}), named semaphores
 * ({@code poolkit.semaphores.<name>}) and the delay scheduler ({@code poolkit.scheduler}).
 *
 * <p>Implementation overview: plain mutable holders filled by Spring Boot's binder once, at start-up, and only read
 * afterwards, one class per shape. The primary pool and the named pools share one shape, {@link PoolProperties},
 * whose nullable fields tell an unset key from a value: a named pool's unset key is inherited from
 * {@code poolkit.pool}, and a key unset there takes poolkit's default ({@link PoolSettings}). Named semaphores
 * ({@link NamedSemaphoreProperties}) inherit their size from {@link SemaphoreProperties}. The {@code enabled} switch is
 * never inherited. Values are checked by the same rules as poolkit's core library, all together before any bean is
 * created (and again when each bean is created), so bad values stop start-up with one report naming every property at
 * fault; so does a key under {@code poolkit.} that none of these properties binds, named with the nearest key that
 * exists.
 *
 * <p>Invalid values are ignored by this bean's own binding ({@code ignoreInvalidFields}): start-up never reaches it
 * with one (the check above runs first and stops start-up), but Spring Cloud binds it again on every refresh, and a
 * value that does not convert would then fail the whole refresh before poolkit's refresh listener could log it and
 * apply the rest. A bean reads this object when it is created (at start-up, or at first use for a lazy one); a
 * refresh changes the beans that exist only through that listener, while a lazy bean first used after a refresh is
 * made from the values bound then (an unconvertible one left at its value before).
 */
@ConfigurationProperties(prefix = "poolkit", ignoreInvalidFields = true)
public class PoolkitProperties {

    /** The primary WorkerPool, bean "workerPool"; also the defaults of the named pools. */
    @NestedConfigurationProperty
    private final PoolProperties pool = new PoolProperties();

    /** More WorkerPool beans, one per key (the bean name); unset keys are inherited from poolkit.pool. */
    private final Map<String, PoolProperties> pools = new LinkedHashMap<>();

    /** The primary WeightedSemaphore, bean "weightedSemaphore"; also the defaults of the named semaphores. */
    @NestedConfigurationProperty
    private final SemaphoreProperties semaphore = new SemaphoreProperties();

    /**
     * More semaphore beans, one per key (the bean name): a WeightedSemaphore, or a RedisPermitSemaphore with scope
     * cluster; only an unset size is inherited, from poolkit.semaphore.size.
     */
    private final Map<String, NamedSemaphoreProperties> semaphores = new LinkedHashMap<>();

    /** The DelayScheduler, bean "delayScheduler". */
    @NestedConfigurationProperty
    private final SchedulerProperties scheduler = new SchedulerProperties();

    /** Creates the properties, every key at its default; Spring Boot binds {@code poolkit.*} onto them. */
    public PoolkitProperties() {
    }

    /** {@return the primary pool's settings} */
    public PoolProperties getPool() {
        return pool;
    }

    /** {@return the named pools' settings, by bean name, in declaration order} */
    public Map<String, PoolProperties> getPools() {
        return pools;
    }

    /** {@return the primary semaphore's settings} */
    public SemaphoreProperties getSemaphore() {
        return semaphore;
    }

    /** {@return the named semaphores' settings, by bean name, in declaration order} */
    public Map<String, NamedSemaphoreProperties> getSemaphores() {
        return semaphores;
    }

    /** {@return the scheduler's settings} */
    public SchedulerProperties getScheduler() {
        return scheduler;
    }

    /** Where a named semaphore's permits live. */
    public enum Scope {
        /** In this JVM: a WeightedSemaphore. */
        LOCAL,
        /** Shared by every instance of the service through Redis: a RedisPermitSemaphore. */
        CLUSTER
    }

    /** How an adaptive limit adapts. */
    public enum Algorithm {
        /** It does not: the capacity or size is fixed. */
        NONE,
        /** {@code AdaptiveLimit.gradient}: short-term against baseline round-trip time. */
        GRADIENT,
        /** {@code AdaptiveLimit.aimd}: additive increase, multiplicative decrease. */
        AIMD
    }

}
