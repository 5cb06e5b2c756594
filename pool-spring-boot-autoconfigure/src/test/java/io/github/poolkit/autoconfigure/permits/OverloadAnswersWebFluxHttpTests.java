package io.github.poolkit.autoconfigure.permits;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.github.poolkit.annotation.Permits;
import reactor.core.publisher.Flux;

/** Every overload is a 429, in WebFlux on Netty. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { OverloadAnswersHttpTests.PROPERTIES,
        "spring.main.web-application-type=reactive",
        "spring.autoconfigure.exclude="
                + "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
                + "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration" })
class OverloadAnswersWebFluxHttpTests extends OverloadAnswersHttpTests {

    @Test
    void aFunctionalEndpointThatHadSetItsContentTypeIs429AsAProblem() throws Exception {
        // its response had Content-Type application/x-ndjson when the guarded body was refused
        assertOverloaded("/functional", "1 permits of semaphore 'gpu' (maxWait 0ms)");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ ReactiveJobs.class, TypeGuardedJobs.class, GuardedStream.class })
    static class WebApplication {

        @Bean
        RouterFunction<ServerResponse> functional(GuardedStream stream) {
            return RouterFunctions.route(RequestPredicates.GET("/functional"), request -> ServerResponse.ok()
                    .contentType(MediaType.APPLICATION_NDJSON).body(stream.lines(), String.class));
        }
    }

    /** A guarded stream, written by a functional endpoint. */
    static class GuardedStream {

        @Permits("gpu")
        public Flux<String> lines() {
            return Flux.just("a", "b");
        }
    }
}
