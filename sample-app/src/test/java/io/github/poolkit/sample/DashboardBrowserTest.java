package io.github.poolkit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import io.github.poolkit.WorkerPool;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * Opens the dashboard in a real headless Chromium (Debian's {@code /usr/bin/chromium}, driven through
 * {@code /usr/bin/chromedriver} by Selenium) and checks what a person would see: the page fills in from
 * {@code /actuator/pools}, a burst button moves the plotted numbers, and the browser logs no error.
 *
 * <p>Skipped, not failed, when either binary is missing ({@code .ci/run} installs both). Both paths are given
 * explicitly, so Selenium Manager never looks for (or downloads) a browser or a driver. Every wait polls the page
 * with a deadline; nothing sleeps.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(120)
class DashboardBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    /**
     * Selenium ships DevTools bindings only for a few browser versions and warns about any other; this test does
     * not use DevTools, so the warning is noise. Held in a field: JUL keeps loggers only while they are referenced.
     */
    private static final java.util.logging.Logger CDP_LOGGER =
            java.util.logging.Logger.getLogger("org.openqa.selenium.devtools.CdpVersionFinder");
    private static final java.util.logging.Logger CHROMIUM_LOGGER =
            java.util.logging.Logger.getLogger("org.openqa.selenium.chromium.ChromiumDriver");

    @TempDir
    static Path profile;

    private static ChromeDriver browser;

    @Value("${local.server.port}")
    private int port;

    @Autowired
    @Qualifier("workerPool")
    private WorkerPool workerPool;

    private WebDriverWait wait;

    @BeforeAll
    static void startBrowser() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium and ChromeDriver are not installed (apt-get install chromium chromium-driver)");
        CDP_LOGGER.setLevel(Level.OFF);
        CHROMIUM_LOGGER.setLevel(Level.OFF);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--user-data-dir=" + Files.createDirectories(profile.resolve("chromium")));
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @BeforeEach
    void openDashboard() {
        wait = new WebDriverWait(browser, PATIENCE);
        browser.get("http://localhost:" + port + "/");
        wait.until(page -> "live".equals(text("status")));
    }

    @AfterEach
    void browserLoggedNoError() {
        List<String> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage)
                // A refused rendering is an expected answer, but Chromium logs every 4xx fetch as an error.
                .filter(message -> !(message.contains("/api/render") && message.contains("429")))
                .toList();
        assertThat(errors).as("errors in the browser console").isEmpty();
    }

    @Test
    void dashboardShowsEveryPoolAndSemaphoreWithItsNumbersAndChart() {
        wait.until(page -> !text("pool-reports-capacity").equals("-"));

        assertThat(browser.getTitle()).isEqualTo("poolkit sample dashboard");
        assertThat(text("pool-reports-capacity")).isEqualTo("2");
        assertThat(text("pool-workerPool-capacity")).isEqualTo("8");
        assertThat(text("semaphore-image-rendering-size")).isEqualTo("512");
        assertThat(text("semaphore-weightedSemaphore-size")).isEqualTo("64");
        assertThat(browser.findElement(By.id("pool-reports-chart")).getTagName()).isEqualTo("canvas");
        assertThat(browser.findElement(By.id("semaphore-image-rendering-chart")).isDisplayed()).isTrue();
        assertThat(text("semaphore-image-rendering-scope")).isEqualTo("local");
        assertThat(text("scheduler-delayScheduler-capacity")).isEqualTo("2");
        assertThat(browser.findElement(By.id("scheduler-delayScheduler-chart")).getTagName()).isEqualTo("canvas");
        assertThat(browser.findElement(By.id("pools")).getText()).doesNotContain("delayScheduler");
    }

    @Test
    void dashboardPlotsTheCapacityOfTheAdaptivePoolOnly() {
        wait.until(page -> !text("pool-thumbnails-capacity").equals("-"));

        assertThat(text("pool-thumbnails-adaptive")).isEqualTo("gradient 1..16");
        assertThat(text("pool-reports-adaptive")).isEqualTo("none");
        wait.until(page -> (Long) script("return window.poolkitDashboard.pools.thumbnails.series.limit"
                + ".filter(function (v) { return v !== null; }).length") > 0);
        assertThat(script("return window.poolkitDashboard.pools.reports.series.limit"
                + ".filter(function (v) { return v !== null; }).length")).isEqualTo(0L);
    }

    @Test
    void dashboardShowsTheWebServersRequestThreadsBesideThePools() {
        wait.until(page -> !text("executor-webServer-capacity").equals("-"));

        assertThat(text("executor-webServer-type")).isEqualTo("ThreadPoolExecutor");
        assertThat(number("executor-webServer-capacity")).isEqualTo(200);
        assertThat(number("executor-webServer-coreSize")).isEqualTo(10);
        assertThat(number("executor-webServer-running")).isPositive();
        assertThat(number("executor-webServer-completed")).isNotEqualTo(Long.MIN_VALUE);
        assertThat(browser.findElement(By.id("executor-webServer-chart")).getTagName()).isEqualTo("canvas");
        assertThat(script("return window.poolkitDashboard.executors.webServer.series.busy.length"))
                .isNotEqualTo(0L);
        assertThat(browser.findElement(By.id("executors")).getText()).doesNotContain("workerPool");
    }

    @Test
    void anUnboundedCapacityOrQueueReadsUnlimited() {
        // Boot's applicationTaskExecutor: a maximum of Integer.MAX_VALUE (-1 on the endpoint), an unbounded queue.
        wait.until(page -> !text("executor-applicationTaskExecutor-capacity").equals("-"));

        assertThat(text("executor-applicationTaskExecutor-capacity")).isEqualTo("unlimited");
        assertThat(text("executor-applicationTaskExecutor-queueRemaining")).isEqualTo("unlimited");
        assertThat(number("executor-applicationTaskExecutor-coreSize")).isPositive();
        assertThat(text("pool-workerPool-free")).matches("\\d+");
    }

    @Test
    void aSemaphoreThatCannotBeReadShowsWhyInsteadOfItsMinusOnes() {
        // The endpoint's answer for a cluster-wide semaphore whose Redis is unreachable, given to the page in place
        // of the local image-rendering semaphore's (the page's own fetch, answered from the real endpoint).
        script("const fetched = window.fetch;"
                + "window.fetch = function (url, init) {"
                + "  return fetched(url, init).then(function (response) {"
                + "    if (String(url).indexOf('/actuator/pools') < 0) { return response; }"
                + "    return response.json().then(function (json) {"
                + "      json.semaphores['image-rendering'] = { size: -1, used: -1, waiting: -1, available: -1,"
                + "        scope: 'cluster', error: 'SemaphoreUnavailableException: Redis did not answer' };"
                + "      return new Response(JSON.stringify(json), { status: 200,"
                + "        headers: { 'Content-Type': 'application/json' } });"
                + "    });"
                + "  });"
                + "};");

        wait.until(page -> text("semaphore-image-rendering-scope").equals("cluster"));
        assertThat(text("semaphore-image-rendering-size")).isEqualTo("n/a");
        assertThat(text("semaphore-image-rendering-used")).isEqualTo("n/a");
        assertThat(text("semaphore-image-rendering-error"))
                .isEqualTo("unreadable: SemaphoreUnavailableException: Redis did not answer");
        assertThat(browser.findElement(By.id("semaphore-image-rendering")).getAttribute("class"))
                .contains("unreadable");
        assertThat(text("semaphore-weightedSemaphore-error")).isEmpty();
        assertThat(text("semaphore-weightedSemaphore-size")).isEqualTo("64");
    }

    @Test
    void busyAndIdleWorkersAndQueuedAndBlockedCallersAreShownApart() throws Exception {
        wait.until(page -> number("pool-workerPool-busy") == 0 && number("pool-workerPool-waiting") == 0);
        CountDownLatch release = new CountDownLatch(1);
        Thread blockedCaller = null;
        try {
            // 8 workers busy, the 100-task queue full, and one more caller blocked in execute.
            for (int i = 0; i < 8 + 100; i++) {
                workerPool.execute(() -> awaitQuietly(release));
            }
            blockedCaller = Thread.ofPlatform().start(() -> workerPool.execute(() -> { }));
            wait.until(page -> number("pool-workerPool-blocked") == 1);
            assertThat(number("pool-workerPool-busy")).isEqualTo(8);
            assertThat(number("pool-workerPool-idle")).isZero();
            assertThat(number("pool-workerPool-running")).isEqualTo(8);
            assertThat(number("pool-workerPool-queued")).isEqualTo(100);
            assertThat(number("pool-workerPool-waiting")).isEqualTo(101);
            assertThat(script("return Math.max(...window.poolkitDashboard.pools.workerPool.series.blocked)"))
                    .isEqualTo(1L);
        }
        finally {
            release.countDown();
            if (blockedCaller != null) {
                blockedCaller.join(PATIENCE.toMillis());
            }
        }
        // Everything ran: no worker is busy, the ones still alive are idle, nothing waits.
        wait.until(page -> number("pool-workerPool-busy") == 0 && number("pool-workerPool-waiting") == 0);
        assertThat(number("pool-workerPool-idle")).isEqualTo(number("pool-workerPool-running"));
        assertThat(number("pool-workerPool-queued")).isZero();
        assertThat(number("pool-workerPool-blocked")).isZero();
    }

    @Test
    void burstButtonMovesThePlottedNumbers() {
        wait.until(page -> number("pool-reports-running") == 0 && number("pool-reports-waiting") == 0);
        String chartBefore = chart("pool-reports-chart");

        browser.findElement(By.id("burst-reports")).click();

        wait.until(page -> text("last-result").startsWith("reports:"));
        assertThat(text("last-result")).matches("reports: \\d+ accepted, \\d+ rejected").contains("5 rejected");
        wait.until(page -> number("pool-reports-busy") == 2);
        assertThat(number("pool-reports-running")).isEqualTo(2);
        assertThat(number("pool-reports-free")).isZero();
        assertThat(script("return Math.max(...window.poolkitDashboard.pools.reports.series.busy)"))
                .isEqualTo(2L);
        assertThat(chart("pool-reports-chart")).isNotEqualTo(chartBefore);
        // The burst ends: every accepted job runs and the queue empties.
        wait.until(page -> number("pool-reports-waiting") == 0);
    }

    @Test
    void refusedJobsAreCountedOnThePoolsCard() {
        wait.until(page -> number("pool-reports-running") == 0 && number("pool-reports-waiting") == 0);
        long rejectedBefore = number("pool-reports-rejected");
        browser.findElement(By.id("burst-reports")).click();
        wait.until(page -> text("last-result").startsWith("reports:"));
        wait.until(page -> number("pool-reports-rejected") == rejectedBefore + 5);
        wait.until(page -> number("pool-reports-waiting") == 0);
    }

    @Test
    void renderButtonFillsTheSemaphoreAndShowsTheRefusals() {
        wait.until(page -> number("semaphore-image-rendering-used") == 0);

        browser.findElement(By.id("burst-render")).click();

        // 4 requests of 200 MB against 512 MB: two are accepted, two time out with 429.
        wait.until(page -> text("last-result").contains("HTTP"));
        assertThat(text("last-result")).contains("2 \u00d7 HTTP 202", "2 \u00d7 HTTP 429");
        wait.until(page -> number("semaphore-image-rendering-used") == 400);
        assertThat(number("semaphore-image-rendering-available")).isEqualTo(112);
        wait.until(page -> number("semaphore-image-rendering-used") == 0);
    }

    @Test
    void reminderButtonSchedulesAReminderThatShowsAsPending() {
        browser.findElement(By.id("remind")).click();

        wait.until(page -> text("last-result").startsWith("reminder #"));
        String id = text("last-result").replaceAll("^reminder #(\\d+).*$", "$1");
        wait.until(page -> text("reminders-pending").contains("#" + id + " "));
        assertThat(number("reminders-pending-count")).isPositive();
        wait.until(page -> number("scheduler-delayScheduler-pending") >= 1);
        assertThat(script("return Math.max(...window.poolkitDashboard.schedulers.delayScheduler.series.pending)"))
                .isNotEqualTo(0L);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void theHangingJobButtonShowsTheOverdueEntryAndTheEventCount() {
        wait.until(page -> !text("pool-exports-overdue").equals("-"));
        long overdueBefore = number("pool-exports-overdue");
        long eventsBefore = number("overdue-events");
        browser.findElement(By.id("hang-exports")).click();
        wait.until(page -> text("last-result").startsWith("exports:"));
        assertThat(text("last-result")).isEqualTo("exports: 1 accepted, 0 rejected");
        // run-timeout is 5 s: the report comes within 5 s + 1.25 s, and the dashboard polls every second.
        wait.until(page -> number("pool-exports-overdue") == overdueBefore + 1);
        wait.until(page -> number("overdue-events") == eventsBefore + 1);
        assertThat(text("overdue")).contains("exports: run 'simulated job 1/1 of 30000 ms on exports' on exports-");
    }

    private String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    private long number(String id) {
        String value = text(id);
        return value.matches("-?\\d+") ? Long.parseLong(value) : Long.MIN_VALUE;
    }

    private Object script(String javascript, Object... arguments) {
        return ((JavascriptExecutor) browser).executeScript(javascript, arguments);
    }

    /** The canvas's current picture, as a data URL: two calls differ exactly when something was drawn between. */
    private String chart(String id) {
        return (String) script("return document.getElementById(arguments[0]).toDataURL()", id);
    }
}
