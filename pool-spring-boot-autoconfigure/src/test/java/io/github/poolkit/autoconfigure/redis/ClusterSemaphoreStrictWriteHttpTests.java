package io.github.poolkit.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.poolkit.redis.RedisPermitSemaphore;
import io.github.poolkit.redis.RedisServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code pools} endpoint refuses a write to a cluster semaphore (on a real {@code redis-server}) with a field it
 * cannot change, over real HTTP, and its size in Redis stays as it was; a size it accepts is every instance's size.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "management.endpoints.web.exposure.include=pools",
        "management.endpoint.pools.access=unrestricted",
        "poolkit.semaphores.quota.scope=cluster",
        "poolkit.semaphores.quota.size=8",
        "poolkit.semaphores.quota.lease-time=5s" })
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterSemaphoreStrictWriteHttpTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final JsonMapper json = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", redis::port);
    }

    @Test
    void aFieldAClusterSemaphoreCannotChangeIsRefusedAndItsSizeStays() throws Exception {
        HttpResponse<String> refused = post("{\"size\": 4, \"leaseTime\": \"1s\"}");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        JsonNode problem = json.readTree(refused.body());
        assertThat(problem.get("field").asString()).isEqualTo("leaseTime");
        assertThat(problem.get("detail").asString()).contains("fixed when the semaphore is created",
                "a semaphore accepts size");
        HttpResponse<String> misspelt = post("{\"sizes\": 4}");
        assertThat(misspelt.statusCode()).isEqualTo(400);
        assertThat(json.readTree(misspelt.body()).get("detail").asString()).contains("did you mean size?");
        JsonNode quota = json.readTree(http.send(HttpRequest.newBuilder(uri()).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body());
        assertThat(quota.get("scope").asString()).isEqualTo("cluster");
        assertThat(quota.get("size").asLong()).isEqualTo(8);
    }

    @Test
    void aSizeWrittenToAClusterSemaphoreIsEveryInstancesSizeAndTheListShowsItsScope() throws Exception {
        JsonNode listed = json.readTree(http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/actuator/pools")).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
        assertThat(listed.get("semaphores").get("quota").get("scope").asString()).isEqualTo("cluster");
        assertThat(listed.get("semaphores").get("weightedSemaphore").get("scope").asString()).isEqualTo("local");
        try (RedisPermitSemaphore otherInstance = RedisPermitSemaphore.builder(redis.client(), "quota").build()) {
            HttpResponse<String> grown = post("{\"size\": 12}");
            assertThat(grown.statusCode()).as(grown.body()).isEqualTo(200);
            assertThat(json.readTree(grown.body()).get("size").asLong()).isEqualTo(12);
            assertThat(otherInstance.size()).isEqualTo(12);
            otherInstance.resize(8); // as it was, for the other test
        }
    }

    private HttpResponse<String> post(String body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri() {
        return URI.create("http://localhost:" + port + "/actuator/pools/quota");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebApplication {
    }
}
