package io.github.poolkit.autoconfigure.actuate;

import java.util.SortedMap;
import java.util.TreeMap;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.Pool;

/**
 * Finds every pool, scheduler and semaphore bean of the context at each call, whoever defined it: the starter's own
 * beans, the application's {@code WorkerPool}, {@code FuncPool} and {@code MultiPool} beans, its own
 * {@link DelayScheduler}s and every {@link PermitSemaphore} (local or cluster-wide).
 *
 * <p>Looking the beans up at each read (instead of once at start-up) means a bean created later, a lazy one for
 * instance, is seen as soon as it exists; a lazy bean that nobody has asked for yet is not created by a read. Each
 * map is sorted by bean name.
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
        SortedMap<String, T> found = new TreeMap<>();
        ConfigurableListableBeanFactory factory = (beanFactory instanceof ConfigurableListableBeanFactory configurable)
                ? configurable : null;
        for (String name : beanFactory.getBeanNamesForType(type, false, true)) {
            if (factory != null && !factory.containsSingleton(name) && factory.containsBeanDefinition(name)
                    && factory.getBeanDefinition(name).isLazyInit()) {
                continue; // a lazy bean nobody asked for yet: a read must not create it (nor connect to Redis)
            }
            try {
                found.put(name, beanFactory.getBean(name, type));
            }
            catch (BeansException ex) {
                // failed to be created, or being destroyed: nothing to read
            }
        }
        return found;
    }
}
