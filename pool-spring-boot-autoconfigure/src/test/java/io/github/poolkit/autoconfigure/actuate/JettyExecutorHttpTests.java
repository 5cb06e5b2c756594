package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The {@code webServer} executor on a real Jetty (its {@code QueuedThreadPool}). */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = JettyExecutorHttpTests.JettyApplication.class,
        properties = { "management.endpoints.web.exposure.include=pools,metrics",
                "management.endpoint.pools.access=unrestricted" })
class JettyExecutorHttpTests extends WebServerExecutorHttpTests {

    @Override
    String poolType() {
        return "QueuedThreadPool";
    }

    @Override
    int defaultCoreSize() {
        return 8;
    }

    @Override
    boolean countsCompleted() {
        return false;
    }

    @Test
    void aCapacityBelowJettysThreadBudgetIsRefusedByJettyAndTheCoreSizeChangeUndone() throws Exception {
        JsonNode before = getJson("/actuator/pools/webServer");
        // the core size shrinks first, then Jetty's own setter refuses a maximum below its leased threads
        HttpResponse<String> refused = post("/actuator/pools/webServer", "{\"capacity\": 1, \"coreSize\": 1}");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        JsonNode problem = JsonMapper.builder().build().readTree(refused.body());
        assertThat(problem.get("field").asString()).isEqualTo("capacity");
        assertThat(problem.get("detail").asString()).contains("QueuedThreadPool refused");
        JsonNode after = getJson("/actuator/pools/webServer");
        assertThat(after.get("capacity").asInt()).isEqualTo(before.get("capacity").asInt());
        assertThat(after.get("coreSize").asInt()).isEqualTo(before.get("coreSize").asInt());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OwnExecutor.class)
    static class JettyApplication {

        @Bean
        JettyServletWebServerFactory jetty() {
            return new JettyServletWebServerFactory(0);
        }
    }
}
