package io.github.poolkit.autoconfigure.actuate.executors;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Executor;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * The embedded web server's request thread pool (Tomcat's or Jetty's), found again at each read: the server creates
 * its pool when it starts, and a new one when it starts again after a stop, so an adapter taken once would go stale.
 * While there is no pool (before the start, after a stop), every figure is absent and nothing can change.
 */
final class WebServerExecutor implements ExecutorAdapter {

    private static final ClassLoader LOADER = WebServerExecutor.class.getClassLoader();

    private static final boolean TOMCAT = ClassUtils.isPresent("org.springframework.boot.tomcat.TomcatWebServer",
            LOADER) && ClassUtils.isPresent("org.apache.tomcat.util.threads.ThreadPoolExecutor", LOADER);

    private static final boolean JETTY = ClassUtils.isPresent("org.springframework.boot.jetty.JettyWebServer", LOADER)
            && ClassUtils.isPresent("org.eclipse.jetty.util.thread.QueuedThreadPool", LOADER);

    private static final String NO_POOL = "the web server has no request thread pool now (not started, or stopped)";

    private final WebServerApplicationContext context;

    /**
     * Per context (whose adapters are made again at each lookup), the completed tasks of the pools before the current
     * one, and the current one's latest count: a server that starts again makes a new pool, counting from 0, and
     * {@link #completed()} must never go back (it feeds a counter). Held weakly: a closed context is not kept.
     */
    private static final Map<WebServerApplicationContext, CompletedTotal> TOTALS =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final CompletedTotal completedTotal;

    private WebServerExecutor(WebServerApplicationContext context) {
        this.context = context;
        this.completedTotal = TOTALS.computeIfAbsent(context, key -> new CompletedTotal());
    }

    /**
     * @return the request pool of the context's web server, or {@code null} when the context has no web server or
     *         one whose pool poolkit cannot find (neither Tomcat nor Jetty)
     */
    static @Nullable WebServerExecutor of(ApplicationContext context) {
        if (context instanceof WebServerApplicationContext web) {
            WebServer server = web.getWebServer();
            if (server != null && ((TOMCAT && TomcatThreadPools.serves(server))
                    || (JETTY && JettyThreadPools.serves(server)))) {
                return new WebServerExecutor(web);
            }
        }
        return null;
    }

    /** @return whether the server has a request pool now */
    boolean started() {
        return current() != null;
    }

    private @Nullable ExecutorAdapter current() {
        WebServer server = context.getWebServer();
        if (server == null) {
            return null;
        }
        ExecutorAdapter tomcat = TOMCAT ? TomcatThreadPools.requestPool(server) : null;
        if (tomcat != null) {
            return tomcat;
        }
        Executor executor = requestExecutor(server);
        return (executor != null) ? ExecutorAdapters.of(executor) : null;
    }

    /** {@return the executor that serves the requests now, or {@code null} while there is none} */
    @Nullable Executor requestExecutor() {
        WebServer server = context.getWebServer();
        return (server != null) ? requestExecutor(server) : null;
    }

    private static @Nullable Executor requestExecutor(WebServer server) {
        Executor executor = TOMCAT ? TomcatThreadPools.requestExecutor(server) : null;
        return (executor == null && JETTY) ? JettyThreadPools.requestExecutor(server) : executor;
    }

    /** {@return what the current pool tells, or {@code null} while there is none} */
    private <T> @Nullable T read(Function<ExecutorAdapter, @Nullable T> figure) {
        ExecutorAdapter current = current();
        return (current != null) ? figure.apply(current) : null;
    }

    /**
     * @return the current pool, to change it
     * @throws IllegalStateException while there is none
     */
    private ExecutorAdapter toChange() {
        ExecutorAdapter current = current();
        if (current == null) {
            throw new IllegalStateException(NO_POOL);
        }
        return current;
    }

    @Override
    public String type() {
        String type = read(ExecutorAdapter::type);
        return (type != null) ? type : "none";
    }

    @Override
    public @Nullable Integer capacity() {
        return read(ExecutorAdapter::capacity);
    }

    @Override
    public @Nullable Integer coreSize() {
        return read(ExecutorAdapter::coreSize);
    }

    @Override
    public @Nullable Integer running() {
        return read(ExecutorAdapter::running);
    }

    @Override
    public @Nullable Integer busy() {
        return read(ExecutorAdapter::busy);
    }

    @Override
    public @Nullable Integer queued() {
        return read(ExecutorAdapter::queued);
    }

    @Override
    public @Nullable Integer queueRemaining() {
        return read(ExecutorAdapter::queueRemaining);
    }

    /** {@inheritDoc} Of every pool the server has had: the count goes on across a stop and start of the server. */
    @Override
    public @Nullable Long completed() {
        WebServer server = context.getWebServer();
        Executor pool = (server != null) ? requestExecutor(server) : null;
        Long count = (pool != null) ? ExecutorAdapters.of(pool).completed() : null;
        return (count != null) ? completedTotal.add(pool, count) : null;
    }

    /** The running total of {@link #completed()} over the pools a server has had, one after another. */
    private static final class CompletedTotal {

        private @Nullable WeakReference<Executor> pool;
        private long before;
        private long current;

        synchronized long add(Executor of, long count) {
            if (pool == null || pool.get() != of) { // a new pool (the first, or after a restart): it counts from 0
                Executor old = (pool != null) ? pool.get() : null; // its count now: tasks since the last read too
                Long last = (old != null) ? ExecutorAdapters.of(old).completed() : null;
                before += (last != null) ? Math.max(current, last) : current;
                current = 0;
                pool = new WeakReference<>(of);
            }
            current = Math.max(current, count);
            return before + current;
        }
    }

    /** {@return whether the current pool is shut down (a server stopping); without a pool, not shut down} */
    @Override
    public boolean isShutdown() {
        return Boolean.TRUE.equals(read(ExecutorAdapter::isShutdown));
    }

    @Override
    public boolean canSetCapacity() {
        return Boolean.TRUE.equals(read(ExecutorAdapter::canSetCapacity));
    }

    @Override
    public String whyCapacityIsFixed(String type) {
        String why = read(current -> current.whyCapacityIsFixed(type));
        return (why != null) ? why : NO_POOL;
    }

    @Override
    public String whyCoreSizeIsFixed(String type) {
        String why = read(current -> current.whyCoreSizeIsFixed(type));
        return (why != null) ? why : NO_POOL;
    }

    @Override
    public boolean canSetCoreSize() {
        return Boolean.TRUE.equals(read(ExecutorAdapter::canSetCoreSize));
    }

    @Override
    public void setCapacity(int capacity) {
        toChange().setCapacity(capacity);
    }

    @Override
    public void setCoreSize(int coreSize) {
        toChange().setCoreSize(coreSize);
    }
}
