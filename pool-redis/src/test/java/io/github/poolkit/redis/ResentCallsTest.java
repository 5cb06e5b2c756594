package io.github.poolkit.redis;

import static io.github.poolkit.redis.RedisPermitSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.Permit;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Lettuce's at-least-once delivery: after a reconnect it sends again every command whose answer it had not read,
 * although Redis may have run it. Here each chosen call runs, its answer is dropped, and the very same call (same
 * operation id) is sent again ({@link ScriptLink#sendTwice}); Redis's own counts ({@code INFO commandstats}) show
 * that the script ran twice, and the semaphore's state shows that the second run changed nothing.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ResentCallsTest {

    // no renewal runs during a test (every 20 s), so Redis runs only the calls counted below
    private static final Duration LEASE = Duration.ofSeconds(60);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @RegisterExtension
    final SemaphoreInstances semaphores = new SemaphoreInstances(redis);

    private final Logger log = Logger.getLogger(RedisPermitSemaphore.class.getName());
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Handler warningsHandler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(record.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private StatefulRedisConnection<String, String> admin;
    private final ScriptLink link = new ScriptLink();
    private RedisPermitSemaphore resending;
    private RedisPermitSemaphore other;

    @BeforeEach
    void open() {
        log.addHandler(warningsHandler);
        admin = redis.client().connect();
        resending = semaphores.open(semaphores.builder().size(3).leaseTime(LEASE), link);
        other = semaphores.open(3, LEASE, Duration.ofSeconds(2));
    }

    @AfterEach
    void close() {
        log.removeHandler(warningsHandler);
        admin.close();
    }

    private RedisCommands<String, String> redis() {
        return admin.sync();
    }

    private String key(String suffix) {
        return "poolkit:semaphore:{" + semaphores.name() + "}:" + suffix;
    }

    /** Waits until Redis has run the script exactly {@code runs} times since the counts were reset. */
    private void awaitScriptRuns(int runs) {
        await().atMost(Duration.ofSeconds(5))
                .until(() -> redis().info("commandstats").contains("cmdstat_evalsha:calls=" + runs + ","));
    }

    @Test
    void anAcquireSentTwiceIsGrantedOnceOrQueuedOnceNeverBoth() throws Exception {
        link.sendTwice("acquire");
        redis().configResetstat();
        Permit held = resending.acquirePermit(2); // granted by the first run; the second finds its lease
        awaitScriptRuns(2);
        Map<String, String> meta = redis().hgetall(key("meta"));
        List<String> leases = meta.keySet().stream().filter(field -> field.startsWith("l:")).toList();
        assertThat(leases).hasSize(1);
        assertThat(meta.get(leases.get(0))).as("the lease the first run made").startsWith("2 " + held.fencingToken());
        assertState(other, 3, 2, 0); // counted once

        redis().configResetstat();
        CompletableFuture<Permit> waiting = resending.acquireAsync(2); // queued by the first run; the second finds it
        awaitScriptRuns(2);
        assertState(other, 3, 2, 1);
        List<String> queue = redis().zrange(key("queue"), 0, -1);
        assertThat(queue).hasSize(1);
        assertThat(redis().hexists(key("meta"), "l:" + queue.get(0))).as("queued and leased at once").isFalse();

        held.close();
        try (Permit granted = waiting.get(10, TimeUnit.SECONDS)) {
            assertThat(granted.fencingToken()).isGreaterThan(held.fencingToken());
            assertState(other, 3, 2, 0);
        }
        assertState(other, 3, 0, 0);
        assertThat(other.tryAcquire(3)).isTrue();
        other.release(3);
    }

    @Test
    void aReleaseSentTwiceReleasesOnceAndReportsNoExpiry() throws Exception {
        Permit permit = resending.acquirePermit(2);
        Permit others = other.acquirePermit(1);
        link.sendTwice("release");
        redis().configResetstat();
        permit.close(); // the second run finds no lease: the first released it, as its record says
        assertThat(redis().info("commandstats")).contains("cmdstat_evalsha:calls=2,");
        assertThat(permit.lost()).as("a release sent twice reports no expiry").isNotDone();
        assertThat(warnings).as("warnings logged").isEmpty();
        assertState(other, 3, 1, 0); // released once: the other instance's permit still counts

        others.close();
        assertState(other, 3, 0, 0);
    }

    @Test
    void aPartialReleaseSentTwiceReleasesOnceAndFailsNot() throws Exception {
        resending.acquire(2);
        other.acquire(1);
        link.sendTwice("releaseFrom");
        redis().configResetstat();
        resending.release(1); // the second run finds the lease changed: the first changed it, as its record says
        assertThat(redis().info("commandstats")).contains("cmdstat_evalsha:calls=2,");
        assertState(other, 3, 2, 0);
        resending.release(1); // what this instance knows of the lease is still what Redis holds
        assertState(other, 3, 1, 0);
        assertThat(warnings).as("warnings logged").isEmpty();
        other.release(1);
        assertState(other, 3, 0, 0);
    }

    @Test
    void aReleaseSentAgainLaterThanTheLeaseTimeButWithinTheCommandTimeoutReportsNoExpiry() throws Exception {
        // a lease time shorter than the command timeout: the answer to a release that Lettuce sends again a lease
        // time after its first run (a slow reconnect) is still read
        ScriptLink slow = new ScriptLink();
        RedisPermitSemaphore shortLease = semaphores.open(semaphores.builder().size(3)
                .leaseTime(Duration.ofMillis(300)).commandTimeout(Duration.ofSeconds(3)), slow);
        Permit permit = shortLease.acquirePermit(2);
        slow.sendTwice(Duration.ofMillis(800), "release");
        permit.close(); // the second run must still find the first one's record
        assertThat(permit.lost()).as("a release sent twice reports no expiry").isNotDone();
        assertThat(warnings).as("warnings logged").isEmpty();
        assertState(other, 3, 0, 0);
    }

    @Test
    void renewalsSentWhileAReleaseIsUnansweredReportNoGrantItReleasedAsLost() throws Exception {
        ScriptLink slow = new ScriptLink();
        RedisPermitSemaphore shortLease = semaphores.open(semaphores.builder().size(3)
                .leaseTime(Duration.ofMillis(300)).commandTimeout(Duration.ofSeconds(3)), slow);
        shortLease.acquire(2);
        shortLease.acquire(1);
        // the answer of release(n) comes 800 ms after its first run: renewals (every 100 ms) run meanwhile
        slow.sendTwice(Duration.ofMillis(800), "releaseFrom");
        shortLease.release(2); // the older grant, whole
        assertThat(warnings).as("warnings logged").isEmpty();
        assertState(other, 3, 1, 0);
        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5))
                .until(() -> other.used() == 1); // the other grant is still renewed
        shortLease.release(1);
        assertState(other, 3, 0, 0);
        assertThat(warnings).as("warnings logged").isEmpty();
    }
}
