package io.github.poolkit.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.poolkit.WorkerPool;

/**
 * Health contributor {@code pools}: UP while every {@link WorkerPool} bean is open, DOWN once any has been released.
 * Details: {@code pools}, each pool's {@code capacity}, {@code running}, {@code waiting}, {@code free} and
 * {@code closed} by bean name; and, when DOWN, {@code closed}, the names of the released pools.
 *
 * <p>Reads each pool's counters without locking (a racy snapshot, fine for monitoring).
 */
public class PoolsHealthIndicator extends AbstractHealthIndicator {

    private final Map<String, WorkerPool> pools;

    /** @param pools the pools by bean name */
    public PoolsHealthIndicator(Map<String, WorkerPool> pools) {
        super("Pools health check failed");
        this.pools = new TreeMap<>(pools);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        Map<String, Object> details = new LinkedHashMap<>();
        pools.forEach((name, pool) -> details.put(name, describe(pool)));
        List<String> closed = pools.entrySet().stream()
                .filter(entry -> entry.getValue().isClosed())
                .map(Map.Entry::getKey)
                .toList();
        builder.withDetail("pools", details);
        if (closed.isEmpty()) {
            builder.up();
        }
        else {
            builder.down().withDetail("closed", closed);
        }
    }

    private static Map<String, Object> describe(WorkerPool pool) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("capacity", pool.capacity());
        map.put("running", pool.running());
        map.put("waiting", pool.waiting());
        map.put("free", pool.free());
        map.put("closed", pool.isClosed());
        return map;
    }
}
