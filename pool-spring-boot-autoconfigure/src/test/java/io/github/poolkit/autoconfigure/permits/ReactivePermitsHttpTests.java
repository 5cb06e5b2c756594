package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reactive {@link Permits} in WebFlux on Netty, over real HTTP: permits held while the handler's {@code Mono} runs
 * and released exactly once when it completes, errors or is cancelled (the client goes away), also while it still
 * waits; {@code 429} with {@code Retry-After} and a problem body when they do not come.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "spring.main.web-application-type=reactive", "poolkit.semaphores.flux.size=3",
        "spring.autoconfigure.exclude="
                + "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration,"
                + "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration" })
@Timeout(30)
class ReactivePermitsHttpTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @LocalServerPort
    private int port;

    @Autowired
    @Qualifier("flux")
    private WeightedSemaphore flux;

    @Autowired
    private JobBoard jobs;

    @Autowired
    private ReactiveWebServerApplicationContext context;

    @AfterEach
    void nothingHeld() {
        Awaitility.await().atMost(PATIENCE).until(() -> flux.used() == 0 && flux.waiting() == 0);
        jobs.started.clear();
    }

    @Test
    void runsOnNetty() {
        assertThat(context.getWebServer().getClass().getSimpleName()).isEqualTo("NettyWebServer");
    }

    @Test
    void permitsThatDoNotComeAnswer429WithRetryAfterAndAProblemBody() throws Exception {
        flux.acquire(3);
        try {
            Response refused = get("/brief?weight=2").block(PATIENCE);
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.header("Retry-After")).isNotNull().satisfies(
                    seconds -> assertThat(Long.parseLong(seconds)).isBetween(1L, 60L));
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
            JsonNode problem = JsonMapper.builder().build().readTree(refused.body());
            assertThat(problem.get("status").asInt()).isEqualTo(429);
            assertThat(problem.get("title").asString()).isEqualTo("Too Many Requests");
            assertThat(problem.get("detail").asString()).isEqualTo("2 permits of semaphore 'flux' (maxWait 200ms): "
                    + "not granted within 200ms; @Permits on Jobs.brief");
            assertThat(problem.get("instance").asString()).isEqualTo("/brief");
            assertThat(jobs.started).isEmpty();
        }
        finally {
            flux.release(3);
        }
    }

    @Test
    void aRejectionCausedByAnOverloadIsA429Too() throws Exception {
        Response refused = get("/rejected").block(PATIENCE);
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.header("Retry-After")).isEqualTo("1"); // this overload's pool measured nothing
        JsonNode problem = JsonMapper.builder().build().readTree(refused.body());
        assertThat(problem.get("detail").asString()).isEqualTo("pool 'reports' is overloaded");
        assertThat(problem.get("instance").asString()).isEqualTo("/rejected");
    }

    @Test
    void anApplicationsOwnMappingWins() throws Exception {
        flux.acquire(3);
        try {
            Response refused = get("/mapped").block(PATIENCE);
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.body()).isEqualTo("busy, mapped by the application");
        }
        finally {
            flux.release(3);
        }
    }

    @Test
    void holdsThePermitsWhileTheMonoRunsAndReleasesThemOnComplete() throws Exception {
        Mono<Response> response = get("/patient?weight=2").cache();
        response.subscribe();
        Sinks.One<String> job = jobs.started.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(flux.used()).isEqualTo(2);
        job.tryEmitValue("done");
        Response ok = response.block(PATIENCE);
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("done");
        Awaitility.await().atMost(PATIENCE).until(() -> flux.used() == 0);
    }

    @Test
    void releasesOnError() throws Exception {
        Mono<Response> response = get("/patient?weight=3").cache();
        response.subscribe();
        Sinks.One<String> job = jobs.started.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(flux.used()).isEqualTo(3);
        job.tryEmitError(new IllegalStateException("expected by the test"));
        assertThat(response.block(PATIENCE).status()).isEqualTo(500);
        Awaitility.await().atMost(PATIENCE).until(() -> flux.used() == 0);
    }

    @Test
    void releasesWhenTheClientGoesAwayWhileTheMonoRuns() throws Exception {
        Disposable client = get("/patient?weight=2").subscribe();
        jobs.started.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(flux.used()).isEqualTo(2);
        client.dispose();
        Awaitility.await().atMost(PATIENCE).until(() -> flux.used() == 0);
    }

    @Test
    void withdrawsTheRequestWhenTheClientGoesAwayWhileItWaits() throws Exception {
        flux.acquire(3);
        try {
            Disposable client = get("/patient?weight=1").subscribe();
            Awaitility.await().atMost(PATIENCE).until(() -> flux.waiting() == 1);
            client.dispose();
            Awaitility.await().atMost(PATIENCE).until(() -> flux.waiting() == 0);
            assertThat(flux.used()).isEqualTo(3);
        }
        finally {
            flux.release(3);
        }
        assertThat(flux.used()).isZero();
        assertThat(jobs.started).isEmpty();
    }

    /**
     * Requests at once, more than the permits allow; some finish, some fail, some clients go away (while waiting or
     * while running): every finished one had its permits, and in the end only the permit the test holds is in use.
     */
    @RepeatedTest(5)
    void noPermitLeaksAndNoneIsReleasedTwiceUnderConcurrentRequests(RepetitionInfo repetition) throws Exception {
        Random random = new Random(repetition.getCurrentRepetition());
        flux.acquire(1); // held throughout: a second release of anybody's permits would show as used() < 1
        try {
            int requests = 12;
            List<Mono<Response>> responses = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                int ending = random.nextInt(3);
                Mono<Response> request = get("/work?weight=" + (1 + random.nextInt(2)) + "&millis="
                        + random.nextInt(20) + "&fail=" + (ending == 1));
                if (ending == 2) { // the client goes away after a while: waiting, running or already answered
                    Disposable client = request.subscribe(r -> { }, e -> { });
                    Mono.delay(Duration.ofMillis(random.nextInt(30))).subscribe(tick -> client.dispose());
                }
                else {
                    Mono<Response> response = request.cache();
                    response.subscribe(r -> { }, e -> { });
                    responses.add(response);
                }
            }
            for (Mono<Response> response : responses) {
                assertThat(response.block(PATIENCE).status()).isIn(200, 500); // 500: the work failed as told
            }
            Awaitility.await().atMost(PATIENCE).until(() -> flux.used() == 1 && flux.waiting() == 0);
            Awaitility.await().during(Duration.ofMillis(50)).atMost(PATIENCE)
                    .until(() -> flux.used() == 1 && flux.waiting() == 0);
            assertThat(jobs.ranWithoutPermits).hasValue(0);
        }
        finally {
            flux.release(1);
        }
    }

    private Mono<Response> get(String path) {
        return HttpClient.create().get().uri("http://localhost:" + port + path)
                .responseSingle((response, body) -> body.asString().defaultIfEmpty("")
                        .map(text -> new Response(response.status().code(),
                                response.responseHeaders().get("Retry-After"),
                                response.responseHeaders().get("Content-Type"), text)));
    }

    record Response(int status, String retryAfter, String contentType, String body) {

        String header(String name) {
            return name.equals("Retry-After") ? retryAfter : contentType;
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ JobBoard.class, Jobs.class, MappingJobs.class })
    static class WebApplication {
    }

    /** Maps overloads itself (its handler also matches an overload in a cause chain). */
    @RestController
    static class MappingJobs {

        @GetMapping("/mapped")
        @Permits("flux")
        public Mono<String> mapped() {
            return Mono.just("ok");
        }

        @ExceptionHandler(PoolOverloadException.class)
        ResponseEntity<String> busy(PoolOverloadException ex) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body("busy, mapped by the application");
        }
    }

    /** What the handlers tell the test (a bean of its own: the controller is a proxy, whose fields are not its). */
    static class JobBoard {

        /** The jobs started, each ended by the test. */
        final BlockingQueue<Sinks.One<String>> started = new LinkedBlockingQueue<>();

        /** Work that found fewer permits in use than its own weight plus the test's one. */
        final AtomicInteger ranWithoutPermits = new AtomicInteger();
    }

    /** Guarded handlers. */
    @RestController
    static class Jobs {

        private final JobBoard board;

        private final WeightedSemaphore flux;

        Jobs(JobBoard board, @Qualifier("flux") WeightedSemaphore flux) {
            this.board = board;
            this.flux = flux;
        }

        /** Fails as a full pool behind {@code @Async} would. */
        @GetMapping("/rejected")
        public Mono<String> rejected() {
            return Mono.error(new TaskRejectedException("Executor did not accept task",
                    new PoolOverloadException("pool 'reports' is overloaded")));
        }

        @GetMapping("/patient")
        @Permits(value = "flux", weight = "#weight", maxWait = "60s")
        public Mono<String> patient(@RequestParam long weight) {
            return job();
        }

        @GetMapping("/brief")
        @Permits(value = "flux", weight = "#weight", maxWait = "200ms")
        public Mono<String> brief(@RequestParam long weight) {
            return job();
        }

        @GetMapping("/work")
        @Permits(value = "flux", weight = "#weight", maxWait = "60s")
        public Mono<String> work(@RequestParam long weight, @RequestParam long millis, @RequestParam boolean fail) {
            return Mono.fromCallable(() -> {
                if (flux.used() < weight + 1) {
                    board.ranWithoutPermits.incrementAndGet();
                }
                if (fail) {
                    throw new IllegalStateException("failed as the test asked");
                }
                return "worked";
            }).delayElement(Duration.ofMillis(millis));
        }

        /** Answers work that failed as told without Boot's error log. */
        @ExceptionHandler(IllegalStateException.class)
        ResponseEntity<String> failed(IllegalStateException ex) {
            return ResponseEntity.internalServerError().body(ex.getMessage());
        }

        /** A job that starts when subscribed (so only once the permits are held) and ends when the test says. */
        private Mono<String> job() {
            return Mono.defer(() -> {
                Sinks.One<String> job = Sinks.one();
                board.started.add(job);
                return job.asMono();
            });
        }
    }
}
