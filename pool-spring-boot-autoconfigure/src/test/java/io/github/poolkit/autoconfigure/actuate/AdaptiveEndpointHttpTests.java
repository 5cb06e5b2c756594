package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import io.github.poolkit.AdaptiveLimit;
import io.github.poolkit.Permit;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import tools.jackson.databind.JsonNode;

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

    private EndpointClient client;

    @BeforeEach
    void connect(@LocalServerPort int port) {
        client = new EndpointClient(port);
    }

    @Autowired
    @Qualifier("reports")
    private WorkerPool reports;

    @Autowired
    @Qualifier("gpu-memory")
    private WeightedSemaphore gpuMemory;

    @Autowired
    @Qualifier("ownAdaptive")
    private WeightedSemaphore ownAdaptive;

    @Test
    void showsTheAdaptiveLimitBesideTheCurrentCapacityAndSize() throws Exception {
        JsonNode body = client.getJson("/actuator/pools");
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
        AdaptiveLimit limit = reports.options().adaptiveCapacity();
        int before = reports.capacity();
        // samples as fast as the pool's own tasks, with the whole limit in use: the gradient limit grows
        for (int i = 0; i < 5_000 && limit.limit() <= before + 2; i++) {
            limit.onSample(1, limit.limit(), false);
        }
        assertThat(limit.limit()).as("the limit grew").isGreaterThan(before + 2);
        CountDownLatch done = new CountDownLatch(1);
        reports.execute(done::countDown); // its sample makes the pool follow the limit
        done.await();
        await().until(() -> reports.capacity() == limit.limit());
        assertThat(reports.capacity()).as("the capacity followed").isGreaterThan(before);
        assertThat(client.getJson("/actuator/pools/reports").get("capacity").asInt()).isEqualTo(reports.capacity());
        try (Permit permit = gpuMemory.acquirePermit(1024)) {
            assertThat(permit.permits()).isEqualTo(1024);
        }
        assertThat(client.getJson("/actuator/pools/gpu-memory").get("size").asLong()).isEqualTo(gpuMemory.size());
    }

    @Test
    void aCapacityOrSizeSetByHandIsRefused() throws Exception {
        int before = reports.capacity();
        HttpResponse<String> pool = client.post("/actuator/pools/reports", "{\"capacity\": 8}");
        assertThat(pool.statusCode()).isEqualTo(400);
        JsonNode problem = EndpointClient.json(pool);
        assertThat(problem.get("field").asString()).isEqualTo("capacity");
        assertThat(problem.get("detail").asString()).contains("its limit is adaptive");
        assertThat(reports.capacity()).isEqualTo(before);
        HttpResponse<String> semaphore = client.post("/actuator/pools/gpu-memory", "{\"size\": 2048}");
        assertThat(semaphore.statusCode()).isEqualTo(400);
        assertThat(EndpointClient.json(semaphore).get("detail").asString()).contains("its limit is adaptive");
        assertThat(client.post("/actuator/pools/reports", "{\"nonblocking\": true}").statusCode())
                .as("others still change").isEqualTo(200);
        assertThat(client.post("/actuator/pools/fixed", "{\"capacity\": 8}").statusCode()).isEqualTo(200);
    }

    @Test
    void aSemaphoreTheApplicationMadeAdaptiveIsShownAsCustomAndItsSizeIsNotSetByHand() throws Exception {
        JsonNode own = client.getJson("/actuator/pools/ownAdaptive");
        assertThat(own.get("adaptive").get("algorithm").asString()).isEqualTo("custom");
        assertThat(own.get("size").asLong()).isEqualTo(ownAdaptive.size());
        long before = ownAdaptive.size();
        HttpResponse<String> refused = client.post("/actuator/pools/ownAdaptive", "{\"size\": 6}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(EndpointClient.json(refused).get("detail").asString()).contains("its limit is adaptive");
        assertThat(ownAdaptive.size()).isEqualTo(before);
    }

    @Test
    void aRefusedCapacityTakesTheWritesOtherFieldsWithIt() throws Exception {
        int blocking = reports.options().maxBlockingTasks();
        HttpResponse<String> pool = client.post("/actuator/pools/reports",
                "{\"capacity\": 8, \"maxBlockingTasks\": " + (blocking + 3) + "}");
        assertThat(pool.statusCode()).isEqualTo(400);
        assertThat(EndpointClient.json(pool).get("field").asString()).isEqualTo("capacity");
        assertThat(reports.options().maxBlockingTasks()).as("nothing changed").isEqualTo(blocking);
        assertThat(client.getJson("/actuator/pools/reports").get("adaptive").get("algorithm").asString())
                .isEqualTo("gradient");
        assertThat(client.getJson("/actuator/pools/gpu-memory").get("adaptive").get("algorithm").asString())
                .isEqualTo("aimd");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebApplication {

        /** A semaphore the application makes adaptive itself, not through {@code adaptive.*} properties. */
        @Bean
        WeightedSemaphore ownAdaptive() {
            return WeightedSemaphore.adaptive(AdaptiveLimit.aimd(1, 8));
        }
    }
}
