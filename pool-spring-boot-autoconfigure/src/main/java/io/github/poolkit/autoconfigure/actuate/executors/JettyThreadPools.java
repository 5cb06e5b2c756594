package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.Executor;

import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.web.server.WebServer;

/** Jetty's types, loaded only when Jetty is on the class path. */
final class JettyThreadPools {

    private JettyThreadPools() {
    }

    /** @return the adapter of Jetty's thread pool, or {@code null} when the executor is not one */
    static @Nullable ExecutorAdapter adapt(Executor executor) {
        return (executor instanceof QueuedThreadPool pool) ? new JettyThreadPoolAdapter(pool) : null;
    }

    /** @return whether the web server is Jetty */
    static boolean serves(WebServer server) {
        return server instanceof JettyWebServer;
    }

    /** @return the thread pool of a Jetty web server, or {@code null} when the server is not Jetty */
    static @Nullable Executor requestExecutor(WebServer server) {
        return (server instanceof JettyWebServer jetty) ? jetty.getServer().getThreadPool() : null;
    }
}
