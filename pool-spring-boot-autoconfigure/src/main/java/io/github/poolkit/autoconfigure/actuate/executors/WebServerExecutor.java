package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.Executor;

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

    private final WebServerApplicationContext context;

    private WebServerExecutor(WebServerApplicationContext context) {
        this.context = context;
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
        Executor executor = (server != null) ? requestExecutor(server) : null;
        return (executor != null) ? ExecutorAdapters.of(executor) : null;
    }

    private static @Nullable Executor requestExecutor(WebServer server) {
        Executor executor = TOMCAT ? TomcatThreadPools.requestExecutor(server) : null;
        return (executor == null && JETTY) ? JettyThreadPools.requestExecutor(server) : executor;
    }

    @Override
    public String type() {
        ExecutorAdapter current = current();
        return (current != null) ? current.type() : "none";
    }

    @Override
    public @Nullable Integer capacity() {
        ExecutorAdapter current = current();
        return (current != null) ? current.capacity() : null;
    }

    @Override
    public @Nullable Integer coreSize() {
        ExecutorAdapter current = current();
        return (current != null) ? current.coreSize() : null;
    }

    @Override
    public @Nullable Integer running() {
        ExecutorAdapter current = current();
        return (current != null) ? current.running() : null;
    }

    @Override
    public @Nullable Integer busy() {
        ExecutorAdapter current = current();
        return (current != null) ? current.busy() : null;
    }

    @Override
    public @Nullable Integer queued() {
        ExecutorAdapter current = current();
        return (current != null) ? current.queued() : null;
    }

    @Override
    public @Nullable Integer queueRemaining() {
        ExecutorAdapter current = current();
        return (current != null) ? current.queueRemaining() : null;
    }

    @Override
    public @Nullable Long completed() {
        ExecutorAdapter current = current();
        return (current != null) ? current.completed() : null;
    }

    @Override
    public boolean canSetCapacity() {
        ExecutorAdapter current = current();
        return current != null && current.canSetCapacity();
    }

    @Override
    public boolean canSetCoreSize() {
        ExecutorAdapter current = current();
        return current != null && current.canSetCoreSize();
    }

    @Override
    public void setCapacity(int capacity) {
        ExecutorAdapter current = current();
        if (current == null) {
            throw new IllegalStateException("the web server has no request thread pool now (not started)");
        }
        current.setCapacity(capacity);
    }

    @Override
    public void setCoreSize(int coreSize) {
        ExecutorAdapter current = current();
        if (current == null) {
            throw new IllegalStateException("the web server has no request thread pool now (not started)");
        }
        current.setCoreSize(coreSize);
    }
}
