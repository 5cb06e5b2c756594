package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;

import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolsDescriptor;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.context.annotation.Bean;

/**
 * A pool of poolkit's own named {@code webServer} takes that name from the web server's request thread pool, on a real
 * Tomcat: the endpoint lists the pool under it and not the server's pool among the executors (which its reads and
 * writes by name could not reach), and the {@code executor.*} meters under it are the pool's.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = WebServerNameTakenTests.TomcatApplication.class,
        properties = { "poolkit.pools.webServer.capacity=3", "management.endpoints.web.exposure.include=pools" })
class WebServerNameTakenTests {

    @Autowired
    private PoolsEndpoint endpoint;

    @Autowired
    private MeterRegistry registry;

    @Test
    void aPoolNamedWebServerHidesTheServersPool() {
        PoolsDescriptor all = endpoint.pools();
        assertThat(all.pools()).containsKey("webServer");
        assertThat(all.executors()).doesNotContainKey("webServer");
        assertThat(registry.get("executor.pool.max").tag("name", "webServer").gauge().value()).isEqualTo(3);
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
