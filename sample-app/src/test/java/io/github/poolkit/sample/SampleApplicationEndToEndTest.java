package io.github.poolkit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import io.github.poolkit.sample.ApiClient.Answer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import tools.jackson.databind.JsonNode;

/**
 * Drives the whole application over HTTP, as a user with curl would: bursts of jobs through both pools, renderings
 * under the semaphore, reminders on the scheduler, and what the actuator reports about them. The configuration is
 * the application's own {@code application.yml}.
 *
 * <p>The context is shared with the other tests of the module, so background jobs of one test may still run when
 * the next starts: assertions that depend on a quiet pool first wait for it (Awaitility), and the others assert
 * only what holds whatever else is running.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(60)
class SampleApplicationEndToEndTest {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @Value("${local.server.port}")
    private int port;

    private ApiClient api;

    @BeforeEach
    void setUp() {
        api = new ApiClient(port);
    }

    // ---- dashboard ------------------------------------------------------------------------------------------

    @Test
    void servesTheDashboardAndItsScript() {
        Answer page = api.get("/");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.body()).contains("poolkit sample dashboard", "dashboard.js", "id=\"burst-reports\"");

        Answer script = api.get("/dashboard.js");
        assertThat(script.status()).isEqualTo(200);
        assertThat(script.contentType()).contains("javascript");
        assertThat(script.body()).contains("/actuator/pools");
    }

    // ---- jobs -----------------------------------------------------------------------------------------------

    @Test
    void nonblockingPoolRefusesWhatItCannotTakeAndReportsTheRest() {
        awaitQuiet("reports");

        Answer answer = api.post("/api/pools/reports/jobs?count=10&millis=1500");

        assertThat(answer.status()).isEqualTo(200);
        JsonNode result = answer.json();
        assertThat(result.path("pool").asString()).isEqualTo("reports");
        assertThat(result.path("requested").asInt()).isEqualTo(10);
        // capacity 2 + queue 3: exactly 5 fit into an idle pool, the other 5 are refused at once.
        assertThat(result.path("accepted").asInt()).isEqualTo(5);
        assertThat(result.path("rejected").asInt()).isEqualTo(5);

        JsonNode reports = api.get("/actuator/pools/reports").json();
        assertThat(reports.path("capacity").asInt()).isEqualTo(2);
        assertThat(reports.path("running").asInt()).isEqualTo(2);
        assertThat(reports.path("free").asInt()).isZero();
        assertThat(reports.path("waiting").asInt()).isBetween(1, 3);
        assertThat(reports.path("closed").asBoolean()).isFalse();

        // The queue drains: every accepted job runs.
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(api.get("/actuator/pools/reports").json().path("waiting").asInt()).isZero());
    }

    @Test
    void blockingPoolQueuesTheBurstAndAcceptsEveryJob() {
        Answer answer = api.post("/api/pools/workerPool/jobs?count=30&millis=300");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().path("accepted").asInt()).isEqualTo(30);
        assertThat(answer.json().path("rejected").asInt()).isZero();
        JsonNode pool = api.get("/actuator/pools/workerPool").json();
        assertThat(pool.path("capacity").asInt()).isEqualTo(8);
        assertThat(pool.path("running").asInt()).isPositive();

        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(api.get("/actuator/pools/workerPool").json().path("waiting").asInt()).isZero());
    }

    @Test
    void theAdaptivePoolShowsItsBoundsAndItsCapacityStaysWithinThem() {
        JsonNode before = api.get("/actuator/pools/thumbnails").json();
        assertThat(before.path("adaptive").path("algorithm").asString()).isEqualTo("gradient");
        assertThat(before.path("adaptive").path("min").asInt()).isEqualTo(1);
        assertThat(before.path("adaptive").path("max").asInt()).isEqualTo(16);

        Answer answer = api.post("/api/pools/thumbnails/jobs?count=20&millis=50");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().path("accepted").asInt()).isPositive();
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(api.get("/actuator/pools/thumbnails").json().path("busy").asInt()).isZero());
        assertThat(api.get("/actuator/pools/thumbnails").json().path("capacity").asInt()).isBetween(1, 16);
        Answer refused = api.postJson("/actuator/pools/thumbnails", "{\"capacity\": 8}");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().path("detail").asString()).contains("its limit is adaptive");
    }

    @Test
    void poolsEndpointListsEveryPoolAndSemaphore() {
        JsonNode all = api.get("/actuator/pools").json();

        assertThat(all.path("pools").propertyNames()).contains("workerPool", "reports");
        assertThat(all.path("semaphores").propertyNames()).contains("weightedSemaphore", "image-rendering");
        JsonNode rendering = all.path("semaphores").path("image-rendering");
        assertThat(rendering.path("size").asLong()).isEqualTo(512);
        assertThat(rendering.path("used").asLong() + rendering.path("available").asLong()).isEqualTo(512);
        assertThat(all.path("semaphores").path("weightedSemaphore").path("size").asLong()).isEqualTo(64);
    }

    @Test
    void poolsEndpointListsTheTomcatRequestThreadsAndTunesThem() {
        JsonNode webServer = api.get("/actuator/pools").json().path("executors").path("webServer");
        assertThat(webServer.path("type").asString()).isEqualTo("ThreadPoolExecutor");
        assertThat(webServer.path("capacity").asInt()).isEqualTo(200);
        assertThat(webServer.path("coreSize").asInt()).isEqualTo(10);
        assertThat(webServer.path("busy").asInt()).as("this request").isPositive();
        try {
            Answer tuned = api.postJson("/actuator/pools/webServer", "{\"capacity\": 250, \"coreSize\": 20}");
            assertThat(tuned.status()).isEqualTo(200);
            assertThat(api.get("/actuator/pools/webServer").json().path("coreSize").asInt()).isEqualTo(20);
            Answer refused = api.postJson("/actuator/pools/webServer", "{\"coreSize\": 300}");
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.json().path("field").asString()).isEqualTo("coreSize");
        } finally {
            api.postJson("/actuator/pools/webServer", "{\"capacity\": 200, \"coreSize\": 10}");
        }
        assertThat(api.get("/actuator/pools/webServer").json().path("capacity").asInt()).isEqualTo(200);
    }

    @Test
    void poolCanBeTunedThroughTheActuator() {
        try {
            Answer tuned = api.postJson("/actuator/pools/reports", "{\"capacity\": 3}");
            assertThat(tuned.status()).isBetween(200, 204);
            assertThat(api.get("/actuator/pools/reports").json().path("capacity").asInt()).isEqualTo(3);
        } finally {
            api.postJson("/actuator/pools/reports", "{\"capacity\": 2}");
        }
        assertThat(api.get("/actuator/pools/reports").json().path("capacity").asInt()).isEqualTo(2);
    }

    // ---- render ---------------------------------------------------------------------------------------------

    @Test
    void renderHoldsPermitsWhileItWorksAndAnswers429WhenTheBudgetIsSpokenFor() {
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(semaphore("image-rendering").path("used").asLong()).isZero());
        Answer whole = api.post("/api/render?sizeMb=512&millis=2000");
        assertThat(whole.status()).isEqualTo(202);
        assertThat(whole.json().path("sizeMb").asLong()).isEqualTo(512);
        assertThat(whole.json().path("availableMb").asLong()).isZero();
        assertThat(semaphore("image-rendering").path("used").asLong()).isEqualTo(512);

        Answer refused = api.post("/api/render?sizeMb=1&millis=10");
        assertProblem(refused, 429);
        assertThat(refused.retryAfter()).isEqualTo("1");
        assertThat(refused.json().path("detail").asString())
                .contains("1 permits of semaphore 'image-rendering'", "not granted within 500ms");
        assertThat(semaphore("image-rendering").path("used").asLong()).isEqualTo(512);

        // When the rendering finishes its permits come back, and a new request gets them.
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(semaphore("image-rendering").path("used").asLong()).isZero());
        assertThat(api.post("/api/render?sizeMb=1&millis=10").status()).isEqualTo(202);
    }

    /**
     * The 429's {@code Retry-After} is the starter's estimate from the hold times measured (1.5 s here, and the other
     * tests' renderings of up to 2 s before it), not a fixed second: a client that waits that long finds the budget
     * free.
     */
    @Test
    void aRefusedRenderIsToldToRetryAfterTheMeasuredHoldTime() {
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(semaphore("image-rendering").path("used").asLong()).isZero());
        assertThat(api.post("/api/render?sizeMb=512&millis=1500").status()).isEqualTo(202);
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(semaphore("image-rendering").path("used").asLong()).isZero());
        assertThat(api.post("/api/render?sizeMb=512&millis=1500").status()).isEqualTo(202);
        Answer refused = api.post("/api/render?sizeMb=512&millis=10");
        assertProblem(refused, 429);
        assertThat(Long.parseLong(refused.retryAfter())).as("seconds held, rounded up").isBetween(2L, 5L);
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(semaphore("image-rendering").path("used").asLong()).isZero());
    }

    // ---- reminders ------------------------------------------------------------------------------------------

    @Test
    void reminderCanBeScheduledListedAndCancelledOnce() {
        Answer created = api.postJson("/api/reminders", "{\"text\": \"water the plants\", \"delayMs\": 600000}");
        assertThat(created.status()).isEqualTo(201);
        String id = created.json().path("id").asString();
        assertThat(created.json().path("text").asString()).isEqualTo("water the plants");

        assertThat(ids(api.get("/api/reminders").json())).contains(id);
        assertThat(api.get("/api/reminders/" + id).json().path("text").asString()).isEqualTo("water the plants");

        assertThat(api.delete("/api/reminders/" + id).status()).isEqualTo(204);
        assertProblem(api.delete("/api/reminders/" + id), 404);
        assertProblem(api.get("/api/reminders/" + id), 404);
        assertThat(ids(api.get("/api/reminders").json())).doesNotContain(id);
    }

    @Test
    void dueReminderFiresOnceAndLeavesThePendingList() {
        Answer created = api.postJson("/api/reminders", "{\"text\": \"stand up\", \"delayMs\": 100}");
        assertThat(created.status()).isEqualTo(201);
        String id = created.json().path("id").asString();

        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(ids(api.get("/api/reminders/fired").json())).contains(id));
        assertThat(ids(api.get("/api/reminders").json())).doesNotContain(id);
        assertProblem(api.delete("/api/reminders/" + id), 404);
    }

    // ---- observability --------------------------------------------------------------------------------------

    @Test
    void prometheusScrapeShowsPoolAndSemaphoreGaugesAndRejections() {
        awaitQuiet("reports");
        assertThat(api.post("/api/pools/reports/jobs?count=10&millis=200").json().path("rejected").asInt())
                .isPositive();

        Answer scrape = api.get("/actuator/prometheus");

        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.contentType()).startsWith("text/plain");
        assertThat(scrape.body())
                .contains("poolkit_pool_running")
                .containsPattern("poolkit_pool_capacity\\{[^}]*name=\"reports\"[^}]*} 2(\\.0)?")
                .containsPattern("poolkit_semaphore_size\\{[^}]*name=\"image-rendering\"[^}]*} 512(\\.0)?")
                .containsPattern("poolkit_pool_tasks_total\\{[^}]*outcome=\"rejected\"[^}]*}");
    }

    @Test
    void prometheusScrapeShowsExecutorSeriesForEveryPoolAndTheScheduler() {
        assertThat(api.post("/api/pools/workerPool/jobs?count=2&millis=10").status()).isEqualTo(200);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(api.get("/actuator/prometheus").body())
                .containsPattern("executor_seconds_count\\{[^}]*name=\"workerPool\"[^}]*} [1-9]"));

        String scrape = api.get("/actuator/prometheus").body();

        for (String name : List.of("workerPool", "reports", "delayScheduler")) {
            for (String series : List.of("executor_active_threads", "executor_pool_size_threads",
                    "executor_pool_max_threads", "executor_queued_tasks", "executor_queue_remaining_tasks",
                    "executor_completed_tasks_total", "executor_seconds_count", "executor_idle_seconds_count")) {
                assertThat(scrape).as(series + " of " + name)
                        .containsPattern(series + "\\{[^}]*name=\"" + name + "\"[^}]*} ");
            }
        }
        assertThat(scrape)
                .containsPattern("executor_pool_max_threads\\{[^}]*name=\"workerPool\"[^}]*} 8(\\.0)?\n")
                .containsPattern("executor_pool_max_threads\\{[^}]*name=\"delayScheduler\"[^}]*} 2(\\.0)?\n")
                .containsPattern("executor_queue_remaining_tasks\\{[^}]*name=\"reports\"[^}]*} [0-3](\\.0)?\n")
                .containsPattern("executor_delayed_tasks\\{[^}]*name=\"delayScheduler\"[^}]*} ")
                .containsPattern("poolkit_semaphore_acquire_seconds_count\\{[^}]*name=\"image-rendering\"[^}]*"
                        + "outcome=\"acquired\"[^}]*} ");
    }

    @Test
    void metricsAndHealthEndpointsSeeThePools() {
        JsonNode capacity = api.get("/actuator/metrics/poolkit.pool.capacity?tag=name:reports").json();
        assertThat(capacity.path("measurements").get(0).path("value").asDouble()).isEqualTo(2.0);

        Answer health = api.get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().path("status").asString()).isEqualTo("UP");
        assertThat(health.json().path("components").path("pools").path("status").asString()).isEqualTo("UP");
    }

    // ---- errors ---------------------------------------------------------------------------------------------

    @Test
    void badInputIsAnswered400WithAProblemDocument() {
        assertThat(assertProblem(api.post("/api/pools/reports/jobs?count=-1"), 400).path("detail").asString())
                .contains("count", "-1");
        assertProblem(api.post("/api/pools/reports/jobs?count=many"), 400);
        assertThat(assertProblem(api.post("/api/pools/workerPool/jobs?count=5&millis=-3"), 400)
                .path("detail").asString()).contains("millis");
        assertThat(assertProblem(api.post("/api/render?sizeMb=513"), 400).path("detail").asString())
                .contains("sizeMb", "512", "513");
        assertProblem(api.post("/api/render?sizeMb=0"), 400);
        assertProblem(api.post("/api/render"), 400);
        assertThat(assertProblem(api.postJson("/api/reminders", "{\"text\": \"x\", \"delayMs\": -5}"), 400)
                .path("detail").asString()).contains("delayMs");
        assertProblem(api.postJson("/api/reminders", "{\"text\": \" \", \"delayMs\": 5}"), 400);
        assertProblem(api.postJson("/api/reminders", "{\"text\": \"no delay\"}"), 400);
        assertProblem(api.postJson("/api/reminders", "not json"), 400);
    }

    @Test
    void unknownNamesAreAnswered404WithAProblemDocument() {
        assertThat(assertProblem(api.post("/api/pools/nope/jobs?count=1"), 404).path("detail").asString())
                .contains("nope", "reports", "workerPool");
        assertProblem(api.get("/api/reminders/424242"), 404);
        assertProblem(api.delete("/api/reminders/424242"), 404);
        assertThat(api.get("/actuator/pools/nope").status()).isEqualTo(404);
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    /** Checks an error answer: the status, a problem document that repeats it, and no stack trace. */
    private static JsonNode assertProblem(Answer answer, int status) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        JsonNode problem = answer.json();
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("title").asString()).isNotBlank();
        assertThat(problem.has("trace")).isFalse();
        assertThat(answer.body()).doesNotContain("\tat ", "Exception:");
        return problem;
    }

    /** Waits until a pool runs nothing and has nothing waiting (idle workers expire after one second). */
    private void awaitQuiet(String pool) {
        await().atMost(PATIENCE).untilAsserted(() -> {
            JsonNode state = api.get("/actuator/pools/" + pool).json();
            assertThat(state.path("running").asInt()).isZero();
            assertThat(state.path("waiting").asInt()).isZero();
        });
    }

    private JsonNode semaphore(String name) {
        return api.get("/actuator/pools/" + name).json();
    }

    private static java.util.List<String> ids(JsonNode reminders) {
        return reminders.valueStream().map(r -> r.path("id").asString()).toList();
    }
}
