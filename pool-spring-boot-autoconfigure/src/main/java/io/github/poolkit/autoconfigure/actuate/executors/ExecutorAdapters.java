package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.ClassUtils;

/**
 * Picks the {@link ExecutorAdapter} of an executor by its kind. Known kinds: the JDK's {@code ThreadPoolExecutor},
 * {@code ScheduledThreadPoolExecutor} and {@code ForkJoinPool}; Spring's {@code ThreadPoolTaskExecutor},
 * {@code ThreadPoolTaskScheduler} and {@code SimpleAsyncTaskExecutor}; Tomcat's and Jetty's thread pools. Any other
 * executor gets an adapter that tells its type only.
 *
 * <p>Tomcat's and Jetty's types are touched only when their jars are on the class path, from classes of their own.
 */
public final class ExecutorAdapters {

    private static final boolean TOMCAT = ClassUtils.isPresent("org.apache.tomcat.util.threads.ThreadPoolExecutor",
            ExecutorAdapters.class.getClassLoader());

    private static final boolean JETTY = ClassUtils.isPresent("org.eclipse.jetty.util.thread.QueuedThreadPool",
            ExecutorAdapters.class.getClassLoader());

    private ExecutorAdapters() {
    }

    /**
     * Adapts an executor.
     *
     * @param executor any executor
     * @return the adapter of its kind; one that tells only the type for an unknown kind
     */
    public static ExecutorAdapter of(Executor executor) {
        // A scheduled pool is a ThreadPoolExecutor whose maximum has no effect: its case comes first.
        Executor target = unproxied(executor);
        return switch (target) {
            case ScheduledThreadPoolExecutor scheduled -> new ScheduledThreadPoolAdapter(scheduled);
            case ThreadPoolExecutor pool -> new ThreadPoolExecutorAdapter(pool);
            case ForkJoinPool pool -> new ForkJoinPoolAdapter(pool);
            case ThreadPoolTaskExecutor spring -> new ThreadPoolTaskExecutorAdapter(spring);
            case ThreadPoolTaskScheduler spring -> new ThreadPoolTaskSchedulerAdapter(spring);
            case SimpleAsyncTaskExecutor spring -> new SimpleAsyncTaskExecutorAdapter(spring);
            default -> serverOrTypeOnly(target);
        };
    }

    private static ExecutorAdapter serverOrTypeOnly(Executor executor) {
        ExecutorAdapter server = TOMCAT ? TomcatThreadPools.adapt(executor) : null;
        if (server == null && JETTY) {
            server = JettyThreadPools.adapt(executor);
        }
        return (server != null) ? server : new TypeOnlyAdapter(typeOf(executor));
    }

    /**
     * The executor behind a Spring AOP proxy of a fixed target (a bean with advice, such as {@code @Timed} or an
     * aspect, on its class or interfaces), so that its kind, type and figures are the executor's own; any other
     * executor as it is.
     */
    static Executor unproxied(Executor executor) {
        Object target = AopProxyUtils.getSingletonTarget(executor);
        return (target instanceof Executor inner && inner != executor) ? unproxied(inner) : executor;
    }

    /**
     * The type an executor is listed with: the simple name of its class, or of the class a CGLIB subclass was made
     * for (not {@code ThreadPoolTaskExecutor$$SpringCGLIB$$0}).
     *
     * @param executor an executor
     * @return its type
     */
    static String typeOf(Object executor) {
        return ClassUtils.getUserClass(executor).getSimpleName();
    }
}
