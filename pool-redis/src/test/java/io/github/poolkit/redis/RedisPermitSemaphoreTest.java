package io.github.poolkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import io.lettuce.core.RedisClient;
import java.security.MessageDigest;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * {@link RedisPermitSemaphore} against a real {@code redis-server}: each test uses two or three instances of the
 * same semaphore, each with its own connections, as separate service instances would.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RedisPermitSemaphoreTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @RegisterExtension
    final SemaphoreInstances semaphores = new SemaphoreInstances(redis);

    private RedisPermitSemaphore open(long size) {
        return open(size, Duration.ofSeconds(30));
    }

    private RedisPermitSemaphore open(long size, Duration leaseTime) {
        return semaphores.open(size, leaseTime, Duration.ofSeconds(2));
    }

    /** @return an instance whose link to Redis the test controls (see {@link ScriptLink}) */
    private RedisPermitSemaphore open(long size, Duration leaseTime, ScriptLink link) {
        return semaphores.open(semaphores.builder().size(size).leaseTime(leaseTime), link);
    }

    /** {@return a latch that keeps {@code executor}'s thread busy until it is counted down} */
    static CountDownLatch occupy(Executor executor) {
        CountDownLatch busy = new CountDownLatch(1);
        executor.execute(() -> {
            try {
                busy.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return busy;
    }

    static void assertState(PermitSemaphore semaphore, long size, long used, int waiting) {
        assertThat(semaphore.size()).as("size").isEqualTo(size);
        assertThat(semaphore.used()).as("used").isEqualTo(used);
        assertThat(semaphore.available()).as("available").isEqualTo(size - used);
        assertThat(semaphore.waiting()).as("waiting").isEqualTo(waiting);
    }

    @Test
    void permitsAreSharedByEveryInstance() throws InterruptedException {
        RedisPermitSemaphore a = open(5);
        RedisPermitSemaphore b = open(5);

        a.acquire(3);
        assertState(b, 5, 3, 0);
        assertThat(b.tryAcquire(3)).isFalse();
        assertThat(b.tryAcquire(2)).isTrue();
        assertState(a, 5, 5, 0);

        a.release(3);
        b.release(2);
        assertState(a, 5, 0, 0);
    }

    @Test
    void theFirstInstanceSetsTheSizeAndResizeChangesItForAll() {
        RedisPermitSemaphore first = open(4);
        RedisPermitSemaphore later = open(10);
        assertThat(later.size()).isEqualTo(4);

        later.resize(7);
        assertThat(first.size()).isEqualTo(7);
        assertThatThrownBy(() -> first.resize(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A shrink fails every waiting request larger than the new size at once, wherever it stands in line, as the local
     * semaphore does: not only the head of the line when its turn comes.
     */
    @Test
    void aShrinkFailsEveryWaiterLargerThanTheNewSizeAtOnce() throws Exception {
        RedisPermitSemaphore a = open(10);
        RedisPermitSemaphore b = open(10);
        Permit held = a.acquirePermit(9);
        CompletableFuture<Permit> small = b.acquireAsync(3); // heads the line
        CompletableFuture<Permit> large = b.acquireAsync(8);
        await().until(() -> a.waiting() == 2);

        a.resize(5);

        assertThatThrownBy(() -> large.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalArgumentException.class);
        assertThat(small).isNotDone();
        assertState(a, 5, 9, 1);
        held.close();
        try (Permit granted = small.get(5, TimeUnit.SECONDS)) {
            assertState(a, 5, 3, 0);
        }
    }

    @Test
    void impossibleRequestsFailFast() throws InterruptedException {
        RedisPermitSemaphore semaphore = open(3);
        assertThatThrownBy(() -> semaphore.acquire(4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot acquire 4 permits, more than its size");
        assertThatThrownBy(() -> semaphore.acquireAsync(4).join()).hasCauseInstanceOf(IllegalArgumentException.class);
        assertThat(semaphore.tryAcquire(4)).isFalse();
        assertThat(semaphore.tryAcquire(4, Duration.ofSeconds(10))).isFalse();
        assertThatThrownBy(() -> semaphore.acquire(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> semaphore.release(-1)).isInstanceOf(IllegalArgumentException.class);
        assertState(semaphore, 3, 0, 0);
    }

    @Test
    void grantsAreFifoAcrossInstancesSoALargeRequestIsNotStarved() throws Exception {
        RedisPermitSemaphore a = open(4);
        RedisPermitSemaphore b = open(4);
        RedisPermitSemaphore c = open(4);
        Permit all = a.acquirePermit(4);

        CompletableFuture<Permit> large = b.acquireAsync(3);
        await().until(() -> a.waiting() == 1);
        CompletableFuture<Permit> small = c.acquireAsync(1);
        await().until(() -> a.waiting() == 2);

        all.close(); // 4 free: the large head fits, then the small one
        Permit l = large.get(10, TimeUnit.SECONDS);
        Permit s = small.get(10, TimeUnit.SECONDS);
        assertThat(s.fencingToken()).isGreaterThan(l.fencingToken());
        assertState(a, 4, 4, 0);
        l.close();
        s.close();
    }

    @Test
    void aSmallRequestWaitsBehindALargeOneEvenWhenItWouldFit() throws Exception {
        RedisPermitSemaphore a = open(4);
        RedisPermitSemaphore b = open(4);
        a.acquire(2);
        CompletableFuture<Permit> large = b.acquireAsync(4);
        await().until(() -> a.waiting() == 1);

        assertThat(a.tryAcquire(1)).as("no barging past a waiter").isFalse();
        CompletableFuture<Permit> small = a.acquireAsync(1);
        await().until(() -> a.waiting() == 2);
        assertThat(small).isNotDone();

        a.release(2);
        large.get(10, TimeUnit.SECONDS).close();
        small.get(10, TimeUnit.SECONDS).close();
        assertState(a, 4, 0, 0);
    }

    @Test
    void aTimeoutLeavesTheStateUnchangedAndGrantsThoseBehind() throws Exception {
        RedisPermitSemaphore a = open(4);
        RedisPermitSemaphore b = open(4);
        RedisPermitSemaphore c = open(4);
        a.acquire(3);
        CountDownLatch bWaits = new CountDownLatch(1);
        CompletableFuture<Boolean> timed = CompletableFuture.supplyAsync(() -> {
            try {
                bWaits.countDown();
                return b.tryAcquire(2, Duration.ofSeconds(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        bWaits.await();
        await().until(() -> a.waiting() == 1);
        CompletableFuture<Permit> behind = c.acquireAsync(1);

        assertThat(timed.get(10, TimeUnit.SECONDS)).isFalse();
        Permit p = behind.get(10, TimeUnit.SECONDS); // fits once the head left
        assertState(a, 4, 4, 0);
        p.close();
        a.release(3);
        assertState(a, 4, 0, 0);
    }

    /** A timeout too long for a long of nanoseconds (Duration.ofSeconds(Long.MAX_VALUE)) waits; it does not crash. */
    @Test
    void aTimeoutTooLongForNanosecondsMeansWaitAsLongAsItTakes() throws Exception {
        RedisPermitSemaphore a = open(2);
        assertThat(a.tryAcquire(1, Duration.ofDays(200_000))).isTrue();
        Permit held = a.tryAcquirePermit(1, Duration.ofSeconds(Long.MAX_VALUE));
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return a.tryAcquire(1, Duration.ofSeconds(Long.MAX_VALUE));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().until(() -> a.waiting() == 1);
        held.close();
        assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
        assertState(a, 2, 2, 0);
        assertThatThrownBy(() -> a.tryAcquire(1, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("use Duration.ZERO not to wait");
        a.release(2);
    }

    @Test
    void anInterruptedWaiterLeavesTheLine() throws Exception {
        RedisPermitSemaphore a = open(1);
        RedisPermitSemaphore b = open(1);
        a.acquire(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                b.acquire(1);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        waiter.start();
        await().until(() -> a.waiting() == 1);
        waiter.interrupt();
        waiter.join(10_000);

        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertState(a, 1, 1, 0);
        a.release(1);
        assertState(a, 1, 0, 0);
    }

    @Test
    void anInterruptOnEntryThrowsAndTakesNothing() {
        RedisPermitSemaphore a = open(1);
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> a.acquire(1)).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).isFalse();
        assertState(a, 1, 0, 0);
    }

    @Test
    void aCancelledFutureLeavesTheLineAndTheNextFittingRequestIsGranted() throws Exception {
        RedisPermitSemaphore a = open(3);
        RedisPermitSemaphore b = open(3);
        a.acquire(2);
        CompletableFuture<Permit> head = b.acquireAsync(3);
        await().until(() -> a.waiting() == 1);
        CompletableFuture<Permit> next = a.acquireAsync(1);
        await().until(() -> a.waiting() == 2);

        head.cancel(false);
        next.get(10, TimeUnit.SECONDS).close();
        await().until(() -> a.waiting() == 0);
        assertState(a, 3, 2, 0);
    }

    /** A future completed by its caller (not only cancelled) while its request waits withdraws the request too. */
    @Test
    void aFutureCompletedByItsCallerLeavesTheLine() throws Exception {
        RedisPermitSemaphore a = open(4);
        RedisPermitSemaphore b = open(4);
        a.acquire(4);
        CompletableFuture<Permit> completed = b.acquireAsync(2);
        CompletableFuture<Permit> failed = b.acquireAsync(2);
        await().until(() -> a.waiting() == 2);

        completed.complete(null);
        failed.completeExceptionally(new IllegalStateException("the caller gave up"));
        await().until(() -> a.waiting() == 0);
        a.release(4);
        assertState(a, 4, 0, 0); // neither was granted behind the caller's back
    }

    @Test
    void overReleaseIsDetectedAndChangesNothing() throws Exception {
        RedisPermitSemaphore a = open(5);
        RedisPermitSemaphore b = open(5);
        a.acquire(2);
        Permit permit = a.acquirePermit(1);
        b.acquire(1);

        assertThatThrownBy(() -> a.release(3)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("released more than held");
        assertState(a, 5, 4, 0);
        a.release(1);
        a.release(1); // split then emptied
        assertThatThrownBy(() -> a.release(1)).isInstanceOf(IllegalStateException.class);
        permit.close();
        permit.close(); // a second close is a no-op
        assertState(a, 5, 1, 0);
    }

    @Test
    void releaseOfManyTakesTheOldestGrantsFirstAllOrNothing() throws Exception {
        RedisPermitSemaphore a = open(10);
        a.acquire(3);
        a.acquire(4);
        a.release(5); // 3 from the first, 2 from the second
        assertState(a, 10, 2, 0);
        a.release(2);
        assertState(a, 10, 0, 0);
    }

    @Test
    void theScriptAppliesAPartialReleaseAllOrNothingAndNeverTwice() throws Exception {
        open(10); // stores the size
        try (var connection = redis.client().connect()) {
            SemaphoreScript script = new SemaphoreScript(ScriptCalls.of(connection.async()),
                    new SemaphoreKeys(semaphores.name()), 10, Duration.ofSeconds(30), Duration.ofSeconds(2),
                    redis.client().getResources().timer());
            List<Object> first = script.run("acquire", "o:1", "4", "wait").get();
            assertThat(first.get(0)).isEqualTo(1L);
            String t1 = first.get(1).toString();
            // (id, weight known, token known, amount): 3 + 3 of a lease of 4: all or nothing, so nothing
            assertThat(script.runOperation("releaseFrom", "o:11", "o:1", "4", t1, "3", "o:1", "4", t1, "3").get())
                    .containsExactly(0L, "o:1");
            assertThat(script.run("state").get()).containsExactly(10L, 4L, 0L);
            assertThat(script.runOperation("releaseFrom", "o:12", "o:1", "4", t1, "2", "o:1", "4", t1, "2").get())
                    .containsExactly(1L);
            assertThat(script.run("state").get()).containsExactly(10L, 0L, 0L);

            List<Object> second = script.run("acquire", "o:2", "4", "wait").get();
            assertThat(second.get(0)).isEqualTo(1L);
            String t2 = second.get(1).toString();
            assertThat(script.runOperation("releaseFrom", "o:13", "o:2", "4", t2, "1").get()).containsExactly(1L);
            // the same operation again (Lettuce re-sending it after a reconnect): it answers as its first run did
            // and changes nothing
            assertThat(script.runOperation("releaseFrom", "o:13", "o:2", "4", t2, "1").get()).containsExactly(1L);
            assertThat(script.run("state").get()).containsExactly(10L, 3L, 0L);
            // a new operation with the same arguments (the caller retrying after a timeout): the lease holds 3 now,
            // not the 4 its owner knew of, so nothing changes
            assertThat(script.runOperation("releaseFrom", "o:14", "o:2", "4", t2, "1").get())
                    .containsExactly(0L, "o:2");
            // a token that is not the lease's: the lease under the id is not the holder's (a stranger, granted anew
            // by an acquire sent again after the holder's expired; see semaphore.lua), so it is given back
            assertThat(script.runOperation("releaseFrom", "o:15", "o:2", "3", t1, "1").get())
                    .containsExactly(0L, "o:2");
            assertThat(script.run("state").get()).containsExactly(10L, 0L, 0L);
        }
    }

    @Test
    void aPartialReleaseThatGotNoAnswerIsNeverAppliedTwice() throws Exception {
        RedisPermitSemaphore a = semaphores.open(4, Duration.ofSeconds(30), Duration.ofMillis(300));
        a.acquire(4);
        redis.pause();
        try {
            assertThatThrownBy(() -> a.release(1)).isInstanceOf(SemaphoreUnavailableException.class)
                    .hasMessageContaining("may or may not have been applied")
                    .hasMessageContaining("never applied twice");
        } finally {
            redis.resume(); // Redis now runs the late release: 3 held
        }
        // the caller retries, as the message allows: the grant no longer holds what this instance knew of it
        assertThatThrownBy(() -> a.release(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("changed it already");
        assertThat(a.used()).as("released once, not twice").isEqualTo(3);
    }

    @Test
    void readingTheStateWritesNothing() throws Exception {
        RedisPermitSemaphore a = open(4);
        a.acquire(1);
        try (var connection = redis.client().connect()) {
            connection.sync().configResetstat();
            assertState(a, 4, 1, 0);
            assertThat(a.available()).isEqualTo(3);
            assertThat(connection.sync().info("commandstats")).as("reads make no write calls")
                    .contains("cmdstat_evalsha").doesNotContain("cmdstat_hset").doesNotContain("cmdstat_hdel");
        }
    }

    @Test
    void growingGrantsWaitersThatNowFitAndShrinkingMakesNewGrantsWait() throws Exception {
        RedisPermitSemaphore a = open(2);
        RedisPermitSemaphore b = open(2);
        a.acquire(2);
        CompletableFuture<Permit> waiter = b.acquireAsync(2);
        await().until(() -> a.waiting() == 1);

        a.resize(4);
        Permit granted = waiter.get(10, TimeUnit.SECONDS);
        assertState(a, 4, 4, 0);

        a.resize(1);
        assertThat(a.available()).isEqualTo(-3);
        granted.close();
        a.release(2);
        assertThat(b.tryAcquire(1)).isTrue();
        assertState(a, 1, 1, 0);
    }

    @Test
    void aWaiterLargerThanANewSizeFails() throws Exception {
        RedisPermitSemaphore a = open(4);
        RedisPermitSemaphore b = open(4);
        a.acquire(1);
        CompletableFuture<Permit> large = b.acquireAsync(4);
        await().until(() -> a.waiting() == 1);

        a.resize(2);
        assertThatThrownBy(() -> large.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalArgumentException.class);
        assertState(a, 2, 1, 0);
    }

    @Test
    void aWaiterLargerThanANewSizeFailsAsTooLargeWhenOnlyItsRenewalTellsIt() throws Exception {
        RedisPermitSemaphore a = open(4);
        RedisPermitSemaphore b = open(4, Duration.ofMillis(600)); // renewed every 200 ms
        a.acquire(1);
        CompletableFuture<Permit> large = b.acquireAsync(4);
        await().until(() -> a.waiting() == 1);
        SemaphoreInstances.unsubscribeGrants(b); // Redis's message that it can never fit is lost

        a.resize(2);
        assertThatThrownBy(() -> large.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalArgumentException.class);
        assertState(a, 2, 1, 0);
    }

    @Test
    void anExecutorThatRefusesACompletionLeavesNoFutureHangingNorPermitHeldByNobody() throws Exception {
        ExecutorService stopped = Executors.newSingleThreadExecutor();
        stopped.shutdown(); // as an application's executor stopped before the semaphore
        RedisPermitSemaphore a = semaphores.open(semaphores.builder().size(2).completions(stopped));
        RedisPermitSemaphore b = open(2);
        Permit granted = a.acquireAsync(2).get(5, TimeUnit.SECONDS); // completed on the calling thread instead
        assertState(b, 2, 2, 0);
        CompletableFuture<Permit> waiting = a.acquireAsync(1);
        await().until(() -> b.waiting() == 1);
        granted.close();
        waiting.get(5, TimeUnit.SECONDS).close(); // granted in line, told by message
        assertState(b, 2, 0, 0);
    }

    @Test
    void theTryFormsThatReturnAPermitHoldALeaseOfTheirOwnReleasedOnce() throws Exception {
        RedisPermitSemaphore a = open(4);
        RedisPermitSemaphore b = open(4);
        Permit now = a.tryAcquirePermit(2);
        Permit waited = a.tryAcquirePermit(1, Duration.ofSeconds(5));
        assertThat(now).isNotNull();
        assertThat(waited).isNotNull();
        assertThat(now.fencingToken()).isNotEqualTo(Permit.NO_FENCING_TOKEN);
        assertThat(waited.fencingToken()).isGreaterThan(now.fencingToken());
        assertState(b, 4, 3, 0);
        assertThat(b.tryAcquirePermit(2)).isNull(); // only 1 free: nothing taken
        assertThat(b.tryAcquirePermit(2, Duration.ofMillis(100))).isNull(); // timed out: withdrawn, nothing taken
        assertThat(b.tryAcquirePermit(5)).isNull(); // more than the size
        assertState(b, 4, 3, 0);
        // held by their Permits, not by the instance: release(n) finds nothing of theirs to give back
        assertThatThrownBy(() -> a.release(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("released more than held");
        now.close();
        now.close(); // once
        assertState(b, 4, 1, 0);
        waited.close();
        waited.close();
        assertState(b, 4, 0, 0);
    }

    /**
     * {@code tryAcquireAsync} answers as {@code tryAcquirePermit} does, a lease of its own or null (also for more than
     * the size), through a future completed on the completions executor, never on the caller's thread.
     */
    @Test
    void theAsyncTryAnswersThroughItsFutureOnTheCompletionsExecutor() throws Exception {
        ExecutorService completions = Executors.newSingleThreadExecutor(r -> new Thread(r, "completions"));
        try {
            RedisPermitSemaphore a = semaphores.open(semaphores.builder().size(4).completions(completions));
            CountDownLatch busy = occupy(completions);
            CompletableFuture<Permit> granted = a.tryAcquireAsync(3);
            CompletableFuture<String> grantedOn = granted.thenApply(permit -> Thread.currentThread().getName());
            assertThat(granted).isNotDone(); // only the completions executor completes it, and it is busy
            busy.countDown();
            assertThat(grantedOn.get(10, TimeUnit.SECONDS)).isEqualTo("completions");
            Permit held = granted.get();
            assertThat(held.fencingToken()).isNotEqualTo(Permit.NO_FENCING_TOKEN);
            assertState(a, 4, 3, 0);
            assertThat(a.tryAcquireAsync(2).get(10, TimeUnit.SECONDS)).isNull(); // only 1 free: nothing taken
            assertThat(a.tryAcquireAsync(5).get(10, TimeUnit.SECONDS)).isNull(); // more than the size
            assertThatThrownBy(() -> a.tryAcquireAsync(-1)).isInstanceOf(IllegalArgumentException.class);
            assertState(a, 4, 3, 0);
            CompletableFuture<Permit> waiting = a.acquireAsync(2);
            await().until(() -> a.waiting() == 1);
            assertThat(a.tryAcquireAsync(1).get(10, TimeUnit.SECONDS)).as("no barging").isNull();
            waiting.cancel(false);
            held.close();
        } finally {
            completions.shutdownNow();
        }
    }

    /**
     * An asynchronous request that fails because Redis does not answer completes on the completions executor, as a
     * grant does, never on Lettuce's timer or I/O thread.
     */
    @Test
    void anAsyncRequestRedisDoesNotAnswerFailsOnTheCompletionsExecutor() throws Exception {
        ExecutorService completions = Executors.newSingleThreadExecutor(r -> new Thread(r, "completions"));
        try {
            RedisPermitSemaphore a = semaphores.open(semaphores.builder().size(1)
                    .commandTimeout(Duration.ofMillis(300)).completions(completions));
            assertThat(a.size()).isEqualTo(1); // connected
            CountDownLatch busy = occupy(completions);
            CompletableFuture<String> failedOn;
            CompletableFuture<String> triedOn;
            redis.pause();
            try {
                failedOn = a.acquireAsync(1).handle((permit, failure) -> Thread.currentThread().getName());
                triedOn = a.tryAcquireAsync(1).handle((permit, failure) -> Thread.currentThread().getName());
                busy.countDown(); // the command timeout passes while Redis is frozen
                assertThat(failedOn.get(10, TimeUnit.SECONDS)).isEqualTo("completions");
                assertThat(triedOn.get(10, TimeUnit.SECONDS)).isEqualTo("completions");
            } finally {
                redis.resume();
            }
            // Redis runs the acquire and the try once it wakes; their withdrawals follow them
            await().untilAsserted(() -> assertState(a, 1, 0, 0));
        } finally {
            completions.shutdownNow();
        }
    }

    /**
     * A request made while the semaphore closes (here while {@code close()} waits for a withdrawal's answer) fails at
     * once, unsent; it used to be sent and queued, then left waiting for good for a grant that the closed connections
     * and the stopped heartbeat could no longer tell (and Redis then granted it to nobody).
     */
    @Test
    void aRequestMadeWhileTheSemaphoreClosesFailsInsteadOfWaitingForever() throws Exception {
        ScriptLink link = new ScriptLink();
        RedisPermitSemaphore closing = semaphores.open(semaphores.builder().size(1)
                .commandTimeout(Duration.ofSeconds(5)), link);
        RedisPermitSemaphore other = open(1);
        Permit held = other.acquirePermit(1);
        CompletableFuture<Permit> waiting = closing.acquireAsync(1);
        await().until(() -> other.waiting() == 1);
        link.sendTwice(Duration.ofSeconds(1), "cancel"); // the withdrawal's answer comes a second after it ran
        Thread closer = Thread.ofPlatform().start(closing::close);
        await().until(() -> other.waiting() == 0); // withdrawn in Redis: close() now waits for the answer
        CompletableFuture<Permit> late = closing.acquireAsync(1);
        assertThat(late).failsWithin(Duration.ofSeconds(10)).withThrowableThat()
                .withCauseInstanceOf(SemaphoreUnavailableException.class).withMessageContaining("was closed");
        closer.join();
        assertThat(waiting).isCompletedExceptionally();
        held.close();
        assertState(other, 1, 0, 0);
    }

    /**
     * After close() every call fails at once saying so, without a round trip to a connection that is gone (whose
     * failure read as Redis being down, and, for release(n), as a release that may have been applied).
     */
    @Test
    void everyCallAfterCloseFailsSayingTheSemaphoreWasClosed() throws Exception {
        RedisPermitSemaphore closed = open(3);
        closed.acquire(1);
        closed.close();
        for (ThrowingCallable call : List.<ThrowingCallable>of(closed::stats, () -> closed.resize(5),
                () -> closed.release(1), () -> closed.acquire(1), () -> closed.tryAcquire(1))) {
            assertThatThrownBy(call).isInstanceOf(SemaphoreUnavailableException.class)
                    .hasMessageContaining("was closed").hasMessageNotContaining("Check that Redis is up")
                    .hasMessageNotContaining("may or may not");
        }
        assertState(open(3), 3, 1, 0); // the lease is left to expire, as the javadoc says
    }

    /** Closing one permit from many threads at once gives its permits back once, never more. */
    @Test
    void aPermitClosedByManyThreadsAtOnceIsReleasedOnce() throws Exception {
        RedisPermitSemaphore a = open(10);
        a.acquire(3); // held apart: an over-release would take from these
        Permit permit = a.acquirePermit(4);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService closers = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> closed = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                closed.add(closers.submit(() -> {
                    start.await();
                    permit.close();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> close : closed) {
                close.get(10, TimeUnit.SECONDS); // none throws
            }
        } finally {
            closers.shutdownNow();
        }
        assertState(a, 10, 3, 0);
        a.release(3);
        assertState(a, 10, 0, 0);
    }

    @Test
    void fencingTokensGrowWithEveryGrant() throws Exception {
        RedisPermitSemaphore a = open(2);
        RedisPermitSemaphore b = open(2);
        long last = 0;
        for (int i = 0; i < 5; i++) {
            try (Permit p = (i % 2 == 0 ? a : b).acquirePermit(1)) {
                assertThat(p.fencingToken()).isGreaterThan(last);
                last = p.fencingToken();
            }
        }
    }

    @Test
    void zeroPermitsFollowTheLineLikeAnyRequest() throws Exception {
        RedisPermitSemaphore a = open(1);
        a.acquire(0);
        assertThat(a.tryAcquire(0)).isTrue();
        a.acquire(1);
        CompletableFuture<Permit> one = a.acquireAsync(1);
        await().until(() -> a.waiting() == 1);
        assertThat(a.tryAcquire(0)).isFalse();
        CompletableFuture<Permit> zero = a.acquireAsync(0);
        a.release(1);
        one.get(10, TimeUnit.SECONDS).close();
        assertThat(zero.get(10, TimeUnit.SECONDS).permits()).isZero();
    }

    @Test
    void aLiveHolderKeepsItsLeaseByRenewingIt() throws Exception {
        RedisPermitSemaphore holder = open(1, Duration.ofMillis(600));
        RedisPermitSemaphore other = open(1, Duration.ofMillis(600));
        Permit permit = holder.acquirePermit(1);
        // three lease times: still held because the heartbeat renews it
        await().during(Duration.ofMillis(1800)).atMost(Duration.ofSeconds(5)).until(() -> !other.tryAcquire(1));
        permit.close();
        assertThat(other.tryAcquire(1)).isTrue();
    }

    @Test
    void aDeadHoldersPermitsComeBackAfterTheLeaseTimeAndItsLateReleaseIsReported() throws Exception {
        ScriptLink holderLink = new ScriptLink();
        RedisPermitSemaphore holder = open(3, Duration.ofMillis(500), holderLink);
        RedisPermitSemaphore other = open(3, Duration.ofMillis(500));
        Permit permit = holder.acquirePermit(2);
        CompletableFuture<Permit> waiter = other.acquireAsync(3);
        holderLink.dropHeartbeats(); // stalled: renews nothing, while its other calls still go through

        Permit granted = waiter.get(10, TimeUnit.SECONDS); // the next script run after expiry reaps and grants
        assertThat(granted.fencingToken()).isGreaterThan(permit.fencingToken());
        permit.close(); // the late release: it finds the lease gone, takes nothing from the new holder, and says so
        assertThat(permit.lost()).succeedsWithin(Duration.ofSeconds(5));
        assertThat(permit.isValid()).isFalse();
        assertState(other, 3, 3, 0);
        granted.close();
        assertState(other, 3, 0, 0);
    }

    @Test
    void everyLeaseOfADeadHolderComesBackWhateverItsExpiry() throws Exception {
        ScriptLink holderLink = new ScriptLink();
        RedisPermitSemaphore holder = open(4, Duration.ofMillis(500), holderLink);
        RedisPermitSemaphore other = open(4, Duration.ofMillis(500));
        List<Permit> held = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            held.add(holder.acquirePermit(1)); // one lease each, each with its own expiry
        }
        CompletableFuture<Permit> waiter = other.acquireAsync(4);
        holderLink.cut();

        Permit granted = waiter.get(10, TimeUnit.SECONDS);
        assertThat(granted.fencingToken()).isGreaterThan(held.get(3).fencingToken());
        granted.close();
        assertState(other, 4, 0, 0);
    }

    @Test
    void releasingAnExpiredLeaseNeverReleasesTwiceAndAPermitFoundExpiredIsLost() throws Exception {
        ScriptLink stalledLink = new ScriptLink();
        RedisPermitSemaphore stalled = open(3, Duration.ofMillis(300), stalledLink);
        RedisPermitSemaphore other = open(3);
        stalled.acquire(1);
        Permit permit = stalled.acquirePermit(2);
        stalledLink.dropHeartbeats(); // a holder whose renewals stop reaching Redis for longer than its lease time

        await().atMost(Duration.ofSeconds(5)).until(() -> other.used() == 0);
        other.acquire(3);
        permit.close(); // quietly: its permits went back already
        assertThat(permit.lost()).as("lost: Redis confirmed no renewal for longer than the lease time")
                .succeedsWithin(Duration.ofSeconds(5));
        assertThat(permit.isValid()).isFalse();
        assertThatThrownBy(() -> stalled.release(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("it expired").hasMessageContaining("Nothing was released");
        assertState(other, 3, 3, 0); // the other holder's permits were not given back in their place
    }

    @Test
    void aDeadWaiterLeavesTheLine() throws Exception {
        ScriptLink dyingLink = new ScriptLink();
        RedisPermitSemaphore a = open(2, Duration.ofMillis(400));
        RedisPermitSemaphore dying = open(2, Duration.ofMillis(400), dyingLink);
        a.acquire(1);
        dying.acquireAsync(2);
        await().until(() -> a.waiting() == 1);
        dyingLink.cut();

        await().atMost(Duration.ofSeconds(5)).until(() -> a.waiting() == 0);
        assertThat(a.tryAcquire(1)).isTrue();
    }

    /**
     * A waiter granted after its owner stopped renewing its place (crashed) holds the permits only until its place
     * would have expired, lease-time after its last renewal, not a full lease-time from the grant: otherwise a waiter
     * that died just before its turn held the semaphore for nearly twice the lease-time.
     */
    @Test
    void aLeaseGrantedToAWaiterRunsOutWhenItsPlaceWould() throws Exception {
        ScriptLink dyingLink = new ScriptLink();
        RedisPermitSemaphore a = open(2, Duration.ofSeconds(20));
        RedisPermitSemaphore dying = open(2, Duration.ofSeconds(20), dyingLink);
        a.acquire(2);
        dying.acquireAsync(2);
        await().until(() -> a.waiting() == 1);
        dyingLink.cut(); // no renewal from here on
        String prefix = "poolkit:semaphore:{" + semaphores.name() + "}:";
        try (var connection = redis.client().connect()) {
            var place = connection.sync().zrangeWithScores(prefix + "waiter-expiry", 0, -1);
            assertThat(place).hasSize(1);
            String id = place.get(0).getValue();
            long placeExpiry = (long) place.get(0).getScore();
            // Redis's clock past the millisecond of the place's last renewal, so a lease from now would run longer
            await().until(() -> redisMillis(connection.sync().time()) > placeExpiry - 20_000);
            a.release(2); // grants the dead waiter
            String lease = await().until(() -> connection.sync().hget(prefix + "meta", "l:" + id),
                    Objects::nonNull);
            assertThat(Long.parseLong(lease.split(" ")[2])).as("the lease's expiry").isEqualTo(placeExpiry);
        }
    }

    private static long redisMillis(List<String> time) {
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    @Test
    void aScriptRedisLostIsSentAgainWhole() throws Exception {
        RedisPermitSemaphore a = open(2);
        Permit held = a.acquirePermit(1);
        try (var connection = redis.client().connect()) {
            connection.sync().scriptFlush(); // as a restart without persistence, or a failover, loses the script cache
            held.close(); // EVALSHA fails with NOSCRIPT; the release is sent again with EVAL, which loads the script
            assertThat(connection.sync().scriptExists(scriptSha())).containsExactly(true);
        }
        assertState(a, 2, 0, 0);
        try (Permit again = a.acquirePermit(2)) {
            assertThat(again.permits()).isEqualTo(2);
        }
    }

    private static String scriptSha() throws Exception {
        try (var in = RedisPermitSemaphore.class.getResourceAsStream("semaphore.lua")) {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(in.readAllBytes()));
        }
    }

    @Test
    void aWrongCountOfTheLineInRedisIsRepairedWithinALeaseTime() throws Exception {
        RedisPermitSemaphore a = open(1, Duration.ofMillis(300));
        RedisPermitSemaphore b = open(1, Duration.ofMillis(300));
        a.acquire(1);
        CompletableFuture<Permit> waiter = b.acquireAsync(1);
        await().until(() -> a.waiting() == 1);
        // the script keeps the line's length in 'meta' to spare a read per run; break it as a partial loss would
        try (var connection = redis.client().connect()) {
            connection.sync().hset("poolkit:semaphore:{" + semaphores.name() + "}:meta", "waiting", "0");
        }
        a.release(1); // believes nobody waits, so grants nobody

        // the next run that reaps (at the latest one lease time on, driven by the waiter's own renewals) recounts
        Permit granted = waiter.get(10, TimeUnit.SECONDS);
        assertThat(granted.permits()).isEqualTo(1);
        granted.close();
        assertState(a, 1, 0, 0);
    }

    @Test
    void aWrongCountOfPermitsInUseInRedisIsRepairedWithinALeaseTime() throws Exception {
        RedisPermitSemaphore a = open(2, Duration.ofMillis(300));
        RedisPermitSemaphore b = open(2, Duration.ofMillis(300));
        a.acquire(1);
        // the script keeps the permits in use in 'meta' to spare summing the leases per run; break it
        try (var connection = redis.client().connect()) {
            connection.sync().hset("poolkit:semaphore:{" + semaphores.name() + "}:meta", "used", "2");
        }
        CompletableFuture<Permit> waiter = b.acquireAsync(1); // believes both permits are taken, so waits

        // the next run that reaps (at the latest one lease time on, driven by the renewals) sums the leases again
        Permit granted = waiter.get(10, TimeUnit.SECONDS);
        assertThat(granted.permits()).isEqualTo(1);
        assertState(a, 2, 2, 0);
        granted.close();
        a.release(1);
        assertState(a, 2, 0, 0);
    }

    @Test
    void theListenerHearsEveryOutcome() throws Exception {
        List<AcquireOutcome> outcomes = new CopyOnWriteArrayList<>();
        RedisPermitSemaphore a = semaphores.open(semaphores.builder().size(1)
                .listener((permits, waited, outcome) -> outcomes.add(outcome)));
        a.acquire(1);
        assertThat(a.tryAcquire(1)).isFalse();
        assertThat(a.tryAcquire(1, Duration.ofMillis(100))).isFalse();
        CompletableFuture<Permit> cancelled = a.acquireAsync(1);
        await().until(() -> a.waiting() == 1);
        cancelled.cancel(false);
        await().until(() -> outcomes.size() == 4);
        CompletableFuture<Permit> timedOut = a.acquireAsync(1);
        await().until(() -> a.waiting() == 1);
        timedOut.orTimeout(1, TimeUnit.MILLISECONDS); // the caller's own time limit, as reactive @Permits sets it
        await().until(() -> outcomes.size() == 5);
        assertThat(outcomes).containsExactly(AcquireOutcome.ACQUIRED, AcquireOutcome.REJECTED,
                AcquireOutcome.TIMEOUT, AcquireOutcome.CANCELLED, AcquireOutcome.TIMEOUT);
    }

    @Test
    void aListenerThatThrowsAnErrorNeitherFailsTheAcquireNorLeaksItsGrant() throws Exception {
        RedisPermitSemaphore a = semaphores.open(semaphores.builder().size(2).listener((permits, waited, outcome) -> {
            throw new AssertionError("a listener's own bug");
        }));
        a.acquire(2); // told on this thread: the listener's Error is logged, not thrown in place of the grant
        assertState(a, 2, 2, 0);
        a.release(2);
        try (Permit permit = a.acquirePermit(1)) {
            assertThat(permit.isValid()).isTrue();
        }
        assertState(a, 2, 0, 0);
    }

    @Test
    void badNamesAndOptionsAreRefusedWithTheFix() {
        assertThatThrownBy(() -> RedisPermitSemaphore.builder(redis.client(), "a{b}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without spaces or braces");
        assertThatThrownBy(() -> RedisPermitSemaphore.builder(redis.client(), "x").leaseTime(Duration.ofMillis(5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 30ms");
        assertThatThrownBy(() -> RedisPermitSemaphore.builder(redis.client(), "x").size(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between 0 and");
        assertThatThrownBy(() -> RedisPermitSemaphore.builder(redis.client(), "x")
                .size(RedisPermitSemaphore.MAX_SIZE + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2^53 - 1");
        // longer than a long of nanoseconds: refused here rather than failing later as if Redis were unreachable
        Duration tooLong = Duration.ofDays(200_000);
        assertThatThrownBy(() -> RedisPermitSemaphore.builder(redis.client(), "x").commandTimeout(tooLong))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("> 0 (and at most PT2562047H");
        assertThatThrownBy(() -> RedisPermitSemaphore.builder(redis.client(), "x").leaseTime(tooLong))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 30ms (and at most");
        // a static master/replica factory has no address of its own: named as what it is, not as Redis unreachable
        RedisStaticMasterReplicaConfiguration masterReplica = new RedisStaticMasterReplicaConfiguration("127.0.0.1",
                redis.port());
        LettuceConnectionFactory factory = new LettuceConnectionFactory(masterReplica);
        factory.afterPropertiesSet();
        factory.start();
        try {
            assertThatThrownBy(() -> RedisPermitSemaphore.builder(factory, "x").build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("static master/replica setup (spring.data.redis.masterreplica.nodes)");
        } finally {
            factory.destroy();
        }
    }

    /** A Redis client already shut down is named as such, not as a static master/replica setup. */
    @Test
    void aClientShutDownIsReportedAsUnavailableNotAsAnUnsupportedSetup() {
        RedisClient shutDown = RedisClient.create("redis://127.0.0.1:" + redis.port());
        shutDown.shutdown();
        assertThatThrownBy(() -> RedisPermitSemaphore.builder(shutDown, "x").build())
                .isInstanceOf(SemaphoreUnavailableException.class).hasMessageContaining("could not connect to Redis: ")
                .hasMessageContaining("its client is open").hasMessageNotContaining("master/replica");
    }

    @Test
    void weightsTooLargeForLuasDefaultNumberFormatAreCountedExactly() throws Exception {
        // Lua writes numbers of 1e14 and more as "1.2e+14" when it joins them into a string; the script must not
        long size = RedisPermitSemaphore.MAX_SIZE;
        RedisPermitSemaphore a = open(size);
        RedisPermitSemaphore b = open(size);
        Permit big = a.acquirePermit(size - 1);
        assertState(a, size, size - 1, 0);
        big.close(); // the short path of a release
        assertState(a, size, 0, 0);

        Permit first = a.acquirePermit(size / 2 + 1);
        CompletableFuture<Permit> second = b.acquireAsync(size / 2 + 1);
        await().until(() -> a.waiting() == 1);
        first.close(); // the general path: somebody waits
        Permit granted = second.get(10, TimeUnit.SECONDS);
        assertThat(granted.permits()).isEqualTo(size / 2 + 1);
        assertState(a, size, size / 2 + 1, 0);
        granted.close();
        assertState(a, size, 0, 0);
    }

    @Test
    void theLossOfTheWaitersDetailsInRedisWedgesNothing() throws Exception {
        RedisPermitSemaphore a = open(1, Duration.ofMillis(600));
        RedisPermitSemaphore b = open(1, Duration.ofMillis(600));
        Permit held = a.acquirePermit(1);
        CompletableFuture<Permit> detailsLost = b.acquireAsync(1);
        await().until(() -> a.waiting() == 1);
        // lose 'waiters' (the weight and owner of each place in line), as an eviction or a deletion by hand would
        loseKey("waiters");
        CompletableFuture<Permit> behind = a.acquireAsync(1);
        await().until(() -> a.waiting() == 2);

        held.close(); // the head of the line has no details: it leaves the line, and the one behind it is granted
        behind.get(10, TimeUnit.SECONDS).close();
        assertThatThrownBy(() -> detailsLost.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(SemaphoreUnavailableException.class); // its renewal finds it gone
        assertState(a, 1, 0, 0);
    }

    @Test
    void theLossOfTheLineInRedisWedgesNothing() throws Exception {
        RedisPermitSemaphore a = open(1, Duration.ofMillis(600));
        RedisPermitSemaphore b = open(1, Duration.ofMillis(600));
        Permit held = a.acquirePermit(1);
        CompletableFuture<Permit> placeLost = b.acquireAsync(1);
        await().until(() -> a.waiting() == 1);
        // lose 'queue' (the order of the line) but not the waiters' details, as an eviction of that key alone would
        loseKey("queue");
        // its renewal finds no place in line: it fails rather than being renewed for ever and never granted
        assertThatThrownBy(() -> placeLost.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(SemaphoreUnavailableException.class);
        held.close();
        // nobody waits any more: a try finds the permit free at once (the count of the lost line, left as it was,
        // turned it down until the next reap)
        Permit free = a.tryAcquirePermit(1);
        assertThat(free).as("free, with nobody in line").isNotNull();
        CompletableFuture<Permit> behind = a.acquireAsync(1);
        free.close();
        behind.get(10, TimeUnit.SECONDS).close();
        assertState(a, 1, 0, 0);
        try (var connection = redis.client().connect()) {
            assertThat(connection.sync().hlen("poolkit:semaphore:{" + semaphores.name() + "}:waiters"))
                    .as("details of a place that is gone").isZero();
        }
    }

    @Test
    void fencingTokensAndTheLineSurviveTheLossOfTheSemaphoresStateInRedis() throws Exception {
        RedisPermitSemaphore a = open(1);
        RedisPermitSemaphore b = open(1);
        Permit held = a.acquirePermit(1);
        CompletableFuture<Permit> second = b.acquireAsync(1);
        await().until(() -> a.waiting() == 1);
        CompletableFuture<Permit> third = a.acquireAsync(1);
        await().until(() -> a.waiting() == 2);
        // lose 'meta' (counters and leases), as a restart without persistence or a failover that lost writes would
        loseKey("meta");
        CompletableFuture<Permit> fourth = b.acquireAsync(1);

        // the lost lease no longer counts: the head of the line is granted
        Permit p2 = second.get(10, TimeUnit.SECONDS);
        assertThat(p2.fencingToken()).isGreaterThan(held.fencingToken()); // not a token given out before
        assertThat(third).isNotDone();
        p2.close();
        Permit p3 = third.get(10, TimeUnit.SECONDS); // the line keeps its order: the newcomer stays behind
        assertThat(fourth).isNotDone();
        p3.close();
        Permit p4 = fourth.get(10, TimeUnit.SECONDS);
        assertThat(p4.fencingToken()).isGreaterThan(p3.fencingToken()).isGreaterThan(p2.fencingToken());
        p4.close();
        held.close(); // quietly: its grant is gone
        assertThat(held.lost()).succeedsWithin(Duration.ofSeconds(5));
        assertThat(held.isValid()).isFalse();
        assertState(b, 1, 0, 0);
    }

    /** Deletes one of the semaphore's keys in Redis, as an eviction or a deletion by hand would. */
    private void loseKey(String suffix) {
        try (var connection = redis.client().connect()) {
            connection.sync().del("poolkit:semaphore:{" + semaphores.name() + "}:" + suffix);
        }
    }
}
