package io.github.poolkit.autoconfigure;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.Pool;
import io.github.poolkit.PoolListener;
import io.github.poolkit.autoconfigure.actuate.PoolkitBeans;

/**
 * Lets listeners be attached to every pool and scheduler bean of the context, whoever made it, and reports the
 * overdue tasks of those the application made.
 *
 * <p>A bean poolkit created reports through the forwarding listener it was given at creation
 * ({@link PoolTaskListeners}, which also tells the refresh support which beans poolkit created), and its overdue tasks
 * are wired where it is created. A bean the application made ({@code WorkerPool}, {@code FuncPool},
 * {@code MultiPool}, {@code DelayScheduler}) gets one forwarding listener of its own through
 * {@link Pool#addListener} (or {@link DelayScheduler#addListener}) the first time something is attached to it, kept
 * apart from poolkit's; once every singleton exists, the overdue reports ({@link PoolOverdueLog}) are attached to each
 * such bean, and the metrics support attaches the task timers when it binds a registry. Such a bean reports the tasks
 * it accepts from then on. A {@code Pool} of the application's own kind whose {@code addListener} throws
 * {@link UnsupportedOperationException} is left alone: it has gauges and counters only.
 *
 * <p>Thread-safety: attachment may come from any thread; the first attachment to a bean adds its forwarder once
 * (under the map's entry lock), later ones add targets to it.
 */
public final class PoolBeanListeners implements SmartInitializingSingleton {

    private final ListableBeanFactory beanFactory;
    private final PoolTaskListeners created;
    private final PoolOverdueLog overdueLog;
    /** The forwarders added to the application's beans; never consulted for which beans poolkit created. */
    private final PoolTaskListeners added = new PoolTaskListeners();
    /** Per application bean name: whether it took its forwarder. */
    private final Map<String, Boolean> accepted = new ConcurrentHashMap<>();

    /**
     * Creates the attachment point.
     *
     * @param beanFactory where the pools and schedulers are found once every singleton exists
     * @param created     the listeners poolkit gave the beans it created
     * @param overdueLog  reports the overdue tasks of the application's beans
     */
    public PoolBeanListeners(ListableBeanFactory beanFactory, PoolTaskListeners created, PoolOverdueLog overdueLog) {
        this.beanFactory = beanFactory;
        this.created = created;
        this.overdueLog = overdueLog;
    }

    /**
     * Reports the overdue tasks of every pool and scheduler bean the application made, once per instance: a pool
     * also exposed under a second bean name (an alias of poolkit's {@code reports}, say) is watched once, under the
     * bean name that is its own name, else the first (as its meters are named), so each of its overdue tasks is
     * reported once, under the name its meters have.
     */
    @Override
    public void afterSingletonsInstantiated() {
        PoolkitBeans beans = new PoolkitBeans(beanFactory); // a lazy pool not created yet is left so (not watched)
        Map<String, Object> all = new TreeMap<>(PoolkitBeans.onePerInstance(beans.pools(), Pool::name));
        all.putAll(PoolkitBeans.onePerInstance(beans.schedulers(), DelayScheduler::name));
        Set<Object> watched = Collections.newSetFromMap(new IdentityHashMap<>());
        all.forEach((name, bean) -> {
            if (created.isReporting(name)) {
                watched.add(bean); // poolkit's own: its overdue tasks are wired where it is created
            }
        });
        all.forEach((name, bean) -> {
            if (watched.add(bean)) {
                attach(name, bean, overdueLog.listenerFor(name, bean));
            }
        });
    }

    /**
     * Makes {@code listener} receive the later events of a pool or scheduler bean.
     *
     * @param beanName the bean name
     * @param bean     the bean: a {@link Pool} or a {@link DelayScheduler}
     * @param listener the listener; must be fast and must not throw
     * @return whether the listener was attached (false for a pool that cannot take a listener once built)
     */
    public boolean attach(String beanName, Object bean, PoolListener listener) {
        if (created.isReporting(beanName)) {
            return created.attach(beanName, listener);
        }
        return accepted.computeIfAbsent(beanName, name -> addForwarder(name, bean)) && added.attach(beanName, listener);
    }

    private boolean addForwarder(String beanName, Object bean) {
        PoolListener forwarder = added.listenerFor(beanName);
        try {
            if (bean instanceof Pool pool) {
                pool.addListener(forwarder);
                return true;
            }
            if (bean instanceof DelayScheduler scheduler) {
                scheduler.addListener(forwarder);
                return true;
            }
        }
        catch (UnsupportedOperationException ex) {
            // a Pool of the application's own kind that cannot take a listener: gauges and counters only
        }
        return false;
    }
}
