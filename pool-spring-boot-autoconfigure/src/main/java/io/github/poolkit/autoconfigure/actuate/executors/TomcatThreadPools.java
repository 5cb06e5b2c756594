package io.github.poolkit.autoconfigure.actuate.executors;

import java.util.concurrent.Executor;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.ProtocolHandler;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;

/** Tomcat's types, loaded only when Tomcat is on the class path. */
final class TomcatThreadPools {

    private TomcatThreadPools() {
    }

    /** @return the adapter of Tomcat's thread pool, or {@code null} when the executor is not one */
    static @Nullable ExecutorAdapter adapt(Executor executor) {
        return (executor instanceof org.apache.tomcat.util.threads.ThreadPoolExecutor pool)
                ? new TomcatThreadPoolAdapter(pool) : null;
    }

    /** @return whether the web server is Tomcat */
    static boolean serves(WebServer server) {
        return server instanceof TomcatWebServer;
    }

    /**
     * The request executor of a Tomcat web server: its first connector's. Tomcat creates it when the connector
     * starts, so it is {@code null} before the server started and after it stopped.
     *
     * @return the executor, or {@code null} when the server is not Tomcat or has none now
     */
    static @Nullable Executor requestExecutor(WebServer server) {
        ProtocolHandler handler = protocol(server);
        return (handler != null) ? handler.getExecutor() : null;
    }

    /**
     * The adapter of a Tomcat web server's request pool: changed through the pool and, when the pool is Tomcat's own,
     * its connector's protocol handler too, so that a change holds for the pool the connector makes when the server
     * starts again.
     *
     * @return the adapter, or {@code null} when the server is not Tomcat or has no pool of Tomcat's own now
     */
    static @Nullable ExecutorAdapter requestPool(WebServer server) {
        ProtocolHandler handler = protocol(server);
        Executor executor = (handler != null) ? handler.getExecutor() : null;
        if (executor instanceof org.apache.tomcat.util.threads.ThreadPoolExecutor pool) {
            if (!(handler instanceof AbstractProtocol<?> protocol)) {
                return new TomcatThreadPoolAdapter(pool);
            }
            // the pool's own setter first: it checks the value before anything is kept; then the connector's, which
            // keeps it for the next pool, when the pool is Tomcat's own (a shared one: getMaxThreads() is -1)
            return new TomcatThreadPoolAdapter(pool, max -> {
                pool.setMaximumPoolSize(max);
                if (protocol.getMaxThreads() >= 0) {
                    protocol.setMaxThreads(max);
                }
            }, core -> {
                pool.setCorePoolSize(core);
                if (protocol.getMaxThreads() >= 0) {
                    protocol.setMinSpareThreads(core);
                }
            });
        }
        return null;
    }

    private static @Nullable ProtocolHandler protocol(WebServer server) {
        if (!(server instanceof TomcatWebServer tomcat)) {
            return null;
        }
        // Not Tomcat#getConnector(): it creates and adds a connector when there is none.
        Connector[] connectors = tomcat.getTomcat().getService().findConnectors();
        return (connectors.length > 0) ? connectors[0].getProtocolHandler() : null;
    }
}
