package io.github.poolkit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.poolkit.Permit;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The calls that do not wait in line ({@code tryAcquire}, {@code tryAcquirePermit}, {@code release}, {@code resize})
 * on a thread whose interrupt status is set: as {@code java.util.concurrent.Semaphore}'s, they are not interruptible.
 * Each waits for Redis's answer (at most the command timeout), returns what Redis did, and keeps the interrupt status:
 * a grant is never left held by nobody, and a release that Redis applied is never reported as not applied.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterruptedCallerTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @RegisterExtension
    final SemaphoreInstances semaphores = new SemaphoreInstances(redis);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void aTryOnAnInterruptedThreadTakesThePermitsItReturnsAndNoneItDoesNot() {
        RedisPermitSemaphore caller = semaphores.open(4, Duration.ofSeconds(60), Duration.ofSeconds(2));
        RedisPermitSemaphore other = semaphores.open(4, Duration.ofSeconds(60), Duration.ofSeconds(2));

        Thread.currentThread().interrupt();
        Permit permit = caller.tryAcquirePermit(1);
        assertThat(Thread.interrupted()).as("interrupt status kept").isTrue();
        assertThat(permit).isNotNull();
        assertThat(other.used()).isEqualTo(1);
        permit.close();
        assertThat(other.used()).as("the permit returned was the one held").isZero();

        Thread.currentThread().interrupt();
        assertThat(caller.tryAcquire(3)).isTrue();
        assertThat(Thread.interrupted()).isTrue();
        assertThat(other.used()).isEqualTo(3);

        Thread.currentThread().interrupt();
        assertThat(caller.tryAcquire(2)).as("does not fit").isFalse();
        assertThat(Thread.interrupted()).isTrue();
        assertThat(other.used()).as("nothing more held").isEqualTo(3);
        caller.release(3);
        assertThat(other.used()).isZero();
    }

    @Test
    void aReleaseOrResizeOnAnInterruptedThreadIsAppliedAndSaysSo() throws InterruptedException {
        RedisPermitSemaphore caller = semaphores.open(4, Duration.ofSeconds(60), Duration.ofSeconds(2));
        RedisPermitSemaphore other = semaphores.open(4, Duration.ofSeconds(60), Duration.ofSeconds(2));
        caller.acquire(2);
        caller.acquire(2);

        Thread.currentThread().interrupt();
        caller.release(2);
        assertThat(Thread.interrupted()).as("interrupt status kept").isTrue();
        assertThat(other.used()).isEqualTo(2);
        caller.release(2); // the instance knows it still holds 2: the first release was applied, once
        assertThat(other.used()).isZero();

        Thread.currentThread().interrupt();
        caller.resize(6);
        assertThat(Thread.interrupted()).isTrue();
        assertThat(other.size()).isEqualTo(6);
    }
}
