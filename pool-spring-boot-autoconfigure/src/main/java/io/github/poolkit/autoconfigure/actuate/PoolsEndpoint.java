package io.github.poolkit.autoconfigure.actuate;

import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;

/**
 * The {@code pools} Actuator endpoint: the state of every {@link WorkerPool} and {@link WeightedSemaphore} bean, and
 * run-time tuning of a pool's capacity.
 *
 * <ul>
 *   <li>{@code GET /actuator/pools}: {@code {"pools": {bean: {capacity, running, waiting, free, closed}},
 *       "semaphores": {bean: {size, used, waiting, available}}}}</li>
 *   <li>{@code GET /actuator/pools/{name}}: one entry of either kind; 404 when no such bean.</li>
 *   <li>{@code POST /actuator/pools/{name}} with {@code {"capacity": N}}: {@code tune(N)}, answers the pool's new
 *       state; 400 when the name is not a pool or N is not positive. Needs
 *       {@code management.endpoint.pools.access=unrestricted}: the endpoint is read-only by default.</li>
 * </ul>
 *
 * <p>Every figure is a racy snapshot taken without locking the pool, each read on its own, so an entry's numbers may
 * come from slightly different instants; that is fine for monitoring.
 */
@Endpoint(id = "pools", defaultAccess = Access.READ_ONLY)
public class PoolsEndpoint {

    private final Map<String, WorkerPool> pools;
    private final Map<String, WeightedSemaphore> semaphores;

    /**
     * @param pools      the pools by bean name
     * @param semaphores the semaphores by bean name
     */
    public PoolsEndpoint(Map<String, WorkerPool> pools, Map<String, WeightedSemaphore> semaphores) {
        this.pools = Map.copyOf(pools);
        this.semaphores = Map.copyOf(semaphores);
    }

    /** @return every pool and semaphore, by bean name, sorted */
    @ReadOperation
    public PoolsDescriptor pools() {
        Map<String, PoolDescriptor> poolEntries = new TreeMap<>();
        pools.forEach((name, pool) -> poolEntries.put(name, PoolDescriptor.of(pool)));
        Map<String, SemaphoreDescriptor> semaphoreEntries = new TreeMap<>();
        semaphores.forEach((name, semaphore) -> semaphoreEntries.put(name, SemaphoreDescriptor.of(semaphore)));
        return new PoolsDescriptor(poolEntries, semaphoreEntries);
    }

    /**
     * @param name a bean name
     * @return the pool or semaphore of that name, or {@code null} (HTTP 404) when there is none
     */
    @ReadOperation
    public Entry pool(@Selector String name) {
        WorkerPool pool = pools.get(name);
        if (pool != null) {
            return PoolDescriptor.of(pool);
        }
        WeightedSemaphore semaphore = semaphores.get(name);
        return (semaphore != null) ? SemaphoreDescriptor.of(semaphore) : null;
    }

    /**
     * Changes a pool's capacity with {@link WorkerPool#tune(int)} (a no-op for unlimited or pre-allocated pools).
     *
     * @param name     the pool's bean name
     * @param capacity the new capacity, positive
     * @return the pool's state after the change
     * @throws InvalidEndpointRequestException (HTTP 400) when {@code name} is not a pool or {@code capacity <= 0}
     */
    @WriteOperation
    public PoolDescriptor tune(@Selector String name, int capacity) {
        WorkerPool pool = pools.get(name);
        if (pool == null) {
            String reason = "No pool named '" + name + "'" + (semaphores.containsKey(name)
                    ? ": it is a semaphore, whose size cannot be changed" : "; known pools: " + pools.keySet());
            throw new InvalidEndpointRequestException(reason, reason);
        }
        if (capacity <= 0) {
            String reason = "Capacity must be positive, was " + capacity;
            throw new InvalidEndpointRequestException(reason, reason);
        }
        pool.tune(capacity);
        return PoolDescriptor.of(pool);
    }

    /** One pool or semaphore in the endpoint's answer. */
    public sealed interface Entry extends OperationResponseBody permits PoolDescriptor, SemaphoreDescriptor {
    }

    /**
     * The answer of {@code GET /actuator/pools}.
     *
     * @param pools      the pools by bean name
     * @param semaphores the semaphores by bean name
     */
    public record PoolsDescriptor(Map<String, PoolDescriptor> pools, Map<String, SemaphoreDescriptor> semaphores)
            implements OperationResponseBody {
    }

    /**
     * A pool's state.
     *
     * @param capacity the capacity, -1 when unlimited
     * @param running  workers alive
     * @param waiting  callers blocked in {@code execute} plus queued tasks
     * @param free     {@code capacity - running}, -1 when unlimited
     * @param closed   whether the pool was released
     */
    public record PoolDescriptor(int capacity, int running, int waiting, int free, boolean closed) implements Entry {

        /**
         * @param pool a pool
         * @return its state now
         */
        public static PoolDescriptor of(WorkerPool pool) {
            return new PoolDescriptor(pool.capacity(), pool.running(), pool.waiting(), pool.free(), pool.isClosed());
        }
    }

    /**
     * A semaphore's state.
     *
     * @param size      the total weight
     * @param used      the weight held
     * @param waiting   callers waiting in line
     * @param available {@code size - used}
     */
    public record SemaphoreDescriptor(long size, long used, int waiting, long available) implements Entry {

        /**
         * @param semaphore a semaphore
         * @return its state now
         */
        public static SemaphoreDescriptor of(WeightedSemaphore semaphore) {
            return new SemaphoreDescriptor(semaphore.size(), semaphore.used(), semaphore.waiting(),
                    semaphore.available());
        }
    }
}
