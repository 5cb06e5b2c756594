package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

import io.github.poolkit.autoconfigure.actuate.executors.ApplicationExecutors;
import io.github.poolkit.autoconfigure.actuate.executors.ExecutorAdapter;

/**
 * A Tomcat pool the application gives the connector (not Tomcat's own, whose sizes the connector would keep) is still
 * changed by the {@code webServer} executor: the change goes to the pool itself.
 */
@Timeout(60)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = TomcatSharedPoolTests.TomcatApplication.class)
class TomcatSharedPoolTests {

    static final ThreadPoolExecutor SHARED = new ThreadPoolExecutor(2, 10, 60, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>());

    @Autowired
    private ApplicationContext context;

    @AfterAll
    static void shutDown() {
        SHARED.shutdownNow(); // the application's own: Tomcat leaves it running
    }

    @Test
    void aSharedPoolIsChangedItself() {
        ExecutorAdapter webServer = new ApplicationExecutors(context).find(ApplicationExecutors.WEB_SERVER);
        assertThat(webServer).isNotNull();
        assertThat(webServer.capacity()).isEqualTo(10);
        webServer.setCapacity(20);
        webServer.setCoreSize(4);
        assertThat(SHARED.getMaximumPoolSize()).isEqualTo(20);
        assertThat(SHARED.getCorePoolSize()).isEqualTo(4);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TomcatApplication {

        @Bean
        TomcatServletWebServerFactory tomcat() {
            TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory(0);
            factory.addProtocolHandlerCustomizers(handler -> handler.setExecutor(SHARED));
            return factory;
        }
    }
}
