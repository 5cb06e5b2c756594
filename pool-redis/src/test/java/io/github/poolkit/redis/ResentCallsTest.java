package io.github.poolkit.redis;

import static io.github.poolkit.redis.RedisPermitSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.Permit;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.netty.util.HashedWheelTimer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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

    /**
     * An acquire and its release both sent again, in order, after a reconnect that lost both answers (the grant was
     * heard on the grant channel meanwhile): the acquire finds nothing under its id (released) and is granted anew, a
     * lease nobody holds; the release then finds that stranger's token under the id, gives it back, and must still
     * answer as its first run did, not "expired".
     */
    @Test
    void aReleaseSentAgainBehindItsAcquireSentAgainGivesTheStrangerBackAndReportsNoExpiry() throws Exception {
        Permit permit = resending.acquirePermit(2);
        permit.close();
        assertState(other, 3, 0, 0);

        List<Object> acquiredAgain = link.sendAgain(link.lastSent("acquire"));
        assertThat(acquiredAgain.get(0)).as("granted anew: a stranger under the id").isEqualTo(1L);
        assertState(other, 3, 2, 0);
        assertThat(link.sendAgain(link.lastSent("release"))).as("as its first run answered").containsExactly(1L);
        assertState(other, 3, 0, 0);
        assertThat(permit.lost()).isNotDone();
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
    void aResizeSentAgainAfterANewerOneDoesNotUndoIt() throws Exception {
        ScriptLink slow = new ScriptLink();
        RedisPermitSemaphore resizing = semaphores.open(semaphores.builder().size(3).leaseTime(LEASE)
                .commandTimeout(Duration.ofSeconds(5)), slow);
        CompletableFuture<Void> reconnected = new CompletableFuture<>();
        slow.sendTwiceWhen(reconnected, "resize");
        CompletableFuture<Void> resized = CompletableFuture.runAsync(() -> resizing.resize(5));
        await().until(() -> other.size() == 5); // the first run, answer lost
        other.resize(7); // a newer resize, from another instance, before the first is sent again
        redis().configResetstat();
        reconnected.complete(null);
        resized.get(10, TimeUnit.SECONDS); // the second run has answered
        assertThat(redis().info("commandstats")).as("the resize ran again").contains("cmdstat_evalsha:calls=1,");
        assertThat(other.size()).as("the newer resize stands").isEqualTo(7);
    }

    /**
     * Lettuce holds a command that got no answer, and sends it again on reconnecting, for as long as its own timeout
     * (60 s by default), well past the lease time and the semaphore's command timeout: a resize's record outlives that.
     */
    @Test
    void aResizeSentAgainLongAfterTheLeaseAndCommandTimeoutsDoesNotUndoANewerOne() throws Exception {
        ScriptLink slow = new ScriptLink();
        RedisPermitSemaphore resizing = semaphores.open(semaphores.builder().size(3)
                .leaseTime(Duration.ofMillis(300)).commandTimeout(Duration.ofMillis(300)), slow);
        CompletableFuture<Void> reconnected = new CompletableFuture<>();
        slow.sendTwiceWhen(reconnected, "resize");
        assertThatThrownBy(() -> resizing.resize(5)).isInstanceOf(SemaphoreUnavailableException.class);
        assertThat(other.size()).as("the first run, answer lost").isEqualTo(5);
        other.resize(7);
        // an outage three times both timeouts long, during which nothing changes the size
        await().during(Duration.ofMillis(900)).atMost(Duration.ofSeconds(5)).until(() -> other.size() == 7);
        redis().configResetstat();
        reconnected.complete(null);
        awaitScriptRuns(1);
        assertThat(other.size()).as("the newer resize stands").isEqualTo(7);
    }

    @Test
    void anAcquireSentAgainAfterNoScriptThatRunsBehindItsCancelLeavesNothingHeld() throws Exception {
        ScriptLink lost = new ScriptLink();
        RedisPermitSemaphore impatient = semaphores.open(semaphores.builder().size(3).leaseTime(LEASE)
                .commandTimeout(Duration.ofMillis(500)), lost);
        List<String> cancelled = cancelsOn(lost);
        CompletableFuture<Void> evalGoesOut = new CompletableFuture<>();
        lost.loseScriptFor("acquire", evalGoesOut);
        assertThatThrownBy(() -> impatient.acquire(2)).isInstanceOf(SemaphoreUnavailableException.class)
                .hasMessageContaining("could not acquire");
        await().until(() -> cancelled.size() == 1); // the request gave up; its cancel ran and found nothing
        String id = cancelled.get(0);
        evalGoesOut.complete(null); // the acquire, sent again whole, runs behind it: granted to nobody
        await().atMost(Duration.ofSeconds(5)).until(() -> cancelled.size() == 2); // withdrawn once more
        assertThat(redis().hget(key("meta"), "l:" + id)).as("a grant nobody holds").isNull();
        assertState(other, 3, 0, 0);
    }

    /** {@return the ids of the requests whose cancel script ran through {@code link}, as their answers come} */
    private static List<String> cancelsOn(ScriptLink link) {
        List<String> cancelled = new CopyOnWriteArrayList<>();
        link.watch((argv, answer) -> {
            if (argv[0].equals("cancel")) {
                cancelled.add(argv[3]);
            }
        });
        return cancelled;
    }

    /**
     * As above, for a caller that gives up by completing the future itself ({@code complete(null)}, or
     * {@code completeOnTimeout}): the request ends without a permit, not exceptionally, and is withdrawn once more all
     * the same.
     */
    @Test
    void anAcquireSentAgainAfterNoScriptThatRunsBehindTheCancelOfAFutureCompletedByItsCallerLeavesNothingHeld()
            throws Exception {
        ScriptLink lost = new ScriptLink();
        RedisPermitSemaphore impatient = semaphores.open(semaphores.builder().size(3).leaseTime(LEASE), lost);
        List<String> cancelled = cancelsOn(lost);
        CompletableFuture<Void> evalGoesOut = new CompletableFuture<>();
        lost.loseScriptFor("acquire", evalGoesOut);
        CompletableFuture<Permit> future = impatient.acquireAsync(2);
        assertThat(future.complete(null)).as("the caller gives up first").isTrue();
        await().until(() -> cancelled.size() == 1); // its cancel ran and found nothing
        String id = cancelled.get(0);
        evalGoesOut.complete(null); // the acquire, sent again whole, runs behind it: granted to nobody
        await().atMost(Duration.ofSeconds(5)).until(() -> cancelled.size() == 2); // withdrawn once more
        assertThat(redis().hget(key("meta"), "l:" + id)).as("a grant nobody holds").isNull();
        assertState(other, 3, 0, 0);
    }

    @Test
    void anAcquireAnsweredLateFromTheGrantItsRequestHoldsLeavesThatGrantHeld() throws Exception {
        ScriptLink slow = new ScriptLink();
        ThreadPoolExecutor completions = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>());
        try {
            // the grant must come within the command timeout: a generous one, for a busy machine
            RedisPermitSemaphore impatient = semaphores.open(semaphores.builder().size(3).leaseTime(LEASE)
                    .commandTimeout(Duration.ofSeconds(2)).completions(completions), slow);
            other.acquire(3);
            CompletableFuture<Void> reconnected = new CompletableFuture<>();
            slow.sendTwiceWhen(reconnected, "acquire");
            CompletableFuture<Permit> waiting = impatient.acquireAsync(1); // queued by the first run, answer lost
            await().until(() -> other.waiting() == 1);
            other.release(3); // granted in Redis: the grant message reaches the request, which holds it now
            Permit permit = waiting.get(10, TimeUnit.SECONDS);
            // the acquire's call then times out, which ends nothing (the request holds its grant) but is one more
            // task on the completions executor, after the grant's
            await().until(() -> completions.getTaskCount() >= 2);
            reconnected.complete(null); // the acquire sent again answers late, from that very grant
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> other.used() == 1);
            assertThat(permit.isValid()).isTrue();
            permit.close();
            assertThat(permit.lost()).as("the grant was held until its release").isNotDone();
            assertState(other, 3, 0, 0);
            assertThat(warnings).as("warnings logged").isEmpty();
        } finally {
            completions.shutdown();
        }
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

    @Test
    void anAcquireSentAgainAfterItsGrantWasReapedLeavesNoGrantItsHolderDoesNotKnow() throws Exception {
        RedisPermitSemaphore holder = holderWhoseGrantWasReapedAndGivenToAnother(true);
        // the acquire sent again found nothing under its id and was granted anew (another token), but nobody holds
        // that grant: the holder's renewal, carrying the token it knows, finds a stranger and gives it back
        assertThat(redis().hget(key("meta"), "l:" + holderId)).as("a grant its holder does not know").isNull();
        assertState(other, 3, 0, 0);
        // and the holder learns that its grant is gone (its permits went to another instance meanwhile)
        assertThatThrownBy(() -> holder.release(2)).isInstanceOf(IllegalStateException.class);
        assertState(other, 3, 0, 0);
        assertThat(other.tryAcquire(3)).isTrue();
        other.release(3);
    }

    @Test
    void anAcquireSentAgainAfterItsGrantWasReapedLeavesNoPlaceInLineThatNobodyWaitsOn() throws Exception {
        RedisPermitSemaphore holder = holderWhoseGrantWasReapedAndGivenToAnother(false);
        // the acquire sent again did not fit: it joined the line under the holder's id, where nobody waits on it;
        // the holder's renewal finds its grant gone and takes that place out of the line, which would else hold up
        // everybody behind it for a lease time, and then be granted to nobody
        assertThat(redis().zrange(key("queue"), 0, -1)).as("places in line").isEmpty();
        assertState(other, 3, 2, 0);
        assertThat(other.tryAcquire(1)).as("nobody waits: no barging past a place").isTrue();
        other.release(1);
        secondHolder.close();
        assertState(other, 3, 0, 0); // nothing granted to nobody
        assertThatThrownBy(() -> holder.release(2)).isInstanceOf(IllegalStateException.class);
        assertState(other, 3, 0, 0);
    }

    @Test
    void theScriptTakesNoLeaseUnderItsHoldersIdWithAnotherTokenForTheHolders() throws Exception {
        try (var connection = redis.client().connect()) {
            // 'brief' makes leases of 100 ms: they expire; 'script' makes leases of 60 s (size 3, stored already)
            SemaphoreScript brief = script(connection, Duration.ofMillis(100));
            SemaphoreScript script = script(connection, LEASE);

            // lean release (nobody waits): the holder knows t1, its id holds a stranger
            String t1 = strangerUnder("o:1", brief, script);
            assertThat(script.runOperation("release", "o:21", "o:1", t1).get()).containsExactly(0L);
            assertThat(script.runOperation("release", "o:21", "o:1", t1).get()).as("sent again").containsExactly(0L);
            assertThat(script.run("state").get()).as("the stranger was given back").containsExactly(3L, 0L, 0L);

            // release while somebody waits: the stranger given back lets the line move
            String t2 = strangerUnder("o:2", brief, script);
            assertThat(script.run("acquire", "o:3", "3", "wait").get().get(0)).as("queued").isEqualTo(2L);
            assertThat(script.runOperation("release", "o:22", "o:2", t2).get()).containsExactly(0L);
            assertThat(script.run("state").get()).as("o:3 granted").containsExactly(3L, 3L, 0L);

            // renewal: a lease under the id with another token is reported lost and given back
            List<Object> renewal = script.run("heartbeat", "1", "o:3", "1").get();
            assertThat(renewal.get(0)).as("lost").isEqualTo(List.of("o:3"));
            assertThat(script.run("state").get()).containsExactly(3L, 0L, 0L);

            // renewal: a place in line under the id of a lease (queued anew by an acquire sent again) leaves the line
            assertThat(script.run("acquire", "o:4", "2", "wait").get().get(0)).isEqualTo(1L);
            assertThat(script.run("acquire", "o:5", "2", "wait").get().get(0)).as("queued").isEqualTo(2L);
            renewal = script.run("heartbeat", "1", "o:5", "1").get();
            assertThat(renewal.get(0)).as("lost").isEqualTo(List.of("o:5"));
            assertThat(script.run("state").get()).containsExactly(3L, 2L, 0L);
        }
    }

    /**
     * A release while somebody waits, of a holder whose lease was reaped and whose acquire, sent again, queued anew
     * under its id: that place in line is nobody's, and leaves the line, as a renewal takes it out.
     */
    @Test
    void aReleaseTakesAPlaceInLineUnderItsHoldersIdOutOfTheLine() throws Exception {
        try (var connection = redis.client().connect()) {
            SemaphoreScript brief = script(connection, Duration.ofMillis(100));
            SemaphoreScript script = script(connection, LEASE);
            List<Object> first = brief.run("acquire", "o:7", "2", "wait").get();
            assertThat(first.get(0)).isEqualTo(1L);
            await().atMost(Duration.ofSeconds(5)).until(() -> script.run("state").get().get(1).equals(0L));
            List<Object> other = script.run("acquire", "o:6", "2", "wait").get();
            assertThat(other.get(0)).isEqualTo(1L);
            assertThat(script.run("acquire", "o:7", "2", "wait").get().get(0)).as("queued anew").isEqualTo(2L);

            assertThat(script.runOperation("release", "o:23", "o:7", first.get(1).toString()).get())
                    .as("the holder's lease had expired").containsExactly(0L);
            assertThat(redis().zrange(key("queue"), 0, -1)).as("places in line").isEmpty();
            assertThat(script.run("state").get()).containsExactly(3L, 2L, 0L);
            assertThat(script.runOperation("release", "o:24", "o:6", other.get(1).toString()).get())
                    .containsExactly(1L);
            assertThat(script.run("state").get()).as("nothing granted to nobody").containsExactly(3L, 0L, 0L);
        }
    }

    /**
     * {@code release(n)} ({@code releaseFrom}) of a holder whose lease was reaped, under whose id an acquire sent again
     * was queued or granted anew: it changes none of the holder's leases (all or nothing), but that place or grant is
     * nobody's, and leaves the line or goes back, as a renewal or {@code release} takes it.
     */
    @Test
    void aBatchedReleaseTakesAStrangerUnderItsHoldersIdOutOfTheLineOrBack() throws Exception {
        try (var connection = redis.client().connect()) {
            SemaphoreScript brief = script(connection, Duration.ofMillis(100));
            SemaphoreScript script = script(connection, LEASE);
            List<Object> first = brief.run("acquire", "o:9", "1", "wait").get();
            await().atMost(Duration.ofSeconds(5)).until(() -> script.run("state").get().get(1).equals(0L));
            List<Object> full = script.run("acquire", "o:8", "3", "wait").get();
            assertThat(script.run("acquire", "o:9", "1", "wait").get().get(0)).as("queued anew").isEqualTo(2L);
            assertThat(script.runOperation("releaseFrom", "o:26", "o:9", "1", first.get(1).toString(), "1").get())
                    .containsExactly(0L, "o:9");
            assertThat(redis().zrange(key("queue"), 0, -1)).as("places in line").isEmpty();
            assertThat(script.run("state").get()).containsExactly(3L, 3L, 0L);
            assertThat(script.runOperation("release", "o:27", "o:8", full.get(1).toString()).get())
                    .containsExactly(1L);

            String token = strangerUnder("o:10", brief, script);
            assertThat(script.runOperation("releaseFrom", "o:28", "o:10", "1", token, "1").get())
                    .containsExactly(0L, "o:10");
            assertThat(script.run("state").get()).as("the stranger was given back").containsExactly(3L, 0L, 0L);
        }
    }

    /**
     * With Lettuce's timer stopped (its client shutting down), a call is refused before it is sent, with a
     * {@link SemaphoreUnavailableException} that says so: nothing runs in Redis that no caller hears of (the call was
     * sent first, then the timer threw at the caller, leaving its request unsettled).
     */
    @Test
    void aCallWithTheClientsTimerStoppedIsRefusedAndNotSent() throws Exception {
        HashedWheelTimer stopped = new HashedWheelTimer();
        stopped.stop();
        try (StatefulRedisConnection<String, String> connection = redis.client().connect()) {
            SemaphoreScript script = new SemaphoreScript(ScriptCalls.of(connection.async()),
                    new SemaphoreKeys(semaphores.name()), 3, LEASE, Duration.ofSeconds(2), stopped);
            redis().configResetstat();
            CompletableFuture<List<Object>> call = script.run("state");
            assertThatThrownBy(call::join).hasCauseInstanceOf(SemaphoreUnavailableException.class)
                    .hasMessageContaining("nothing was sent");
            assertThat(redis().info("commandstats")).doesNotContain("cmdstat_evalsha").doesNotContain("cmdstat_eval:");
        }
    }

    private SemaphoreScript script(StatefulRedisConnection<String, String> connection, Duration lease) {
        return new SemaphoreScript(ScriptCalls.of(connection.async()), new SemaphoreKeys(semaphores.name()), 3, lease,
                Duration.ofSeconds(2), redis.client().getResources().timer());
    }

    /**
     * A first acquire of 1 under {@code id} by {@code brief}; once its lease expired and was reaped, the same acquire
     * again by {@code script}: granted anew, with another token, to nobody.
     *
     * @return the token of the first grant, the one its holder knows
     */
    private static String strangerUnder(String id, SemaphoreScript brief, SemaphoreScript script) throws Exception {
        List<Object> first = brief.run("acquire", id, "1", "wait").get();
        assertThat(first.get(0)).isEqualTo(1L);
        await().atMost(Duration.ofSeconds(5)).until(() -> script.run("state").get().get(1).equals(0L));
        List<Object> again = script.run("acquire", id, "1", "wait").get();
        assertThat(again.get(0)).isEqualTo(1L);
        assertThat(again.get(1)).isNotEqualTo(first.get(1));
        return first.get(1).toString();
    }

    private volatile String holderId;
    private volatile Permit secondHolder;

    /**
     * The commands connection of the holder drops with its acquire(2) in flight: the first run queues it (the other
     * instance holds 2 of 3) and its answer is lost. The grant comes by message (the pub/sub connection is up): the
     * holder holds that grant (token T1) while none of its renewals reaches Redis, so Redis lets it expire and
     * reaps it, and grants its permits to the other instance. Then the connection comes back: Lettuce sends the
     * acquire again (it finds nothing under its id: granted anew, or queued if the other instance still holds the
     * permits), then the renewal that waited meanwhile; returns once that renewal's answer was read.
     *
     * @param secondReleased whether the other instance gave its permits back before the reconnect (else it still
     *                       holds them, as {@code secondHolder})
     */
    private RedisPermitSemaphore holderWhoseGrantWasReapedAndGivenToAnother(boolean secondReleased) throws Exception {
        ScriptLink down = new ScriptLink();
        // renewed every 166 ms; the command timeout is long enough for the answers read after the reconnect
        RedisPermitSemaphore holder = semaphores.open(semaphores.builder().size(3)
                .leaseTime(Duration.ofMillis(500)).commandTimeout(Duration.ofSeconds(10)), down);
        CountDownLatch renewalAnswered = new CountDownLatch(1);
        AtomicReference<List<Object>> resentAnswer = new AtomicReference<>();
        down.watch((argv, answer) -> {
            if (argv[0].equals("acquire")) {
                resentAnswer.set(answer); // the only answer of the acquire the holder reads: its second run's
            } else if (argv[0].equals("heartbeat")) {
                renewalAnswered.countDown();
            }
        });
        Permit first = other.acquirePermit(2);
        down.dropConnectionAfter("acquire");
        CompletableFuture<Void> acquired = CompletableFuture.runAsync(() -> {
            try {
                holder.acquire(2);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().until(() -> other.waiting() == 1); // queued by the first run
        holderId = redis().zrange(key("queue"), 0, 0).get(0);
        first.close(); // grants the holder's request; the holder hears it on its grant channel
        acquired.get(5, TimeUnit.SECONDS);
        long firstToken = Long.parseLong(redis().hget(key("meta"), "l:" + holderId).split(" ")[1]);

        await().until(() -> other.used() == 0); // no renewal reached Redis: the grant expired and was reaped
        secondHolder = other.acquirePermit(2); // the same permits, granted to the other instance
        assertThat(secondHolder.fencingToken()).isGreaterThan(firstToken);
        if (secondReleased) {
            secondHolder.close();
        }
        await().until(() -> down.waitingCalls("heartbeat") >= 1); // a renewal of the holder's grant waits
        assertThat(resentAnswer.get()).as("no answer of the acquire read yet").isNull();

        down.reconnect();
        assertThat(renewalAnswered.await(5, TimeUnit.SECONDS)).isTrue();
        List<Object> resent = resentAnswer.get();
        if (secondReleased) {
            assertThat(resent.get(0)).as("the acquire's second run: granted anew").isEqualTo(1L);
            assertThat(resent.get(1)).as("with a new token").isNotEqualTo(firstToken);
        } else {
            assertThat(resent.get(0)).as("the acquire's second run: queued anew").isEqualTo(2L);
        }
        return holder;
    }
}
