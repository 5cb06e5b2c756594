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
 * contributor answers DOWN (503) naming it under {@code unreadable}, with the other pools in its details.
 */
@Timeout(60)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = UnreadablePoolBeanHttpTests.Application.class,
        properties = { "management.endpoints.web.exposure.include=pools,health",
                "management.endpoint.health.show-details=always", "poolkit.pools.reports.capacity=4" })
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

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        BreakingPool broken() {
            return new BreakingPool();
        }
    }
}
