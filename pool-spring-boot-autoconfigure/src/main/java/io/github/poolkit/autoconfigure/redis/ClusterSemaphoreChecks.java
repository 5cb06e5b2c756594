package io.github.poolkit.autoconfigure.redis;

import io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException;
import io.github.poolkit.autoconfigure.PoolkitProperties;
import io.github.poolkit.autoconfigure.NamedSemaphoreProperties;
import io.github.poolkit.redis.RedisPermitSemaphore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules a cluster semaphore's settings ({@code poolkit.semaphores.<name>} with {@code scope: cluster}) must meet
 * before a {@link RedisPermitSemaphore} can be built: a size Redis's Lua scripts hold exactly, and a lease time long
 * enough to renew. Used by the start-up check of the whole configuration, which reports every problem at once, and by
 * {@link ClusterSemaphoreFactory} when it creates the bean. Needs the pool-redis module on the class path.
 */
public final class ClusterSemaphoreChecks {

    /** The longest lease time a {@link RedisPermitSemaphore} takes: a {@code long} of nanoseconds. */
    private static final Duration LONGEST_LEASE_TIME = Duration.ofNanos(Long.MAX_VALUE);

    private ClusterSemaphoreChecks() {
    }

    /**
     * Checks one cluster semaphore's settings.
     *
     * @param properties the bound {@code poolkit.*} properties
     * @param name       a key of {@code poolkit.semaphores}
     * @return every problem found, each naming its property; empty when the semaphore can be built
     */
    public static List<InvalidPoolkitPropertyException> problems(PoolkitProperties properties, String name) {
        List<InvalidPoolkitPropertyException> problems = new ArrayList<>();
        NamedSemaphoreProperties settings = properties.getSemaphores().get(name);
        String sizeProperty = (settings.getSize() != null)
                ? "poolkit.semaphores." + name + ".size" : "poolkit.semaphore.size";
        long size = size(properties, name);
        if (size < 0 || size > RedisPermitSemaphore.MAX_SIZE) {
            problems.add(new InvalidPoolkitPropertyException(sizeProperty, size, "a cluster semaphore's size must be"
                    + " between 0 and " + RedisPermitSemaphore.MAX_SIZE + " (2^53 - 1, the largest count Redis's Lua"
                    + " scripts hold exactly)", "set " + sizeProperty + " to a number of permits in that range"));
        }
        Duration leaseTime = settings.getLeaseTime();
        if (leaseTime == null || leaseTime.compareTo(RedisPermitSemaphore.MIN_LEASE_TIME) < 0
                || leaseTime.compareTo(LONGEST_LEASE_TIME) > 0) {
            String property = "poolkit.semaphores." + name + ".lease-time";
            problems.add(new InvalidPoolkitPropertyException(property, leaseTime, "a lease time must be at least 30ms"
                    + " (the holder renews its leases every third of it) and at most " + LONGEST_LEASE_TIME.toDays()
                    + " days", "set " + property + " to a few times the longest pause of the JVM or the network,"
                    + " such as 30s"));
        }
        return problems;
    }

    /** @return the semaphore's own size, else {@code poolkit.semaphore.size} */
    static long size(PoolkitProperties properties, String name) {
        Long own = properties.getSemaphores().get(name).getSize();
        return (own != null) ? own : properties.getSemaphore().getSize();
    }
}
