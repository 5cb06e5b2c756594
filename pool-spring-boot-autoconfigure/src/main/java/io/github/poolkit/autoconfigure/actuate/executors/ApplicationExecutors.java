package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Executor;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.Pool;
import io.github.poolkit.autoconfigure.actuate.PoolkitBeans;

/**
 * Finds the executors of the application that poolkit did not create, at each call: every {@link Executor} bean of
 * the context that is not a poolkit {@link Pool} or {@link DelayScheduler} (Spring Boot's
 * {@code applicationTaskExecutor} and {@code taskScheduler} included), and the embedded web server's request thread
 * pool (Tomcat's or Jetty's) under the name {@value #WEB_SERVER}.
 *
 * <p>Observe, never wrap: the beans are read from the context as they are, each behind the {@link ExecutorAdapter}
 * of its kind. A lazy bean that nobody has asked for yet is not created by a read. An executor, pool or semaphore bean
 * named {@value #WEB_SERVER} hides the web server's pool.
 */
public final class ApplicationExecutors {

    private static final Log logger = LogFactory.getLog(ApplicationExecutors.class);

    /** The name of the embedded web server's request thread pool. */
    public static final String WEB_SERVER = "webServer";

    private static final boolean WEB_SERVER_PRESENT = ClassUtils.isPresent(
            "org.springframework.boot.web.server.context.WebServerApplicationContext",
            ApplicationExecutors.class.getClassLoader());

    private final ApplicationContext context;

    /**
     * Creates the lookup.
     *
     * @param context where to look: its beans, and its web server when it has one
     */
    public ApplicationExecutors(ApplicationContext context) {
        this.context = context;
    }

    /** {@return every executor poolkit did not create, by name, sorted; the web server's pool once it started} */
    public SortedMap<String, ExecutorAdapter> all() {
        SortedMap<String, ExecutorAdapter> executors = beans();
        ExecutorAdapter webServer = webServer();
        if (webServer != null && ((WebServerExecutor) webServer).started() && !webServerNameTaken()) {
            executors.put(WEB_SERVER, webServer);
        }
        return executors;
    }

    /**
     * {@return whether an executor, pool or semaphore bean of this context (one of poolkit's own included) is named
     * {@value #WEB_SERVER}: it then hides the web server's pool, in the endpoint (listed and read by name alike) and
     * in the meters}
     */
    public boolean webServerNameTaken() {
        return context.containsLocalBean(WEB_SERVER) && (context.isTypeMatch(WEB_SERVER, Executor.class)
                || context.isTypeMatch(WEB_SERVER, Pool.class)
                || context.isTypeMatch(WEB_SERVER, PermitSemaphore.class));
    }

    /**
     * {@return whether the web server's request pool is, now, an executor bean of this context (the application's
     * own pool handed to the connector): it is then metered under its bean name, not a second time as
     * {@value #WEB_SERVER}} A lazy bean not created yet is not created by this.
     */
    public boolean webServerPoolIsABean() {
        Executor pool = (webServer() instanceof WebServerExecutor server) ? server.requestExecutor() : null;
        return pool != null && executorBeans(false).values().stream()
                .anyMatch(bean -> ExecutorAdapters.unproxied(bean) == pool);
    }

    /**
     * Finds one executor.
     *
     * @param name a bean name, or {@value #WEB_SERVER}
     * @return its adapter, or {@code null} when there is no such executor
     */
    public @Nullable ExecutorAdapter find(String name) {
        return all().get(name);
    }

    /**
     * Tells which bean a name stands for, as {@link PoolkitBeans#beanName(String)}: an executor is found by an alias
     * of its bean too.
     *
     * @param name a bean name, an alias, or {@value #WEB_SERVER}
     * @return the bean's own name for an alias, else {@code name} as it is
     */
    public String beanName(String name) {
        return PoolkitBeans.beanName(beanFactory(), name);
    }

