package io.github.poolkit.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.redis.RedisPermitSemaphore;
import io.github.poolkit.redis.RedisServer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reactive {@code @Permits} handlers on a cluster semaphore (a real {@code redis-server}) in WebFlux on Netty, over
 * real HTTP: with the permits free the handler runs holding its own lease and gives it back; with every permit held
 * by another instance the answer is {@code 429} with {@code Retry-After} (its estimate reads Redis, off the event
 * loop) and a problem body, and nothing is left held or waiting.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "spring.main.web-application-type=reactive",
        "spring.autoconfigure.exclude="
                + "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
                + "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration",
        "poolkit.semaphores.gpu-memory.scope=cluster",
        "poolkit.semaphores.gpu-memory.size=4",
        "poolkit.semaphores.gpu-memory.lease-time=5s" })
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterPermitsWebFluxHttpTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    @Qualifier("gpu-memory")
    private PermitSemaphore gpu;

    @Autowired
    private GpuUser gpuUser;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", redis::port);
    }

    @Test
    void aGuardedHandlerRunsHoldingItsLeaseAndIs429WhileAnotherInstanceHoldsThePermits() throws Exception {
        HttpResponse<String> ok = get("/render");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("3 in use");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gpu.used() == 0);

        try (RedisPermitSemaphore otherInstance = RedisPermitSemaphore.builder(redis.client(), "gpu-memory").build();
                Permit all = otherInstance.acquirePermit(4)) {
            HttpResponse<String> refused = get("/render");
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(
                    seconds -> assertThat(Long.parseLong(seconds)).isBetween(1L, 60L));
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            JsonNode problem = JsonMapper.builder().build().readTree(refused.body());
            assertThat(problem.get("status").asInt()).isEqualTo(429);
            assertThat(problem.get("detail").asString())
                    .startsWith("3 permits of semaphore 'gpu-memory' (maxWait 0ms): not granted within 0ms");
            assertThat(gpu.stats().used()).isEqualTo(4);
            assertThat(gpu.stats().waiting()).isZero();
        }
        assertThat(gpu.used()).isZero();
    }

    /**
     * A subscription's end goes on downstream only once its release has reached Redis, so that what the end triggers
     * (a repeat, a call chained with flatMap, a fallback on an error) finds the permits free: 3 of 4 each, so any
     * overlap is refused.
     */
    @Test
    void whatASubscriptionsEndTriggersFindsItsClusterPermitsFree() {
        assertThat(gpuUser.use().repeat(2).collectList().block(Duration.ofSeconds(20))).hasSize(3);
        assertThat(gpuUser.use().flatMap(first -> gpuUser.use()).block(Duration.ofSeconds(20))).isEqualTo("used");
        assertThat(gpuUser.stream().repeat(1).collectList().block(Duration.ofSeconds(20))).hasSize(4);
        assertThat(gpuUser.failing().onErrorResume(IllegalStateException.class, e -> gpuUser.use())
                .block(Duration.ofSeconds(20))).isEqualTo("used");
        assertThat(gpuUser.failingStream().onErrorResume(IllegalStateException.class, e -> gpuUser.stream())
                .collectList().block(Duration.ofSeconds(20))).containsExactly("x", "a", "b");
        assertThat(gpu.used()).isZero();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A handler guarded by the cluster semaphore, answering the permits in use while it runs. */
    @RestController
    static class Renders {

        @Autowired
        @Qualifier("gpu-memory")
        private PermitSemaphore gpu;

        @GetMapping("/render")
        @Permits(value = "gpu-memory", weight = "3")
        public Mono<String> render() {
            return Mono.fromCallable(() -> gpu.used() + " in use"); // the test's own (blocking) read of Redis
        }
    }

    /** Reactive methods guarded by the cluster semaphore, 3 permits of 4 each. */
    static class GpuUser {

        @Permits(value = "gpu-memory", weight = "3")
        public Mono<String> use() {
            return Mono.just("used");
        }

        @Permits(value = "gpu-memory", weight = "3")
        public Flux<String> stream() {
            return Flux.just("a", "b");
        }

        @Permits(value = "gpu-memory", weight = "3")
        public Mono<String> failing() {
            return Mono.error(new IllegalStateException("expected by the test"));
        }

        @Permits(value = "gpu-memory", weight = "3")
        public Flux<String> failingStream() {
            return Flux.concat(Flux.just("x"), Flux.error(new IllegalStateException("expected by the test")));
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ Renders.class, GpuUser.class })
    static class WebApplication {
    }
}
