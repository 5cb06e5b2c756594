package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every overload is a {@code 429} with {@code Retry-After} and an RFC 9457 problem body, on each web stack (the
 * subclasses): a reactive {@code @Permits} {@code Mono} or {@code Flux} whose permits do not come, a controller guarded
 * by {@code @Permits} on its type, and a {@code RejectedExecutionException} with an overload anywhere in its cause
 * chain, thrown or signalled; a rejection without one is no 429. With the permits free, the same calls answer 200 and
 * give every permit back.
 */
@Timeout(60)
abstract class OverloadAnswersHttpTests {

    static final String PROPERTIES = "poolkit.semaphores.gpu.size=2";

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    @Qualifier("gpu")
    private WeightedSemaphore gpu;

    @AfterEach
    void everyPermitIsBack() {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gpu.used() == 0 && gpu.waiting() == 0);
    }

    @Test
    void guardedCallsAnswer200WhileThePermitsAreFree() throws Exception {
        for (String path : new String[] { "/mono", "/flux", "/typed" }) {
            HttpResponse<String> ok = get(path);
            assertThat(ok.statusCode()).as(path + " " + ok.body()).isEqualTo(200);
        }
    }

    @Test
    void aReactiveMonoWhosePermitsDoNotComeIs429() throws Exception {
        assertOverloaded("/mono", "1 permits of semaphore 'gpu' (maxWait 100ms): not granted within 100ms");
    }

    @Test
    void aReactiveFluxWhosePermitsDoNotComeIs429() throws Exception {
        assertOverloaded("/flux", "1 permits of semaphore 'gpu' (maxWait 0ms)");
    }

    @Test
    void aMethodGuardedByItsTypesAnnotationIs429() throws Exception {
        assertOverloaded("/typed", "2 permits of semaphore 'gpu' (maxWait 0ms)");
    }

    @Test
    void aRejectionWithAnOverloadDeepInItsCauseChainIs429() throws Exception {
        assertRejected("/thrown");
        assertRejected("/signalled");
    }

    @Test
    void aRejectionWithoutAnOverloadIsNo429() throws Exception {
        HttpResponse<String> response = get("/plain-rejection");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(500);
    }

    void assertOverloaded(String path, String detail) throws Exception {
        gpu.acquire(2);
        try {
            JsonNode problem = assert429(path);
            assertThat(problem.get("detail").asString()).startsWith(detail);
        }
        finally {
            gpu.release(2);
        }
    }

    private void assertRejected(String path) throws Exception {
        JsonNode problem = assert429(path);
        assertThat(problem.get("detail").asString()).isEqualTo("pool 'reports' is overloaded");
    }

    private JsonNode assert429(String path) throws Exception {
        HttpResponse<String> refused = get(path);
        assertThat(refused.statusCode()).as(path + " " + refused.body()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).as(path).hasValueSatisfying(
                seconds -> assertThat(Long.parseLong(seconds)).isBetween(1L, 60L));
        assertThat(refused.headers().firstValue("Content-Type")).as(path).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = JsonMapper.builder().build().readTree(refused.body());
        assertThat(problem.get("status").asInt()).isEqualTo(429);
        assertThat(problem.get("title").asString()).isEqualTo("Too Many Requests");
        assertThat(problem.get("instance").asString()).isEqualTo(path);
        return problem;
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Reactive handlers guarded by their own annotation, and rejections as {@code @Async} would raise them. */
    @RestController
    static class ReactiveJobs {

        @GetMapping("/mono")
        @Permits(value = "gpu", maxWait = "100ms")
        public Mono<String> mono() {
            return Mono.just("ok");
        }

        @GetMapping("/flux")
        @Permits("gpu")
        public Flux<String> flux() {
            return Flux.just("a", "b");
        }

        @GetMapping("/thrown")
        public String thrown() {
            throw deepRejection();
        }

        @GetMapping("/signalled")
        public Mono<String> signalled() {
            return Mono.error(deepRejection());
        }

        @GetMapping("/plain-rejection")
        public String plainRejection() {
            throw new TaskRejectedException("Executor did not accept task", new IllegalStateException("full"));
        }

        private static TaskRejectedException deepRejection() {
            return new TaskRejectedException("Executor did not accept task",
                    new IllegalStateException("wrapped", new PoolOverloadException("pool 'reports' is overloaded")));
        }
    }

    /** Every public method guarded by the type's annotation. */
    @RestController
    @Permits(value = "gpu", weight = "2")
    static class TypeGuardedJobs {

        @GetMapping("/typed")
        public String typed() {
            return "ok";
        }
    }
}
