package io.github.poolkit.autoconfigure.actuate;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import org.springframework.beans.factory.ListableBeanFactory;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.Pool;

/**
 * Finds every pool, scheduler and semaphore bean of the context at each call, whoever defined it: the starter's own
 * beans, the application's {@code WorkerPool}, {@code FuncPool} and {@code MultiPool} beans, its own
 * {@link DelayScheduler}s and every {@link PermitSemaphore} (local or cluster-wide).
 *
 * <p>Looking the beans up at each read (instead of once at start-up) means a bean created later, a lazy one for
 * instance, is seen as soon as it exists. Each map is sorted by bean name.
 */
public final class PoolkitBeans {

    private final ListableBeanFactory beanFactory;

    /**
     * Creates the lookup.
     *
     * @param beanFactory where to look
     */
    public PoolkitBeans(ListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /** {@return every {@link Pool} bean by bean name} */
    public SortedMap<String, Pool> pools() {
        return find(Pool.class);
    }

    /** {@return every {@link DelayScheduler} bean by bean name} */
    public SortedMap<String, DelayScheduler> schedulers() {
        return find(DelayScheduler.class);
    }

    /** {@return every {@link PermitSemaphore} bean by bean name} */
    public SortedMap<String, PermitSemaphore> semaphores() {
        return find(PermitSemaphore.class);
    }

    private <T> SortedMap<String, T> find(Class<T> type) {
        Map<String, T> beans = beanFactory.getBeansOfType(type, false, true);
        return new TreeMap<>(beans);
    }
}
