package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A reactive application on Netty: the endpoint lists the application's executors, and no {@code webServer} entry
 * (Netty has no request thread pool to read); asking for it by name is a 404.
 */
@Timeout(60)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = NettyExecutorsHttpTests.Application.class,
        properties = { "spring.main.web-application-type=reactive",
                "management.endpoints.web.exposure.include=pools",
                "spring.autoconfigure.exclude="
                        + "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
                        + "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration" })
class NettyExecutorsHttpTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Test
    void listsTheApplicationsExecutorsAndNoWebServer() throws Exception {
        HttpResponse<String> all = get("/actuator/pools");
        assertThat(all.statusCode()).as(all.body()).isEqualTo(200);
        JsonNode executors = json.readTree(all.body()).get("executors");
        assertThat(executors.get("ownPool").get("capacity").asInt()).isEqualTo(3);
        assertThat(executors.has("webServer")).as(executors.toString()).isFalse();
        assertThat(get("/actuator/pools/webServer").statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean(destroyMethod = "shutdownNow")
        ThreadPoolExecutor ownPool() {
            return new ThreadPoolExecutor(1, 3, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(5));
        }
    }
}
