package io.github.poolkit.redis;

import static io.github.poolkit.redis.RedisPermitSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.Permit;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * {@link RedisPermitSemaphore#pause()} and {@link RedisPermitSemaphore#resume()}, as a Spring context's stop and start
 * use them: the waiting requests are withdrawn and the connections closed, held leases are kept and renewed again on
 * resume (or told lost, if the pause outlasts the lease time), and a resume reconnects on the connection factory's new
 * client. Before, a semaphore could only be closed, for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PauseResumeTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @RegisterExtension
    final SemaphoreInstances semaphores = new SemaphoreInstances(redis);

    private RedisPermitSemaphore open(long size, Duration leaseTime) {
        return semaphores.open(size, leaseTime, Duration.ofSeconds(2));
    }

    @Test
    void aPauseWithdrawsTheWaitersAndRefusesCallsUntilTheResume() throws Exception {
        RedisPermitSemaphore paused = open(2, Duration.ofSeconds(30));
        RedisPermitSemaphore other = open(2, Duration.ofSeconds(30));
        Permit held = other.acquirePermit(2);
        CompletableFuture<Permit> waiting = paused.acquireAsync(1);
        await().until(() -> other.waiting() == 1);

        paused.pause();
        assertThat(waiting).failsWithin(Duration.ofSeconds(10)).withThrowableThat()
                .withCauseInstanceOf(SemaphoreUnavailableException.class).withMessageContaining("is paused");
        assertThat(other.waiting()).as("withdrawn from Redis's line at once, not after the lease time").isZero();
        assertThatThrownBy(() -> paused.tryAcquire(1)).isInstanceOf(SemaphoreUnavailableException.class)
                .hasMessageContaining("is paused");
        assertThatThrownBy(paused::stats).isInstanceOf(SemaphoreUnavailableException.class)
                .hasMessageContaining("is paused");
        paused.pause(); // a second pause does nothing
        held.close();

        paused.resume();
        paused.resume(); // and so does a second resume
        assertState(paused, 2, 0, 0);
        try (Permit permit = paused.acquirePermit(2)) {
            assertThat(permit.permits()).isEqualTo(2);
            assertThat(other.used()).isEqualTo(2);
        }
        assertState(other, 2, 0, 0);
    }

    /** A lease held through a pause shorter than the lease time stays its holder's: it is renewed again on resume. */
    @Test
    void aLeaseHeldThroughAShortPauseIsRenewedAfterTheResume() throws Exception {
        RedisPermitSemaphore holder = open(1, Duration.ofSeconds(1));
        RedisPermitSemaphore other = open(1, Duration.ofSeconds(1));
        Permit permit = holder.acquirePermit(1);
        holder.pause();
        holder.resume();
        // three lease times: without renewals the lease would expire and the other instance get its permit
        await().during(Duration.ofMillis(3000)).atMost(Duration.ofSeconds(10))
                .until(() -> permit.isValid() && !other.tryAcquire(1));
        assertThat(permit.lost().toCompletableFuture()).isNotDone();
        permit.close();
        assertThat(other.tryAcquire(1)).isTrue();
        other.release(1);
    }

    /**
     * A pause longer than the lease time loses the leases held (nothing can renew them, and Redis gives their permits
     * to others): their holders are told while the semaphore is still paused, as when Redis is silent, not only once
     * it resumes.
     */
    @Test
    void aLeaseHeldThroughALongPauseIsToldLostWhilePaused() throws Exception {
        RedisPermitSemaphore holder = open(1, Duration.ofMillis(500));
        RedisPermitSemaphore other = open(1, Duration.ofMillis(500));
        Permit permit = holder.acquirePermit(1);
        holder.pause();
        assertThat(permit.lost().toCompletableFuture()).succeedsWithin(Duration.ofSeconds(10));
        assertThat(permit.isValid()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> other.tryAcquire(1)); // Redis gave the permit back

        holder.resume();
        permit.close(); // lost: closes quietly, and gives nothing back twice
        assertThat(holder.tryAcquire(1)).as("the other instance holds it now").isFalse();
        other.release(1);
        assertState(holder, 1, 0, 0);
    }

    /**
     * Spring Data Redis's connection factory shuts its Lettuce client down on {@code stop()} and makes a new one on
     * {@code start()}: a semaphore built on the factory resumes on that new client.
     */
    @Test
    void aResumeReconnectsOnTheNewClientOfAConnectionFactoryStoppedAndStarted() throws Exception {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", redis.port()));
        factory.afterPropertiesSet();
        factory.start();
        RedisPermitSemaphore semaphore = semaphores.open(RedisPermitSemaphore.builder(factory, semaphores.name())
                .size(2));
        try {
            semaphore.pause();
            factory.stop();
            factory.start();
            semaphore.resume();
            assertState(semaphore, 2, 0, 0);
            try (Permit permit = semaphore.acquirePermit(2)) {
                assertThat(permit.permits()).isEqualTo(2);
            }
            assertState(semaphore, 2, 0, 0);
        } finally {
            semaphore.close();
            factory.destroy();
        }
    }

    /** A resume that cannot reach Redis leaves the semaphore paused, and a later one, once Redis is back, works. */
    @Test
    void aResumeThatCannotConnectLeavesItPausedForALaterOne() throws Exception {
        // a client that gives up connecting after half a second (the shared one waits 10 s)
        RedisClient impatient = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(redis.port())
                .withTimeout(Duration.ofMillis(500)).build());
        RedisPermitSemaphore semaphore = semaphores.open(RedisPermitSemaphore.builder(impatient, semaphores.name())
                .size(1));
        try {
            semaphore.pause();
            redis.pause(); // SIGSTOP: connections are accepted but nothing is answered
            try {
                assertThatThrownBy(semaphore::resume).isInstanceOf(SemaphoreUnavailableException.class);
            } finally {
                redis.resume();
            }
            assertThatThrownBy(() -> semaphore.tryAcquire(1)).hasMessageContaining("is paused");
            semaphore.resume();
            assertState(semaphore, 1, 0, 0);
        } finally {
            semaphore.close();
            impatient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    /** A paused semaphore closes for good, and no heartbeat thread of it is left; a resume then does nothing. */
    @Test
    void aPausedSemaphoreClosesForGoodAndAResumeThenDoesNothing() {
        RedisPermitSemaphore semaphore = open(1, Duration.ofSeconds(30));
        semaphore.pause();
        semaphore.resume();
        semaphore.pause();
        // the heartbeats each pause stopped end on their own: one is left
        await().atMost(Duration.ofSeconds(10)).until(() -> heartbeats(semaphore) == 1);
        semaphore.close();
        semaphore.resume();
        assertThatThrownBy(() -> semaphore.tryAcquire(1)).isInstanceOf(SemaphoreUnavailableException.class)
                .hasMessageContaining("was closed");
        await().atMost(Duration.ofSeconds(10)).until(() -> heartbeats(semaphore) == 0);
    }

    /**
     * A waiter's failure handling that asks for a resume while the pause withdraws it (on the pausing thread) does not
     * undo the pause half-way: the semaphore is paused when the pause returns, and a later resume works.
     */
    @Test
    void aResumeAskedForWhileThePauseWithdrawsTheWaitersLeavesItPaused() throws Exception {
        RedisPermitSemaphore other = open(1, Duration.ofSeconds(30));
        RedisPermitSemaphore semaphore = semaphores.open(RedisPermitSemaphore.builder(redis.client(),
                semaphores.name()).size(1).completions(Runnable::run));
        Permit held = other.acquirePermit(1);
        CompletableFuture<Permit> waiting = semaphore.acquireAsync(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> other.waiting() == 1);
        Thread pausing = Thread.currentThread();
        CompletableFuture<Boolean> onThePausingThread = waiting.handle((permit, failure) -> {
            semaphore.resume();
            return Thread.currentThread() == pausing;
        });

        semaphore.pause();
        assertThat(onThePausingThread.get(10, TimeUnit.SECONDS)).as("the stage ran within the pause").isTrue();
        assertThatThrownBy(() -> semaphore.tryAcquire(1)).isInstanceOf(SemaphoreUnavailableException.class)
                .hasMessageContaining("is paused");
        held.close();
        semaphore.resume();
        assertState(semaphore, 1, 0, 0);
        // one heartbeat each (the two instances share the name): the pause's own stopped heartbeat has ended
        await().atMost(Duration.ofSeconds(10)).until(() -> heartbeats(semaphore) == 2);
    }

    /**
     * A close fails the waiters' futures on its own thread, where their stages run; a second close meanwhile, on
     * another thread, returns at once (as before pauses existed) rather than waiting for the first close's stages, so
     * that a stage that waits for that other thread cannot deadlock the two.
     */
    @Test
    void aSecondCloseReturnsAtOnceWhileTheFirstRunsTheWaitersStages() throws Exception {
        RedisPermitSemaphore other = open(1, Duration.ofSeconds(30));
        // built here, not by the extension, whose cleanup would hang on a deadlocked semaphore
        RedisPermitSemaphore semaphore = RedisPermitSemaphore.builder(redis.client(), semaphores.name()).size(1)
                .completions(Runnable::run).build();
        Permit held = other.acquirePermit(1);
        CompletableFuture<Permit> waiting = semaphore.acquireAsync(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> other.waiting() == 1);
        CountDownLatch inStage = new CountDownLatch(1);
        CountDownLatch secondClosed = new CountDownLatch(1);
        waiting.handle((permit, failure) -> {
            inStage.countDown();
            try {
                return secondClosed.await(20, TimeUnit.SECONDS); // waits for the other thread's close to return
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        CompletableFuture<Void> first = CompletableFuture.runAsync(semaphore::close,
                runnable -> Thread.ofPlatform().daemon().name("first-closer").start(runnable));
        assertThat(inStage.await(20, TimeUnit.SECONDS)).as("the waiter's stage runs within the first close").isTrue();
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> {
            semaphore.close();
            secondClosed.countDown();
        }, runnable -> Thread.ofPlatform().daemon().name("second-closer").start(runnable));
        assertThat(second).succeedsWithin(Duration.ofSeconds(10));
        assertThat(first).succeedsWithin(Duration.ofSeconds(20));
        assertThatThrownBy(() -> semaphore.tryAcquire(1)).isInstanceOf(SemaphoreUnavailableException.class)
                .hasMessageContaining("was closed");
        assertThat(other.waiting()).as("withdrawn from Redis's line").isZero();
        held.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> heartbeats(semaphore) == 1); // the other's only
    }

    /** {@return the heartbeat threads of {@code semaphore} alive now} */
    private static long heartbeats(RedisPermitSemaphore semaphore) {
        String name = "poolkit-redis-heartbeat-" + semaphore.name();
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name) && t.isAlive())
                .count();
    }
}
