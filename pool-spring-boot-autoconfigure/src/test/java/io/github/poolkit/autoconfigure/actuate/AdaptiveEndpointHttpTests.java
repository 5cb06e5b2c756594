package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.poolkit.Permit;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An adaptive pool and semaphore in the {@code pools} endpoint, over real HTTP: {@code adaptive} beside the current
 * capacity or size, and a {@code 400} for a capacity or size set by hand.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "management.endpoints.web.exposure.include=pools",
        "management.endpoint.pools.access=unrestricted",
        "poolkit.pools.reports.adaptive.algorithm=gradient",
        "poolkit.pools.reports.adaptive.min=2",
        "poolkit.pools.reports.adaptive.max=64",
        "poolkit.semaphores.gpu-memory.adaptive.algorithm=aimd",
        "poolkit.semaphores.gpu-memory.adaptive.min=1024",
        "poolkit.semaphores.gpu-memory.adaptive.max=16384",
        "poolkit.pools.fixed.capacity=4" })
@Timeout(60)
class AdaptiveEndpointHttpTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    @Qualifier("reports")
    private WorkerPool reports;

    @Autowired
    @Qualifier("gpu-memory")
    private WeightedSemaphore gpuMemory;

    @Test
    void showsTheAdaptiveLimitBesideTheCurrentCapacityAndSize() throws Exception {
        JsonNode body = getJson("/actuator/pools");
        JsonNode pool = body.get("pools").get("reports");
        assertThat(pool.get("capacity").asInt()).isEqualTo(reports.capacity()).isBetween(2, 64);
        assertThat(pool.get("adaptive").get("algorithm").asString()).isEqualTo("gradient");
        assertThat(pool.get("adaptive").get("min").asInt()).isEqualTo(2);
        assertThat(pool.get("adaptive").get("max").asInt()).isEqualTo(64);
        assertThat(body.get("pools").get("fixed").has("adaptive")).as("absent: a fixed capacity").isFalse();
        JsonNode semaphore = body.get("semaphores").get("gpu-memory");
        assertThat(semaphore.get("size").asLong()).isEqualTo(gpuMemory.size());
        assertThat(semaphore.get("adaptive").get("algorithm").asString()).isEqualTo("aimd");
        assertThat(semaphore.get("adaptive").get("min").asInt()).isEqualTo(1024);
        assertThat(semaphore.get("adaptive").get("max").asInt()).isEqualTo(16384);
        assertThat(body.get("semaphores").get("weightedSemaphore").has("adaptive")).isFalse();
    }

    @Test
    void theCapacityMovesWithTheLimitAsTasksFinish() throws Exception {
        int tasks = 300;
        CountDownLatch done = new CountDownLatch(tasks);
        for (int i = 0; i < tasks; i++) {
            reports.execute(done::countDown);
        }
        done.await();
        await().until(() -> getJson("/actuator/pools/reports").get("capacity").asInt() == reports.capacity());
        try (Permit permit = gpuMemory.acquirePermit(1024)) {
            assertThat(permit.permits()).isEqualTo(1024);
        }
        assertThat(getJson("/actuator/pools/gpu-memory").get("size").asLong()).isEqualTo(gpuMemory.size());
    }

    @Test
    void aCapacityOrSizeSetByHandIsRefused() throws Exception {
        int before = reports.capacity();
        HttpResponse<String> pool = post("/actuator/pools/reports", "{\"capacity\": 8}");
        assertThat(pool.statusCode()).isEqualTo(400);
        JsonNode problem = json.readTree(pool.body());
        assertThat(problem.get("field").asString()).isEqualTo("capacity");
        assertThat(problem.get("detail").asString()).contains("its limit is adaptive");
        assertThat(reports.capacity()).isEqualTo(before);
        HttpResponse<String> semaphore = post("/actuator/pools/gpu-memory", "{\"size\": 2048}");
        assertThat(semaphore.statusCode()).isEqualTo(400);
        assertThat(json.readTree(semaphore.body()).get("detail").asString()).contains("its limit is adaptive");
        assertThat(post("/actuator/pools/reports", "{\"nonblocking\": true}").statusCode()).as("others still change")
                .isEqualTo(200);
        assertThat(post("/actuator/pools/fixed", "{\"capacity\": 8}").statusCode()).isEqualTo(200);
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode getJson(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return json.readTree(response.body());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebApplication {
    }
}
