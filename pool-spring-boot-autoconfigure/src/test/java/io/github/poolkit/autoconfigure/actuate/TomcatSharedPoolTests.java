package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.micrometer.core.instrument.MeterRegistry;
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

    /**
     * The shared pool is also the application's executor bean: metered once, under its bean name, not a second time
     * as {@code webServer} (a sum over {@code name} would count each task twice); the endpoint lists both.
     */
    @Test
    void aPoolThatIsAlsoAnExecutorBeanIsMeteredOnceUnderItsBeanName() {
        MeterRegistry registry = context.getBean(MeterRegistry.class);
        assertThat(registry.find("executor.pool.max").tag("name", "requestPool").gauges()).hasSize(1);
        assertThat(registry.find("executor.pool.max").tag("name", ApplicationExecutors.WEB_SERVER).gauges())
                .isEmpty();
        assertThat(registry.find("executor.completed").tag("name", ApplicationExecutors.WEB_SERVER).meters())
                .isEmpty();
        assertThat(new ApplicationExecutors(context).all()).containsKeys("requestPool",
                ApplicationExecutors.WEB_SERVER);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TomcatApplication {

        @Bean(destroyMethod = "")
        ThreadPoolExecutor requestPool() {
            return SHARED;
        }

        @Bean
        TomcatServletWebServerFactory tomcat() {
            TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory(0);
            factory.addProtocolHandlerCustomizers(handler -> handler.setExecutor(SHARED));
            return factory;
        }
    }
}
