package io.github.poolkit.autoconfigure.actuate;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.function.Function;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.SimpleAliasRegistry;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.Pool;

/**
 * Finds every pool, scheduler and semaphore bean of the context at each call, whoever defined it: the starter's own
 * beans, the application's {@code WorkerPool}, {@code FuncPool} and {@code MultiPool} beans, its own
 * {@link DelayScheduler}s and every {@link PermitSemaphore} (local or cluster-wide).
 *
 * <p>Looking the beans up at each read (instead of once at start-up) means a bean created later, a lazy one for
 * instance, is seen as soon as it exists; a lazy bean that nobody has asked for yet is not created by a read (only by
 * the lookup of {@link #includingLazy}). Each map is sorted by bean name.
 */
public final class PoolkitBeans {

    private final ListableBeanFactory beanFactory;
    /** Whether a lazy bean not created yet is created by a lookup (at start-up, to meter it) or left alone (reads). */
    private final boolean createLazy;

    /**
     * Creates the lookup of the reads (the endpoint, the health contributor, a refresh): a lazy bean that nobody has
     * asked for yet is left alone.
     *
     * @param beanFactory where to look
     */
    public PoolkitBeans(ListableBeanFactory beanFactory) {
        this(beanFactory, false);
    }

    private PoolkitBeans(ListableBeanFactory beanFactory, boolean createLazy) {
        this.beanFactory = beanFactory;
        this.createLazy = createLazy;
    }

    /**
     * Creates the lookup of a start-up step that must reach every bean, lazy ones included (binding the meters, so
     * that every pool and semaphore is metered also with {@code spring.main.lazy-initialization}).
     *
     * @param beanFactory where to look
     * @return the lookup, which creates a lazy bean not created yet
     */
    public static PoolkitBeans includingLazy(ListableBeanFactory beanFactory) {
        return new PoolkitBeans(beanFactory, true);
    }

    /**
     * One entry per instance, for what must count each task once (meters, overdue reports): a pool or scheduler under
     * two bean names (the application handing a pool on as an {@code Executor} bean) keeps the bean name that is its
     * own name, else the first in alphabetical order.
     *
     * @param byBeanName the beans by bean name
     * @param ownName    a bean's own name ({@code name()})
     * @param <T>        the bean type
     * @return each instance once, by the bean name chosen, sorted
     */
    public static <T> SortedMap<String, T> onePerInstance(Map<String, T> byBeanName, Function<T, String> ownName) {
        Map<T, String> chosen = new IdentityHashMap<>();
        new TreeMap<>(byBeanName).forEach((beanName, bean) -> chosen.merge(bean, beanName,
                (first, other) -> other.equals(ownName.apply(bean)) ? other : first));
        SortedMap<String, T> result = new TreeMap<>();
        chosen.forEach((bean, beanName) -> result.put(beanName, bean));
        return result;
    }

    /**
     * Tells which bean a name stands for: a bean's own name, or an alias of it ({@code @Bean(name = {"reports",
     * "reportsExecutor"})}, {@code registerAlias}), which the maps here do not hold.
     *
     * @param name a bean name or an alias
     * @return the bean's own name for an alias, else {@code name} as it is
     */
    public String beanName(String name) {
        return beanName(beanFactory, name);
    }

    /**
     * Tells which bean a name stands for in a bean factory, as {@link #beanName(String)}. Only an alias of a bean the
     * endpoint lists (an executor, a pool, a semaphore) is resolved: an alias of any other bean leaves the name as it
     * is, so that it cannot hide an entry of that name ({@code webServer}, the web server's pool).
     *
     * @param beanFactory where the bean and its aliases are defined (an application context: its bean factory)
     * @param name        a bean name or an alias
     * @return the bean's own name for an alias of a listed bean, else {@code name} as it is
     */
    public static String beanName(ListableBeanFactory beanFactory, String name) {
        ListableBeanFactory factory = (beanFactory instanceof ConfigurableApplicationContext context)
                ? context.getBeanFactory() : beanFactory;
        String own = (factory instanceof SimpleAliasRegistry aliases) ? aliases.canonicalName(name) : name;
        boolean listed = !own.equals(name) && factory.containsBean(own) && (factory.isTypeMatch(own, Executor.class)
                || factory.isTypeMatch(own, Pool.class) || factory.isTypeMatch(own, PermitSemaphore.class));
        return listed ? own : name;
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

    /**
     * Tells whether a bean is lazy and not created yet, so that a read of figures must leave it alone (creating it
     * could start threads or connect to Redis).
     *
     * @param beanFactory where the bean is defined
     * @param name        the bean name
     * @return whether it is a lazy bean that nobody has asked for yet
     */
    public static boolean isLazyAndNotCreated(ListableBeanFactory beanFactory, String name) {
        return beanFactory instanceof ConfigurableListableBeanFactory factory && !factory.containsSingleton(name)
                && factory.containsBeanDefinition(name) && factory.getBeanDefinition(name).isLazyInit();
    }

    private <T> SortedMap<String, T> find(Class<T> type) {
        SortedMap<String, T> found = new TreeMap<>();
        for (String name : beanFactory.getBeanNamesForType(type, false, true)) {
            if (!createLazy && isLazyAndNotCreated(beanFactory, name)) {
                continue; // a read must not create it
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
