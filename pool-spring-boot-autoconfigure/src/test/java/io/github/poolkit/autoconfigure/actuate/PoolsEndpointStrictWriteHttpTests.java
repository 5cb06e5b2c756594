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

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A write whose body has a field its target cannot change (unknown, misspelt, or fixed at creation) is refused over
 * real HTTP with 400 naming the field, and nothing changes.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "management.endpoints.web.exposure.include=pools",
        "management.endpoint.pools.access=unrestricted",
        "poolkit.pools.reports.capacity=4",
        "poolkit.pools.reports.queue-capacity=2",
        "poolkit.semaphores.gpu-memory.size=16" })
@Timeout(60)
class PoolsEndpointStrictWriteHttpTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Test
    void aFieldFixedAtCreationIsRefusedAndTheRestIsNotApplied() throws Exception {
        JsonNode problem = refused("/actuator/pools/reports", "{\"capacity\": 3, \"queueCapacity\": 5}");
        assertThat(problem.get("field").asString()).isEqualTo("queueCapacity");
        assertThat(problem.get("detail").asString()).contains("queueCapacity", "fixed when the pool is created",
                "accepts capacity, maxWait, maxBlockingTasks, nonblocking");
        assertThat(get("/actuator/pools/reports").get("capacity").asInt()).isEqualTo(4);
        assertThat(get("/actuator/pools/reports").get("free").asInt()).isEqualTo(4);
    }

    @Test
    void aMisspeltFieldIsRefusedWithTheNearestOne() throws Exception {
        JsonNode problem = refused("/actuator/pools/reports", "{\"capasity\": 3, \"maxWait\": \"1s\"}");
        assertThat(problem.get("field").asString()).isEqualTo("capasity");
        assertThat(problem.get("detail").asString()).contains("capasity", "not a setting of a pool",
                "did you mean capacity?");
        JsonNode reports = get("/actuator/pools/reports");
        assertThat(reports.get("capacity").asInt()).isEqualTo(4);
        assertThat(reports.has("maxWait")).as("still no limit").isFalse();
    }

    @Test
    void everyRefusedFieldIsNamed() throws Exception {
        JsonNode problem = refused("/actuator/pools/reports", "{\"expiry\": \"5s\", \"maxwait\": \"1s\"}");
        assertThat(problem.get("field").asString()).isEqualTo("expiry");
        assertThat(problem.get("detail").asString()).contains("expiry", "fixed when the pool is created",
                "maxwait is not a setting of a pool (did you mean maxWait?)");
    }

    @Test
    void aSemaphoreTakesOnlyItsSize() throws Exception {
        JsonNode misspelt = refused("/actuator/pools/gpu-memory", "{\"sise\": 32}");
        assertThat(misspelt.get("field").asString()).isEqualTo("sise");
        assertThat(misspelt.get("detail").asString()).contains("did you mean size?", "a semaphore accepts size");
        JsonNode fixed = refused("/actuator/pools/gpu-memory", "{\"size\": 32, \"leaseTime\": \"10s\"}");
        assertThat(fixed.get("field").asString()).isEqualTo("leaseTime");
        assertThat(fixed.get("detail").asString()).contains("fixed when the semaphore is created");
        assertThat(get("/actuator/pools/gpu-memory").get("size").asLong()).isEqualTo(16);
    }

    @Test
    void aSchedulerNamesTheField() throws Exception {
        JsonNode problem = refused("/actuator/pools/delayScheduler", "{\"workers\": 1}");
        assertThat(problem.get("field").asString()).isEqualTo("workers");
        assertThat(problem.get("detail").asString()).contains("fixed when the scheduler is created",
                "'delayScheduler' is a scheduler, whose settings cannot change at run time");
        assertThat(get("/actuator/pools/delayScheduler").get("capacity").asInt()).isEqualTo(4);
    }

    @Test
    void knownFieldsStillWorkAndUnknownNamesStay404() throws Exception {
        HttpResponse<String> ok = post("/actuator/pools/gpu-memory", "{\"size\": 20}");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(get("/actuator/pools/gpu-memory").get("size").asLong()).isEqualTo(20);
        assertThat(post("/actuator/pools/gpu-memory", "{\"size\": 16}").statusCode()).isEqualTo(200);
        assertThat(post("/actuator/pools/nope", "{\"capasity\": 3}").statusCode()).isEqualTo(404);
    }

    private JsonNode refused(String path, String body) throws Exception {
        HttpResponse<String> response = post(path, body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        return json.readTree(response.body());
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode get(String path) throws Exception {
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
