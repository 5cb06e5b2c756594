package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.github.poolkit.WorkerPool;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The endpoint, the health contributor and the meters over real HTTP, in a web application with the write operation
 * allowed ({@code management.endpoint.pools.access=unrestricted}).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "management.endpoints.web.exposure.include=pools,health,metrics",
        "management.endpoint.pools.access=unrestricted",
        "management.endpoint.health.show-details=always",
        "poolkit.pools.reports.capacity=4",
        "poolkit.semaphores.gpu-memory.size=16",
        "poolkit.pools.resizable.capacity=2",
        "poolkit.semaphores.resizable-memory.size=16" })
@Timeout(60)
class PoolsActuatorHttpTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    private WorkerPool workerPool;

    @Test
    void listsPoolsAndSemaphores() throws Exception {
        JsonNode body = getJson("/actuator/pools", 200);
        JsonNode reports = body.get("pools").get("reports");
        assertThat(reports.propertyNames()).contains("capacity", "running", "busy", "waiting", "queued", "blocked",
                "free", "closed", "completed", "failed", "rejected", "maxBlockingTasks", "nonblocking");
        assertThat(reports.has("maxWait")).as("absent: no limit").isFalse();
        assertThat(reports.get("capacity").asInt()).isEqualTo(4);
        assertThat(reports.get("running").asInt()).isZero();
        assertThat(reports.get("waiting").asInt()).isZero();
        assertThat(reports.get("free").asInt()).isEqualTo(4);
        assertThat(reports.get("closed").asBoolean()).isFalse();
        assertThat(body.get("pools").has("workerPool")).isTrue();
        JsonNode gpu = body.get("semaphores").get("gpu-memory");
        assertThat(gpu.get("size").asLong()).isEqualTo(16);
        assertThat(gpu.get("used").asLong()).isZero();
        assertThat(gpu.get("waiting").asInt()).isZero();
        assertThat(gpu.get("available").asLong()).isEqualTo(16);
        assertThat(gpu.get("scope").asString()).isEqualTo("local");
        assertThat(body.get("semaphores").has("weightedSemaphore")).isTrue();
        JsonNode scheduler = body.get("schedulers").get("delayScheduler");
        assertThat(scheduler.propertyNames()).contains("pending", "capacity", "running", "busy", "waiting", "queued",
                "blocked", "free", "closed", "completed", "failed", "rejected");
        assertThat(scheduler.get("capacity").asInt()).isEqualTo(4);
    }

    @Test
    void readsOneEntryOfEitherKindAnd404ForUnknownNames() throws Exception {
        assertThat(getJson("/actuator/pools/workerPool", 200).get("capacity").asInt()).isEqualTo(256);
        assertThat(getJson("/actuator/pools/gpu-memory", 200).get("size").asLong()).isEqualTo(16);
        assertThat(getJson("/actuator/pools/delayScheduler", 200).get("pending").asInt()).isZero();
        assertThat(send(HttpRequest.newBuilder(uri("/actuator/pools/nope")).GET()).statusCode()).isEqualTo(404);
    }

    @Test
    void tunesAPoolThroughTheWriteOperation() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/actuator/pools/reports"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"capacity\": 8}")));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json.readTree(response.body()).get("capacity").asInt()).isEqualTo(8);
        assertThat(getJson("/actuator/pools/reports", 200).get("capacity").asInt()).isEqualTo(8);
        HttpResponse<String> bad = post("/actuator/pools/reports", "{\"capacity\": 8, \"maxWait\": \"soon\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = json.readTree(bad.body());
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("title").asString()).isEqualTo("Bad Request");
        assertThat(problem.get("field").asString()).isEqualTo("maxWait");
        assertThat(problem.get("detail").asString()).contains("soon");
        assertThat(post("/actuator/pools/reports", "{\"capacity\": 0}").statusCode()).isEqualTo(400);
        assertThat(getJson("/actuator/pools/reports", 200).get("capacity").asInt()).isEqualTo(8);
    }

    @Test
    void jsonBooleansAndNumbersReachTheChecks() throws Exception {
        HttpResponse<String> bad = post("/actuator/pools/reports", "{\"nonblocking\": 3}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json.readTree(bad.body()).get("field").asString()).isEqualTo("nonblocking");
        HttpResponse<String> empty = post("/actuator/pools/reports", "{}");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(json.readTree(empty.body()).get("detail").asString()).contains("nothing to change");
        HttpResponse<String> negative = post("/actuator/pools/gpu-memory", "{\"size\": -1}");
        assertThat(negative.statusCode()).isEqualTo(400);
        assertThat(json.readTree(negative.body()).get("field").asString()).isEqualTo("size");
    }

    @Test
    void changesMaxWaitNonblockingAndASemaphoresSizeOverHttp() throws Exception {
        HttpResponse<String> pool = post("/actuator/pools/resizable",
                "{\"maxWait\": \"200ms\", \"maxBlockingTasks\": 3, \"nonblocking\": true}");
        assertThat(pool.statusCode()).as(pool.body()).isEqualTo(200);
        JsonNode resizable = getJson("/actuator/pools/resizable", 200);
        assertThat(resizable.get("maxWait").asString()).isEqualTo("200ms");
        assertThat(resizable.get("maxBlockingTasks").asInt()).isEqualTo(3);
        assertThat(resizable.get("nonblocking").asBoolean()).isTrue();
        HttpResponse<String> semaphore = post("/actuator/pools/resizable-memory", "{\"size\": 32}");
        assertThat(semaphore.statusCode()).as(semaphore.body()).isEqualTo(200);
        assertThat(getJson("/actuator/pools/resizable-memory", 200).get("size").asLong()).isEqualTo(32);
    }

    @Test
    void writingAnUnknownNameIs404() throws Exception {
        HttpResponse<String> response = post("/actuator/pools/nope", "{\"capacity\": 3}");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(json.readTree(response.body()).get("detail").asString()).contains("nope");
    }

    @Test
    void healthIsUpWithPerPoolDetails() throws Exception {
        JsonNode health = getJson("/actuator/health/pools", 200);
        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.get("details").get("pools").get("reports").get("closed").asBoolean()).isFalse();
    }

    @Test
    void metersAreServedByTheMetricsEndpoint() throws Exception {
        JsonNode capacity = getJson("/actuator/metrics/poolkit.pool.capacity?tag=name:workerPool", 200);
        assertThat(capacity.get("measurements").get(0).get("value").asDouble()).isEqualTo(256);
        JsonNode size = getJson("/actuator/metrics/poolkit.semaphore.size?tag=name:gpu-memory", 200);
        assertThat(size.get("measurements").get(0).get("value").asDouble()).isEqualTo(16);
        workerPool.submit(() -> { }).get(10, TimeUnit.SECONDS);
        await().atMost(10, TimeUnit.SECONDS).until(() -> getJson("/actuator/metrics/executor?tag=name:workerPool", 200)
                .get("measurements").get(0).get("value").asDouble() >= 1);
        assertThat(send(HttpRequest.newBuilder(uri(
                "/actuator/metrics/poolkit.pool.tasks?tag=name:workerPool&tag=outcome:completed")).GET())
                .statusCode()).isEqualTo(200);
        assertThat(getJson("/actuator/metrics/poolkit.pool.task.duration?tag=name:workerPool", 200)
                .get("measurements").get(0).get("value").asDouble()).isGreaterThanOrEqualTo(1);
        assertThat(send(HttpRequest.newBuilder(uri("/actuator/metrics/poolkit.pool.task.wait")).GET()).statusCode())
                .isEqualTo(200);
        assertThat(getJson("/actuator/metrics/executor.pool.max?tag=name:reports", 200)
                .get("measurements").get(0).get("value").asDouble()).isEqualTo(4);
        assertThat(getJson("/actuator/metrics/executor.pool.max?tag=name:delayScheduler", 200)
                .get("measurements").get(0).get("value").asDouble()).isEqualTo(4);
        assertThat(getJson("/actuator/metrics/executor.idle?tag=name:workerPool", 200)
                .get("measurements").get(0).get("value").asDouble()).isGreaterThanOrEqualTo(1);
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private JsonNode getJson(String path, int expectedStatus) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)).GET());
        assertThat(response.statusCode()).as(path).isEqualTo(expectedStatus);
        return json.readTree(response.body());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebApplication {
    }
}
