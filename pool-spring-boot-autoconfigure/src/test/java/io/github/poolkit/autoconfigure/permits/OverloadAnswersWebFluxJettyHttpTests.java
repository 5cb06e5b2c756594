package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.annotation.Import;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every overload is a {@code 429}, in WebFlux on Jetty (the reactive stack on the servlet container's sibling, not
 * Netty); the endpoint lists Jetty's request thread pool as {@code webServer} there too.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { OverloadAnswersHttpTests.PROPERTIES,
        "spring.main.web-application-type=reactive", "management.endpoints.web.exposure.include=pools",
        "spring.autoconfigure.exclude="
                + "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
                + "org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration" })
class OverloadAnswersWebFluxJettyHttpTests extends OverloadAnswersHttpTests {

    @Autowired
    private ReactiveWebServerApplicationContext context;

    @LocalServerPort
    private int port;

    @Test
    void runsOnJetty() {
        assertThat(context.getWebServer().getClass().getSimpleName()).isEqualTo("JettyWebServer");
    }

    @Test
    void listsJettysRequestThreadPoolAsWebServer() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/actuator/pools/webServer")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode webServer = JsonMapper.builder().build().readTree(response.body());
        assertThat(webServer.get("type").asString()).isEqualTo("QueuedThreadPool");
        assertThat(webServer.get("capacity").asInt()).isPositive();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ ReactiveJobs.class, TypeGuardedJobs.class })
    static class WebApplication {
    }
}
