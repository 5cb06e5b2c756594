package io.github.poolkit.autoconfigure.permits;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;

/** Every overload is a 429, in WebFlux on Netty. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { OverloadAnswersHttpTests.PROPERTIES,
        "spring.main.web-application-type=reactive",
        "spring.autoconfigure.exclude="
                + "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
                + "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration" })
class OverloadAnswersWebFluxHttpTests extends OverloadAnswersHttpTests {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ ReactiveJobs.class, TypeGuardedJobs.class })
    static class WebApplication {
    }
}
