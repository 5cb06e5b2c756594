package io.github.poolkit.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Settings of one named weighted semaphore ({@code poolkit.semaphores.<name>}); an unset size is inherited from
 * {@code poolkit.semaphore.size}, and {@code enabled} defaults to {@code true}.
 */
public class NamedSemaphoreProperties {

    /** Whether to create this semaphore's bean. Not inherited from poolkit.semaphore.enabled. */
    private boolean enabled = true;

    /**
     * Total weight of the permits; must not be negative (and at most 2^53 - 1 with scope cluster). Default:
     * poolkit.semaphore.size. With scope cluster, the size the first instance stores in Redis: a changed value takes
     * effect through POST /actuator/pools/{name} or a live refresh, not a restart.
     */
    private Long size;

    /**
     * Where the permits live: "local" (a WeightedSemaphore in this JVM) or "cluster" (one semaphore shared, through
     * the application's Redis, by every instance that uses this name; needs io.github.poolkit:pool-redis).
     */
    private PoolkitProperties.Scope scope = PoolkitProperties.Scope.LOCAL;

    /**
     * For a cluster semaphore: how long a grant outlives its holder's last renewal (holders renew every third of
     * it), so the permits of an instance that died come back after at most this long.
     */
    private Duration leaseTime = Duration.ofSeconds(30);

    /**
     * A size that follows how long permits are held (scope local only); unset keys take their defaults, not
     * poolkit.semaphore's.
     */
    @NestedConfigurationProperty
    private final AdaptiveProperties adaptive = new AdaptiveProperties();

    /** Creates one named semaphore's settings: the size unset (inherited), every other key at its default. */
    public NamedSemaphoreProperties() {
    }

    /** {@return whether to create this semaphore} */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Sets whether to create this semaphore.
     *
     * @param enabled whether to create this semaphore
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return the size, or {@code null} to inherit} */
    public Long getSize() {
        return size;
    }

    /**
     * Sets the size, or {@code null} to inherit.
     *
     * @param size the size, or {@code null} to inherit
     */
    public void setSize(Long size) {
        this.size = size;
    }

    /** {@return where the permits live} */
    public PoolkitProperties.Scope getScope() {
        return scope;
    }

    /**
     * Sets where the permits live.
     *
     * @param scope where the permits live
     */
    public void setScope(PoolkitProperties.Scope scope) {
        this.scope = scope;
    }

    /** {@return the lease time of a cluster semaphore's grants} */
    public Duration getLeaseTime() {
        return leaseTime;
    }

    /**
     * Sets the lease time of a cluster semaphore's grants.
     *
     * @param leaseTime the lease time of a cluster semaphore's grants
     */
    public void setLeaseTime(Duration leaseTime) {
        this.leaseTime = leaseTime;
    }

    /** {@return the adaptive size's settings} */
    public AdaptiveProperties getAdaptive() {
        return adaptive;
    }
}
