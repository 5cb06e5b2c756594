package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;

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
        // A scheduled pool is a ThreadPoolExecutor whose maximum has no effect: test it first.
        if (executor instanceof ScheduledThreadPoolExecutor scheduled) {
            return new ScheduledThreadPoolAdapter(scheduled);
        }
        if (executor instanceof ThreadPoolExecutor pool) {
            return new ThreadPoolExecutorAdapter(pool);
        }
        if (executor instanceof ForkJoinPool pool) {
            return new ForkJoinPoolAdapter(pool);
        }
        if (executor instanceof ThreadPoolTaskExecutor spring) {
            return new ThreadPoolTaskExecutorAdapter(spring);
        }
        if (executor instanceof ThreadPoolTaskScheduler spring) {
            return new ThreadPoolTaskSchedulerAdapter(spring);
        }
        if (executor instanceof SimpleAsyncTaskExecutor spring) {
            return new SimpleAsyncTaskExecutorAdapter(spring);
        }
        ExecutorAdapter server = TOMCAT ? TomcatThreadPools.adapt(executor) : null;
        if (server == null && JETTY) {
            server = JettyThreadPools.adapt(executor);
        }
        return (server != null) ? server : new TypeOnlyAdapter(executor.getClass().getSimpleName());
    }
}
