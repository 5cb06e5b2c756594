package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import io.github.poolkit.autoconfigure.actuate.UnreadablePoolBeanTests.BreakingPool;
import tools.jackson.databind.JsonNode;

/**
 * A {@code Pool} bean of the application's own that breaks after start-up, over real HTTP: {@code /actuator/pools}
 * still answers 200 with every entry, the broken one holding its {@code error} and no figure at all; the health
 * contributor answers DOWN (503) naming it under {@code unreadable}, with the other pools in its details; a write to
 * it answers a problem document (503) naming the field and the error.
 */
@Timeout(60)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = UnreadablePoolBeanHttpTests.Application.class,
        properties = { "management.endpoints.web.exposure.include=pools,health",
                "management.endpoint.pools.access=unrestricted", "management.endpoint.health.show-details=always",
                "poolkit.pools.reports.capacity=4" })
class UnreadablePoolBeanHttpTests {

    @LocalServerPort
    private int port;

    @Autowired
    private BreakingPool broken;

    @Test
    void theListAndTheReadAnswerTheErrorAndHealthIsDownNamingIt() throws Exception {
        broken.breakDown();
        EndpointClient client = new EndpointClient(port);
        JsonNode pools = client.getJson("/actuator/pools").get("pools");
        assertThat(pools.get("reports").get("capacity").asInt()).isEqualTo(4);
        assertThat(pools.has("workerPool")).isTrue();
        JsonNode entry = pools.get("broken");
        assertThat(entry.get("error").asString()).isEqualTo(BreakingPool.ERROR);
        assertThat(entry.propertyNames()).as("no figure invented").doesNotContain("capacity", "running", "busy",
                "waiting", "queued", "blocked", "free", "closed", "completed", "failed", "rejected", "overdue");
        assertThat(client.getJson("/actuator/pools/broken").get("error").asString()).isEqualTo(BreakingPool.ERROR);

        HttpResponse<String> health = client.get("/actuator/health/pools");
        assertThat(health.statusCode()).as(health.body()).isEqualTo(503);
        JsonNode details = EndpointClient.json(health).get("details");
        assertThat(details.get("unreadable").get("broken").asString()).isEqualTo(BreakingPool.ERROR);
        assertThat(details.get("pools").get("reports").get("closed").asBoolean()).isFalse();
        assertThat(details.get("pools").get("broken").has("closed")).isFalse();
    }

    /**
     * A write to the broken pool is answered with a problem naming the field and the pool's error (503, as for a
     * cluster semaphore whose store does not answer), not Spring's bare 500; a value that is invalid is still the
     * caller's 400, found before the pool is asked anything; the other pools are left as they were.
     */
    @Test
    void aWriteToTheBrokenPoolAnswersAProblemNamingTheErrorNotA500() throws Exception {
        broken.breakDown();
        EndpointClient client = new EndpointClient(port);
        for (String field : new String[] { "capacity", "maxWait" }) {
            String body = field.equals("capacity") ? "{\"capacity\": 8}" : "{\"maxWait\": \"1s\"}";
            HttpResponse<String> response = client.post("/actuator/pools/broken", body);
            assertThat(response.statusCode()).as(body + " -> " + response.body()).isEqualTo(503);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            JsonNode problem = EndpointClient.json(response);
            assertThat(problem.get("field").asString()).as(body).isEqualTo(field);
            assertThat(problem.get("detail").asString()).as(body).contains("pool backend gone",
                    "GET /actuator/pools/broken");
        }
        HttpResponse<String> invalid = client.post("/actuator/pools/broken", "{\"capacity\": \"lots\"}");
        assertThat(invalid.statusCode()).as(invalid.body()).isEqualTo(400);
        assertThat(EndpointClient.json(invalid).get("field").asString()).isEqualTo("capacity");
        assertThat(client.getJson("/actuator/pools/reports").get("capacity").asInt()).isEqualTo(4);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        BreakingPool broken() {
            return new BreakingPool();
        }
    }
}
