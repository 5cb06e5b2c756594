package io.github.poolkit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import io.github.poolkit.sample.ApiClient.Answer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

/**
 * What the dashboard's "a job that hangs" button shows a newcomer, over HTTP with the application's own
 * configuration: a job on {@code exports} that runs past its {@code run-timeout} (5 s) gives a WARN line with the
 * worker's stack, a {@code PoolTaskOverdueEvent} (counted by {@code /api/overdue}) and an entry in
 * {@code /actuator/pools/exports}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
@Timeout(60)
class OverdueEndToEndTest {

    @Value("${local.server.port}")
    private int port;

    @Test
    void aJobPastItsRunTimeoutIsLoggedCountedAndListed(CapturedOutput output) {
        ApiClient api = new ApiClient(port);
        long eventsBefore = api.get("/api/overdue").json().path("events").asLong();
        long overdueBefore = api.get("/actuator/pools/exports").json().path("overdue").asLong();

        Answer answer = api.post("/api/pools/exports/jobs?count=1&millis=6500");
        assertThat(answer.status()).isEqualTo(200);

        String task = "simulated job 1/1 of 6500 ms on exports";
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            JsonNode exports = api.get("/actuator/pools/exports").json();
            assertThat(exports.path("overdue").asLong()).isEqualTo(overdueBefore + 1);
            JsonNode newest = exports.path("recentOverdue").get(0);
            assertThat(newest.path("kind").asString()).isEqualTo("run");
            assertThat(newest.path("task").asString()).isEqualTo(task);
            assertThat(newest.path("thread").asString()).startsWith("exports-");
            assertThat(newest.path("elapsedMs").asLong()).isGreaterThanOrEqualTo(5000);
        });
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                api.get("/api/overdue").json().path("events").asLong()).isEqualTo(eventsBefore + 1));
        assertThat(output.getOut()).contains("Overdue task on pool 'exports': kind RUN", task, "SimulatedWork.perform");
        await().atMost(Duration.ofSeconds(15)).until(() -> api.get("/actuator/pools/exports").json()
                .path("busy").asInt() == 0);
    }
}
