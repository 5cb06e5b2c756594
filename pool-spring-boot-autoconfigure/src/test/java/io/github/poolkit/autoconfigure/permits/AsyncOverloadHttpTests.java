package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.github.poolkit.PoolListener;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolTaskListeners;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code @Async("reports")} on a full non-blocking pool, in Spring MVC on Tomcat: Spring wraps the pool's
 * {@code PoolOverloadException} in a {@code TaskRejectedException}, and every such refusal is a {@code 429} with a
 * {@code Retry-After} estimated from the pool's measured run times and a problem body; never a {@code 500}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "poolkit.pools.reports.capacity=2", "poolkit.pools.reports.nonblocking=true" })
@ExtendWith(OutputCaptureExtension.class)
@Timeout(60)
class AsyncOverloadHttpTests {

    private static final int REQUESTS = 20;

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    private Reports reports;

    @Autowired
    @Qualifier("reports")
    private WorkerPool reportsPool;

    @Autowired
    private PoolTaskListeners poolListeners;

    @Test
    void everyRefusalOfAFullNonBlockingPoolIsA429WithRetryAfterAndAProblemBody(CapturedOutput output)
            throws Exception {
        // Two reports of at least 2.1 s each teach the pool its run time: 2.1 s x (0 waiting + 1) / 2 workers = 1.05 s
        CountDownLatch measured = new CountDownLatch(2);
        // Told after the estimator's own listener (attached at start-up), so the run times are recorded by then: the
        // HTTP answer comes when a report's body ends, a moment before the pool tells its listeners.
        poolListeners.attach("reports", new PoolListener() {
            @Override
            public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                measured.countDown();
            }
        });
        List<CompletableFuture<HttpResponse<String>>> warmUp = List.of(get("/reports?millis=2100"),
                get("/reports?millis=2100"));
        for (CompletableFuture<HttpResponse<String>> response : warmUp) {
            assertThat(response.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(measured.await(30, TimeUnit.SECONDS)).isTrue();

        CountDownLatch gate = reports.closeGate();
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            responses.add(get("/reports?millis=0"));
        }
        try {
            // Both workers now wait at the gate, so every other request is refused and answered at once.
            Awaitility.await().atMost(30, TimeUnit.SECONDS)
                    .until(() -> responses.stream().filter(CompletableFuture::isDone).count() == REQUESTS - 2);
            assertThat(reportsPool.stats().busy()).isEqualTo(2);
        }
        finally {
            gate.countDown();
        }

        int ok = 0;
        int refused = 0;
        for (CompletableFuture<HttpResponse<String>> pending : responses) {
            HttpResponse<String> response = pending.get(30, TimeUnit.SECONDS);
            if (response.statusCode() == 200) {
                ok++;
                continue;
            }
            refused++;
            assertThat(response.statusCode()).isEqualTo(429);
            assertThat(response.headers().firstValue("Retry-After")).hasValueSatisfying(
                    seconds -> assertThat(Long.parseLong(seconds)).isBetween(2L, 60L));
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            JsonNode problem = JsonMapper.builder().build().readTree(response.body());
            assertThat(problem.get("status").asInt()).isEqualTo(429);
            assertThat(problem.get("title").asString()).isEqualTo("Too Many Requests");
            assertThat(problem.get("detail").asString()).startsWith("pool 'reports' is overloaded");
            assertThat(problem.get("instance").asString()).isEqualTo("/reports");
        }
        assertThat(ok).isEqualTo(2);
        assertThat(refused).isEqualTo(REQUESTS - 2);
        assertThat(output).doesNotContain("TaskRejectedException");
    }

    private CompletableFuture<HttpResponse<String>> get(String path) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableAsync
    @Import({ Reports.class, ReportsController.class })
    static class WebApplication {
    }

    /** Renders reports on the "reports" pool; each waits at the gate once it has run its time. */
    static class Reports {

        private volatile CountDownLatch gate = new CountDownLatch(0);

        CountDownLatch closeGate() {
            gate = new CountDownLatch(1);
            return gate;
        }

        @Async("reports")
        public CompletableFuture<String> render(long millis) throws InterruptedException {
            Thread.sleep(millis); // the report's own run time
            gate.await();
            return CompletableFuture.completedFuture("report");
        }
    }

    @RestController
    static class ReportsController {

        private final Reports reports;

        ReportsController(Reports reports) {
            this.reports = reports;
        }

        @GetMapping("/reports")
        CompletableFuture<String> report(@RequestParam long millis) throws InterruptedException {
            return reports.render(millis);
        }
    }
}
