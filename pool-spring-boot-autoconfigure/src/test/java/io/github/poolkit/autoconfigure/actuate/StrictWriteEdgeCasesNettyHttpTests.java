package io.github.poolkit.autoconfigure.actuate;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;

/** The edges of a strict write, in WebFlux on Netty. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "management.endpoints.web.exposure.include=pools", "management.endpoint.pools.access=unrestricted",
        "poolkit.pool.capacity=6", "poolkit.pools.reports.capacity=4", "poolkit.pools.reports.queue-capacity=2",
        "poolkit.semaphores.gpu-memory.size=16", "poolkit.scheduler.workers=2",
        "spring.main.web-application-type=reactive",
        "spring.autoconfigure.exclude="
                + "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
                + "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration" })
class StrictWriteEdgeCasesNettyHttpTests extends StrictWriteEdgeCasesHttpTests {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OddNames.class)
    static class WebApplication {
    }
}