    /** {@return the executor beans poolkit did not create, by bean name, sorted; a lazy one not yet made left out} */
    public SortedMap<String, ExecutorAdapter> beans() {
        return beans(false);
    }

    /**
     * The executor beans poolkit did not create, a lazy one that nobody has asked for yet included (created now): for
     * binding the meters, so that they cover every executor bean (Spring Boot's own executor meters likewise create
     * the lazy {@code TaskExecutor} beans they meter). One executor under two bean names (a {@code @Bean} handing
     * another bean's executor on) is there once, so that it is metered once: under the name of the bean it was made
     * by (the one the others were injected with), else under the first of its names in alphabetical order.
     *
     * @return them by bean name, sorted
     */
    public SortedMap<String, ExecutorAdapter> beansIncludingLazy() {
        return beans(true);
    }

    /**
     * @param forMeters whether the list is for the meters: lazy beans are then created, and an executor under two
     *                  names listed once (else a lazy bean not yet made is left out, and every name listed)
     */
    private SortedMap<String, ExecutorAdapter> beans(boolean forMeters) {
        SortedMap<String, ExecutorAdapter> executors = new TreeMap<>();
        Map<Object, String> meteredUnder = new IdentityHashMap<>(); // for meters: each executor's one name
        // without a bean made from another, the first name in alphabetical order stays
        executorBeans(forMeters).forEach((name, executor) -> {
            if (forMeters) {
                Object same = ExecutorAdapters.unproxied(executor);
                String earlier = meteredUnder.get(same);
                if (earlier != null) {
                    if (!madeFrom(beanFactory(), earlier, name)) {
                        return; // listed already, under a name that was not made from this one
                    }
                    executors.remove(earlier); // handed on from this bean: metered under this name instead
                }
                meteredUnder.put(same, name);
            }
            executors.put(name, ExecutorAdapters.of(executor));
        });
        return executors;
    }

    /**
     * @param createLazy whether a lazy bean nobody has asked for yet is created (else left out: a read must not
     *                   create it)
     * @return the executor beans that are no poolkit pool or scheduler, by bean name in alphabetical order; a bean
     *         that cannot be read (failed, or being destroyed) left out
     */
    private Map<String, Executor> executorBeans(boolean createLazy) {
        Map<String, Executor> beans = new TreeMap<>();
        for (String name : context.getBeanNamesForType(Executor.class, false, false)) {
            if (!createLazy && PoolkitBeans.isLazyAndNotCreated(beanFactory(), name)) {
                continue;
            }
            try {
                if (context.getBean(name) instanceof Executor executor && !(executor instanceof Pool)
                        && !(executor instanceof DelayScheduler)) {
                    beans.put(name, executor);
                }
            }
            catch (BeansException ex) {
                logger.debug("Executor bean '" + name + "' could not be read (failed, or being destroyed)", ex);
            }
        }
        return beans;
    }

    private ListableBeanFactory beanFactory() {
        return (context instanceof ConfigurableApplicationContext configurable) ? configurable.getBeanFactory()
                : context;
    }

    /**
     * @return whether the bean {@code alias} was made from the bean {@code origin}: injected with it (a {@code @Bean}
     *         method handing its parameter on, say), as far as the bean factory recorded it
     */
    private static boolean madeFrom(ListableBeanFactory factory, String alias, String origin) {
        return factory instanceof ConfigurableBeanFactory configurable
                && Arrays.asList(configurable.getDependenciesForBean(alias)).contains(origin);
    }

    /**
     * The embedded web server's request thread pool, found again at each read of the adapter, so that it follows a
     * server that starts after this call or starts again after a stop.
     *
     * @return its adapter, or {@code null} when the context has no Tomcat or Jetty web server
     */
    public @Nullable ExecutorAdapter webServer() {
        return WEB_SERVER_PRESENT ? WebServerExecutor.of(context) : null;
    }
}
