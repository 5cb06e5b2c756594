package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.PoolsDescriptor;
import io.github.poolkit.autoconfigure.actuate.PoolsEndpoint.SemaphoreDescriptor;

/**
 * A semaphore named {@code webServer} takes that name from the web server's request thread pool too, on a real
 * Tomcat, as a pool of that name does: the list does not show the server's pool beside it, which a read or write by
 * that name could not reach.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = TomcatRestartTests.TomcatApplication.class,
        properties = { "poolkit.semaphores.webServer.size=3", "management.endpoints.web.exposure.include=pools" })
class SemaphoreNamedWebServerTests {

    @Autowired
    private PoolsEndpoint endpoint;

    @Test
    void aSemaphoreNamedWebServerHidesTheServersPool() {
        PoolsDescriptor all = endpoint.pools();
        assertThat(all.semaphores()).containsKey("webServer");
        assertThat(all.executors()).doesNotContainKey("webServer");
        assertThat(endpoint.pool("webServer")).isInstanceOf(SemaphoreDescriptor.class);
    }
}
