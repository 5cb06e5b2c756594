package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;

import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolsDescriptor;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * A pool of poolkit's own named {@code webServer} takes that name from the web server's request thread pool, on a real
 * Tomcat: the endpoint lists the pool under it and not the server's pool among the executors (which its reads and
 * writes by name could not reach), and the {@code executor.*} meters under it are the pool's.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = TomcatRestartTests.TomcatApplication.class,
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
}
