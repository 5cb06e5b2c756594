package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;

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

    private EndpointClient client;

    @BeforeEach
    void connect(@LocalServerPort int port) {
        client = new EndpointClient(port);
    }

    @Test
    void aFieldFixedAtCreationIsRefusedAndTheRestIsNotApplied() throws Exception {
        JsonNode problem = refused("/actuator/pools/reports", "{\"capacity\": 3, \"queueCapacity\": 5}");
        assertThat(problem.get("field").asString()).isEqualTo("queueCapacity");
        assertThat(problem.get("detail").asString()).contains("queueCapacity", "fixed when the pool is created",
                "accepts capacity, maxWait, maxBlockingTasks, nonblocking");
        assertThat(client.getJson("/actuator/pools/reports").get("capacity").asInt()).isEqualTo(4);
        assertThat(client.getJson("/actuator/pools/reports").get("free").asInt()).isEqualTo(4);
    }

    /** A group of settings fixed at creation ({@code adaptive}, {@code overdue}...) is said to be one. */
    @Test
    void aGroupOfSettingsFixedAtCreationIsSaidToBeOne() throws Exception {
        JsonNode pool = refused("/actuator/pools/reports", "{\"capacity\": 3, \"adaptive\": \"none\"}");
        assertThat(pool.get("field").asString()).isEqualTo("adaptive");
        assertThat(pool.get("detail").asString()).contains("adaptive: cannot change at run time",
                "fixed when the pool is created").doesNotContain("not a setting");
        JsonNode semaphore = refused("/actuator/pools/gpu-memory", "{\"size\": 32, \"adaptive\": \"aimd\"}");
        assertThat(semaphore.get("detail").asString()).contains("fixed when the semaphore is created");
        assertThat(client.getJson("/actuator/pools/reports").get("capacity").asInt()).isEqualTo(4);
    }

    @Test
    void aMisspeltFieldIsRefusedWithTheNearestOne() throws Exception {
        JsonNode problem = refused("/actuator/pools/reports", "{\"capasity\": 3, \"maxWait\": \"1s\"}");
        assertThat(problem.get("field").asString()).isEqualTo("capasity");
        assertThat(problem.get("detail").asString()).contains("capasity", "not a setting of a pool",
                "did you mean capacity?");
        JsonNode reports = client.getJson("/actuator/pools/reports");
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
        assertThat(client.getJson("/actuator/pools/gpu-memory").get("size").asLong()).isEqualTo(16);
    }

    @Test
    void aSchedulerNamesTheField() throws Exception {
        JsonNode problem = refused("/actuator/pools/delayScheduler", "{\"workers\": 1}");
        assertThat(problem.get("field").asString()).isEqualTo("workers");
        assertThat(problem.get("detail").asString()).contains("fixed when the scheduler is created",
                "'delayScheduler' is a scheduler, whose settings cannot change at run time");
        assertThat(client.getJson("/actuator/pools/delayScheduler").get("capacity").asInt()).isEqualTo(4);
    }

    @Test
    void knownFieldsStillWorkAndUnknownNamesStay404() throws Exception {
        HttpResponse<String> ok = client.post("/actuator/pools/gpu-memory", "{\"size\": 20}");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(client.getJson("/actuator/pools/gpu-memory").get("size").asLong()).isEqualTo(20);
        assertThat(client.post("/actuator/pools/gpu-memory", "{\"size\": 16}").statusCode()).isEqualTo(200);
        assertThat(client.post("/actuator/pools/nope", "{\"capasity\": 3}").statusCode()).isEqualTo(404);
    }

    private JsonNode refused(String path, String body) throws Exception {
        HttpResponse<String> response = client.post(path, body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        return EndpointClient.json(response);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebApplication {
    }
}
