package io.github.poolkit.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes threads named {@code <name>-<n>}, n counting from 1: a pool's workers, or poolkit's own daemon threads.
 *
 * <p>A pool's workers are made as {@code Executors.defaultThreadFactory()} makes them: they inherit the creating
 * thread's context class loader and inheritable thread-locals. poolkit's daemon threads serve every pool of the JVM
 * for as long as it runs, and are made by whichever thread happens to need one first (a request thread, a worker that
 * just ran a task): they inherit neither, and their context class loader is poolkit's own, so that they never keep a
 * redeployed or restarted application's class loader (a servlet container's, Spring Boot DevTools') or a task's
 * thread-local values alive.
 */
public final class NamedThreadFactory implements ThreadFactory {

    /** What kind of thread to make. */
    private enum Kind { PLATFORM, DAEMON }

    private final String prefix;
    private final Kind kind;
    private final AtomicInteger next = new AtomicInteger(1);

    private NamedThreadFactory(String name, Kind kind) {
        this.prefix = name + "-";
        this.kind = kind;
    }

    /** {@return a factory of non-daemon platform threads named {@code <name>-<n>} (a pool's default workers)} */
    public static NamedThreadFactory platform(String name) {
        return new NamedThreadFactory(name, Kind.PLATFORM);
    }

    /** {@return a factory of daemon platform threads named {@code <name>-<n>} (poolkit's housekeeping threads)} */
    public static NamedThreadFactory daemon(String name) {
        return new NamedThreadFactory(name, Kind.DAEMON);
    }

    @Override
    public Thread newThread(Runnable r) {
        String name = prefix + next.getAndIncrement();
        if (kind == Kind.PLATFORM) {
            Thread t = new Thread(r, name);
            t.setDaemon(false); // not inherited from a daemon creator
            return t;
        }
        return housekeeping(name, r);
    }

    /**
     * Makes one of poolkit's housekeeping threads (a daemon, not started), named {@code name}: it serves the pool or
     * the JVM rather than the thread that happens to make it, so it keeps neither that thread's context class loader
     * (an application's, which a redeploy would then leak) nor its inheritable thread-locals.
     *
     * @param name the thread's name
     * @param task what it runs
     * @return the thread, not started
     */
    public static Thread housekeeping(String name, Runnable task) {
        return daemon(name, task, NamedThreadFactory.class.getClassLoader());
    }

    /**
     * Makes a daemon thread (not started), named {@code name}, that serves one of the application's pools and starts
     * its workers (a scheduler's timer): it keeps its maker's context class loader, the application's, which those
     * workers take on and their tasks may need, but not its maker's inheritable thread-locals (a request's, say),
     * which they would take on too.
     *
     * @param name the thread's name
     * @param task what it runs
     * @return the thread, not started
     */
    public static Thread applicationDaemon(String name, Runnable task) {
        return daemon(name, task, Thread.currentThread().getContextClassLoader());
    }

    /** A daemon without its maker's inheritable thread-locals (nor, then, its class loader): {@code loader} instead. */
    private static Thread daemon(String name, Runnable task, ClassLoader loader) {
        Thread t = Thread.ofPlatform().name(name).daemon(true).inheritInheritableThreadLocals(false).unstarted(task);
        t.setContextClassLoader(loader);
        return t;
    }
}
