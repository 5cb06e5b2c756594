package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

import io.github.poolkit.autoconfigure.actuate.executors.ApplicationExecutors;
import io.github.poolkit.autoconfigure.actuate.executors.ExecutorAdapter;

/**
 * Tomcat's request pool, changed through the {@code webServer} executor, keeps the change (and its count of completed
 * tasks goes on) when the server stops and starts again (as around a context's stop and start, or a checkpoint's
 * restore): Tomcat then makes a new pool from its connector's settings, which the change went to. Its own server, as
 * the restart moves it to another port.
 */
@Timeout(60)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = TomcatRestartTests.TomcatApplication.class)
class TomcatRestartTests {

    @Autowired
    private ApplicationContext context;

    @Test
    void aChangeOfTheRequestPoolOutlivesARestartOfTheServer() {
        ExecutorAdapter webServer = new ApplicationExecutors(context).find(ApplicationExecutors.WEB_SERVER);
        assertThat(webServer).isNotNull();
        webServer.setCapacity(77);
        webServer.setCoreSize(7);
        WebServer server = ((WebServerApplicationContext) context).getWebServer();
        server.stop();
        server.start();
        ExecutorAdapter restarted = new ApplicationExecutors(context).find(ApplicationExecutors.WEB_SERVER);
        assertThat(restarted).isNotNull();
        assertThat(restarted.capacity()).isEqualTo(77);
        assertThat(restarted.coreSize()).isEqualTo(7);
    }

    /** {@code executor.completed} reads this count: it goes on from the old pool's, never back to the new one's 0. */
    @Test
    void theCompletedCountGoesOnAcrossARestart() throws Exception {
        CountDownLatch ran = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            requestPool().execute(ran::countDown);
        }
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        await().until(() -> completed() >= 3);
        long total = completed();
        WebServer server = ((WebServerApplicationContext) context).getWebServer();
        server.stop();
        server.start();
        assertThat(completed()).as("right after the restart").isGreaterThanOrEqualTo(total);
        CountDownLatch again = new CountDownLatch(1);
        requestPool().execute(again::countDown);
        assertThat(again.await(10, TimeUnit.SECONDS)).isTrue();
        await().until(() -> completed() >= total + 1);
    }

    private long completed() {
        Long completed = new ApplicationExecutors(context).find(ApplicationExecutors.WEB_SERVER).completed();
        return (completed != null) ? completed : -1;
    }

    private Executor requestPool() {
        TomcatWebServer server = (TomcatWebServer) ((WebServerApplicationContext) context).getWebServer();
        return server.getTomcat().getService().findConnectors()[0].getProtocolHandler().getExecutor();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TomcatApplication {

        @Bean
        TomcatServletWebServerFactory tomcat() {
            return new TomcatServletWebServerFactory(0);
        }
    }
}
