package io.github.poolkit.redis;

import static io.github.poolkit.redis.RedisPermitSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.Permit;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A holder learns when its lease is lost: Redis frozen ({@code SIGSTOP}) for longer than the lease time makes the
 * holder's permit invalid and completes its {@code lost()} stage, and once Redis runs again the permits are granted
 * to another instance exactly once; a renewal that finds the lease gone, or Redis gone altogether, does the same. (A
 * Sentinel failover slower than the lease: {@link SentinelFailoverTest}.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LostLeaseTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    /** A server of its own for the test that kills it. */
    @RegisterExtension
    static final RedisServer doomed = new RedisServer();

    @RegisterExtension
    final SemaphoreInstances semaphores = new SemaphoreInstances(redis);

    /**
     * Renewals that Redis runs but whose answers come after the command timeout (a slow link, a busy connection) still
     * count: Redis renewed the lease, so the holder keeps it; it is not told it lost it, and the permits stay its own.
     */
    @Test
    void renewalsAnsweredAfterTheCommandTimeoutKeepTheLease() throws Exception {
        ScriptLink slow = new ScriptLink();
        RedisPermitSemaphore holder = semaphores.open(semaphores.builder().size(1).leaseTime(Duration.ofMillis(2000))
                .commandTimeout(Duration.ofMillis(300)), slow);
        RedisPermitSemaphore other = semaphores.open(1, Duration.ofMillis(2000), Duration.ofSeconds(2));
        slow.answerLate("heartbeat", Duration.ofMillis(500));
        try (Permit permit = holder.acquirePermit(1)) {
            // longer than the lease time, in which every renewal answers 200 ms after its call timed out
            await().during(Duration.ofMillis(3500)).atMost(Duration.ofSeconds(10))
                    .until(() -> permit.isValid() && !other.tryAcquire(1));
            assertThat(permit.lost().toCompletableFuture()).isNotDone();
        }
        assertThat(other.tryAcquire(1)).isTrue();
        other.release(1);
    }

    @Test
    void redisFrozenPastTheLeaseTimeTellsTheHolderAndThePermitsAreNeverGrantedTwice() throws Exception {
        Duration lease = Duration.ofMillis(900);
        RedisPermitSemaphore holder = semaphores.open(2, lease, Duration.ofMillis(300));
        RedisPermitSemaphore other = semaphores.open(2, lease, Duration.ofMillis(300));
        long askedAt = System.nanoTime(); // Redis confirmed the lease no earlier than this
        Permit permit = holder.acquirePermit(2);
        CompletableFuture<String> heardOn = permit.lost().thenApply(nothing -> Thread.currentThread().getName())
                .toCompletableFuture();
        assertThat(permit.isValid()).isTrue();

        long pausedAt;
        long lostAfter;
        long lostSinceAsked;
        redis.pause();
        try {
            pausedAt = System.nanoTime();
            String thread = heardOn.get(10, TimeUnit.SECONDS);
            long lostAt = System.nanoTime();
            lostAfter = lostAt - pausedAt;
            lostSinceAsked = lostAt - askedAt;
            assertThat(permit.isValid()).isFalse();
            assertThat(thread).as("dependents run on the completions executor")
                    .doesNotContain("lettuce").doesNotContain("poolkit-redis-heartbeat");
        } finally {
            redis.resume();
        }
        // Redis last confirmed the lease when it granted it, before the pause (a renewal, if one came between, is
        // later still, but never after the pause); the loss is noticed at the first heartbeat tick (every lease / 3)
        // after a lease time of silence: not before a lease time has passed since the acquire was asked for (the
        // earliest the grant can be), and not much after the pause (the slack covers a slow, loaded machine)
        assertThat(Duration.ofNanos(lostSinceAsked)).isGreaterThan(lease);
        assertThat(Duration.ofNanos(lostAfter)).isLessThan(lease.plus(lease.dividedBy(3)).plusMillis(700));

        // Redis's clock ran on while it was frozen: the lease expired there too, and the holder no longer renews it
        Permit granted = other.acquireAsync(2).get(10, TimeUnit.SECONDS);
        assertThat(granted.fencingToken()).isGreaterThan(permit.fencingToken());
        permit.close(); // quiet, and it does not give back the permits now granted to the other instance
        assertThat(permit.isClosed()).isTrue();
        assertState(other, 2, 2, 0);
        assertThat(holder.tryAcquire(1)).isFalse();
        granted.close();
        assertState(other, 2, 0, 0);

        // the holder's instance works on: a new grant is valid and renewed
        try (Permit again = holder.acquirePermit(1)) {
            assertThat(again.isValid()).isTrue();
        }
        assertThat(permit.lost().toCompletableFuture()).isCompleted();
    }

    @Test
    void aRenewalThatFindsTheLeaseGoneTellsTheHolder() throws Exception {
        Duration lease = Duration.ofMillis(600);
        RedisPermitSemaphore holder = semaphores.open(2, lease, Duration.ofSeconds(2));
        RedisPermitSemaphore other = semaphores.open(2, lease, Duration.ofSeconds(2));
        Permit permit = holder.acquirePermit(2);
        CompletableFuture<Void> lost = permit.lost().toCompletableFuture();
        // lose the semaphore's leases in Redis, as a failover that lost the last writes would
        try (var connection = redis.client().connect()) {
            connection.sync().del("poolkit:semaphore:{" + semaphores.name() + "}:meta");
        }
        long deletedAt = System.nanoTime();
        lost.get(10, TimeUnit.SECONDS); // told by the next renewal (every lease / 3), while Redis answers all along
        assertThat(Duration.ofNanos(System.nanoTime() - deletedAt)).isLessThan(lease.dividedBy(3).plusMillis(700));
        assertThat(permit.isValid()).isFalse();

        Permit granted = other.acquirePermit(2);
        permit.close(); // quiet, and it gives back nothing of the other instance's grant
        assertState(other, 2, 2, 0);
        granted.close();
        assertState(other, 2, 0, 0);
    }

    /**
     * The permit turns invalid the moment the semaphore learns of the loss, even while the executor that runs the
     * holders' actions is busy: those run when it gets to them, on its thread; one hung on {@code lost()} afterwards
     * runs at once, on the caller's thread.
     */
    @Test
    void thePermitTurnsInvalidAtOnceWhileTheActionsWaitForTheirExecutor() throws Exception {
        Duration lease = Duration.ofMillis(600);
        ExecutorService completions = Executors.newSingleThreadExecutor(r -> new Thread(r, "lost-actions"));
        try {
            RedisPermitSemaphore holder = semaphores.open(semaphores.builder().size(2).leaseTime(lease)
                    .commandTimeout(Duration.ofSeconds(2)).completions(completions));
            Permit permit = holder.acquirePermit(2);
            CompletableFuture<String> heardOn = permit.lost().thenApply(nothing -> Thread.currentThread().getName())
                    .toCompletableFuture();
            CompletableFuture<String> alsoHeardOn = permit.lost()
                    .thenApply(nothing -> Thread.currentThread().getName()).toCompletableFuture();
            CountDownLatch busy = RedisPermitSemaphoreTest.occupy(completions);
            try (var connection = redis.client().connect()) {
                connection.sync().del("poolkit:semaphore:{" + semaphores.name() + "}:meta");
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> !permit.isValid());
            assertThat(heardOn).isNotDone();
            String late = permit.lost().thenApply(nothing -> Thread.currentThread().getName()).toCompletableFuture()
                    .getNow("not yet");
            assertThat(late).isEqualTo(Thread.currentThread().getName());

            busy.countDown();
            assertThat(heardOn.get(10, TimeUnit.SECONDS)).isEqualTo("lost-actions");
            assertThat(alsoHeardOn.get(10, TimeUnit.SECONDS)).isEqualTo("lost-actions");
            permit.close();
        } finally {
            completions.shutdownNow(); // interrupts the occupying task, if the test failed before letting it go
        }
    }

    /** An executor that throws (not only one that refuses) when the loss is signalled: the actions run anyway. */
    /**
     * An executor for completions that throws (not only one that refuses): a granted {@code acquireAsync} completes
     * anyway, on the thread that learned of the grant, rather than never, with its grant held and renewed by nobody.
     */
    @Test
    void anAsyncGrantCompletesEvenWhenTheExecutorThrows() throws Exception {
        Executor broken = task -> {
            throw new IllegalStateException("executor broken");
        };
        RedisPermitSemaphore holder = semaphores.open(semaphores.builder().size(1)
                .leaseTime(Duration.ofMillis(600)).commandTimeout(Duration.ofSeconds(2)).completions(broken));
        RedisPermitSemaphore other = semaphores.open(1, Duration.ofMillis(600), Duration.ofSeconds(2));
        Permit now = holder.acquireAsync(1).get(5, TimeUnit.SECONDS); // granted by the acquire's own answer
        CompletableFuture<Permit> later = holder.acquireAsync(1); // queued, granted by message once `now` closes
        now.close();
        try (Permit granted = later.get(5, TimeUnit.SECONDS)) {
            assertThat(granted.isValid()).isTrue();
            assertThat(other.used()).isEqualTo(1);
        }
        assertThat(other.used()).isZero();
    }

    /**
     * An executor for completions that takes the task and then throws (as {@code ForkJoinPool} does when its thread
     * factory fails): the grant's completion runs once, so the permit it hands over keeps its lease, renewed.
     */
    @Test
    void anAsyncGrantKeepsItsLeaseWhenTheExecutorTakesTheTaskAndThrows() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Executor takesAndThrows = task -> {
            pool.execute(task);
            throw new IllegalStateException("took the task, then broke");
        };
        try {
            RedisPermitSemaphore holder = semaphores.open(semaphores.builder().size(1).leaseTime(Duration.ofMillis(600))
                    .commandTimeout(Duration.ofSeconds(2)).completions(takesAndThrows));
            RedisPermitSemaphore other = semaphores.open(1, Duration.ofMillis(600), Duration.ofSeconds(2));
            try (Permit permit = holder.acquireAsync(1).get(5, TimeUnit.SECONDS)) {
                // three lease times: the lease expires in Redis unless it is still renewed
                await().during(Duration.ofMillis(1800)).atMost(Duration.ofSeconds(10))
                        .until(() -> permit.isValid() && !other.tryAcquire(1));
            }
            assertThat(other.tryAcquire(1)).isTrue();
            other.release(1);
        } finally {
            pool.shutdownNow();
        }
    }

    /** An {@code Error} in one heartbeat does not end the heartbeat: the renewals go on, and the lease stays held. */
    @Test
    void anErrorInOneHeartbeatDoesNotStopTheRenewals() throws Exception {
        ScriptLink link = new ScriptLink();
        RedisPermitSemaphore holder = semaphores.open(semaphores.builder().size(1).leaseTime(Duration.ofMillis(900))
                .commandTimeout(Duration.ofSeconds(2)), link);
        RedisPermitSemaphore other = semaphores.open(1, Duration.ofMillis(900), Duration.ofSeconds(2));
        try (Permit permit = holder.acquirePermit(1)) {
            link.throwOnceOn("heartbeat");
            // three lease times: the lease expires in Redis unless the renewals go on after the failed one
            await().during(Duration.ofMillis(2700)).atMost(Duration.ofSeconds(10))
                    .until(() -> permit.isValid() && !other.tryAcquire(1));
        }
        assertThat(other.tryAcquire(1)).isTrue();
        other.release(1);
    }

    @Test
    void theActionsRunEvenWhenTheExecutorThrows() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        AtomicBoolean failing = new AtomicBoolean();
        Executor completions = task -> {
            if (failing.get()) {
                throw new IllegalStateException("executor broken");
            }
            pool.execute(task);
        };
        try {
            RedisPermitSemaphore holder = semaphores.open(semaphores.builder().size(1)
                    .leaseTime(Duration.ofMillis(600)).commandTimeout(Duration.ofSeconds(2)).completions(completions));
            Permit permit = holder.acquirePermit(1);
            CompletableFuture<Void> lost = permit.lost().toCompletableFuture();
            failing.set(true);
            try (var connection = redis.client().connect()) {
                connection.sync().del("poolkit:semaphore:{" + semaphores.name() + "}:meta");
            }
            lost.get(10, TimeUnit.SECONDS);
            assertThat(permit.isValid()).isFalse();
            permit.close();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aPermitClosedInTimeIsNeverReportedLost() throws Exception {
        Duration lease = Duration.ofMillis(300);
        RedisPermitSemaphore holder = semaphores.open(1, lease, Duration.ofMillis(300));
        Permit permit = holder.acquirePermit(1);
        CompletableFuture<Void> lost = permit.lost().toCompletableFuture();
        permit.close();
        // its lease is no longer renewed, and no longer watched: it is not lost however long Redis stays silent
        redis.pause();
        try {
            await().during(lease.multipliedBy(3)).atMost(Duration.ofSeconds(10)).until(() -> !lost.isDone());
        } finally {
            redis.resume();
        }
        assertThat(lost).isNotDone();
        assertThat(permit.isValid()).isTrue();
        assertState(holder, 1, 0, 0);
    }

    @Test
    void aGrantToldLateByTheHeartbeatIsLostOnTimeWhenRedisFallsSilent() throws Exception {
        Duration lease = Duration.ofMillis(1500); // renewed every 500 ms
        ScriptLink link = new ScriptLink();
        RedisPermitSemaphore waiter = semaphores.open(semaphores.builder().size(1).leaseTime(lease)
                .commandTimeout(Duration.ofMillis(400)), link);
        RedisPermitSemaphore other = semaphores.open(1, lease, Duration.ofMillis(400));
        Permit first = other.acquirePermit(1);
        CompletableFuture<Permit> waiting = waiter.acquireAsync(1);
        await().until(() -> other.waiting() == 1);
        SemaphoreInstances.unsubscribeGrants(waiter); // its grant message is lost: only a renewal can tell it

        CountDownLatch placeRenewed = new CountDownLatch(1);
        link.watch((argv, answer) -> {
            if (argv[0].equals("heartbeat") && argv.length == 5) { // no lease, one place in line
                placeRenewed.countDown();
            }
        });
        assertThat(placeRenewed.await(5, TimeUnit.SECONDS)).isTrue();
        link.dropHeartbeats(); // the next renewal is lost too, so the grant is told one renewal later still
        long grantedBefore = System.nanoTime();
        first.close(); // Redis grants the waiter now, after the renewal above ran: the lease expires a lease time later
        await().until(() -> link.heartbeatsFailed() >= 1);
        link.passHeartbeats();
        Permit permit = waiting.get(5, TimeUnit.SECONDS); // told by the renewal after the lost one
        link.dropHeartbeats(); // from now on Redis hears nothing from the holder

        permit.lost().toCompletableFuture().get(10, TimeUnit.SECONDS);
        // Redis's lease ends a lease time after the grant, and the renewal that last saw the waiter in line was sent
        // before it: the holder is told within one renewal period of that, however late it heard of the grant
        assertThat(Duration.ofNanos(System.nanoTime() - grantedBefore))
                .isLessThan(lease.plus(lease.dividedBy(3)).plusMillis(300));
        assertThat(permit.isValid()).isFalse();
        permit.close();
    }

    /** Redis gone (its process killed: connections refused, not frozen) past the lease time tells the holder. */
    @Test
    void redisGoneForLongerThanTheLeaseTimeTellsTheHolder() throws Exception {
        Duration lease = Duration.ofMillis(900);
        RedisPermitSemaphore holder = RedisPermitSemaphore.builder(doomed.client(), semaphores.name()).size(2)
                .leaseTime(lease).commandTimeout(Duration.ofMillis(300)).build();
        try {
            Permit permit = holder.acquirePermit(1);
            long killedAt = System.nanoTime();
            doomed.kill();
            permit.lost().toCompletableFuture().get(10, TimeUnit.SECONDS);
            long lostAfter = System.nanoTime() - killedAt;
            assertThat(permit.isValid()).isFalse();
            // Redis last answered at most a renewal period (lease / 3) before the kill; the loss is noticed at the
            // first heartbeat tick after a lease time without an answer
            assertThat(Duration.ofNanos(lostAfter)).isGreaterThan(lease.minus(lease.dividedBy(3)).minusMillis(50))
                    .isLessThan(lease.plus(lease.dividedBy(3)).plusMillis(700));
            permit.close(); // throws nothing: the permit is lost, and Redis does not answer
        } finally {
            holder.close();
        }
    }
}
