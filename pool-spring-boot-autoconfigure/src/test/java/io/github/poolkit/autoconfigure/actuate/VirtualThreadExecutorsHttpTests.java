package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * With {@code spring.threads.virtual.enabled=true}, Spring Boot's executors are a {@code SimpleAsyncTaskExecutor} and
 * a {@code SimpleAsyncTaskScheduler}, and Tomcat runs requests on virtual threads: all are still listed under
 * {@code executors}, each with its type and only the figures it can tell.
 */
@Timeout(60)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        classes = VirtualThreadExecutorsHttpTests.Application.class,
        properties = { "management.endpoints.web.exposure.include=pools", "spring.threads.virtual.enabled=true" })
class VirtualThreadExecutorsHttpTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    @LocalServerPort
    private int port;

    @Test
    void bootsVirtualThreadExecutorsAndTheServersAreListed() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/actuator/pools")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode executors = json.readTree(response.body()).get("executors");
        assertThat(executors.get("applicationTaskExecutor").get("type").asString())
                .isEqualTo("SimpleAsyncTaskExecutor");
        assertThat(executors.get("applicationTaskExecutor").get("capacity").asInt()).isEqualTo(-1);
        assertThat(executors.get("taskScheduler").get("type").asString()).isEqualTo("SimpleAsyncTaskScheduler");
        JsonNode webServer = executors.get("webServer");
        assertThat(webServer).as(executors.toString()).isNotNull();
        // Tomcat's executor of virtual threads tells no figure: listed with its type only
        assertThat(webServer.get("type").asString()).isEqualTo("VirtualThreadExecutor");
        assertThat(webServer.propertyNames()).containsExactly("type");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class Application {

        @Bean
        TomcatServletWebServerFactory tomcat() {
            return new TomcatServletWebServerFactory(0);
        }
    }
}
