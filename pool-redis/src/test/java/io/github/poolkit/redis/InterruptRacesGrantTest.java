package io.github.poolkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A blocked {@code acquire} interrupted at the moment its permits are granted either returns holding them or throws
 * {@link InterruptedException} holding none (the grant given back); its listener hears the same: {@code ACQUIRED}
 * exactly when the caller got the permits, {@code INTERRUPTED} otherwise. Races the release that grants it against
 * the interrupt, round after round.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterruptRacesGrantTest {

    private static final int ROUNDS = 1000;

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @RegisterExtension
    final SemaphoreInstances semaphores = new SemaphoreInstances(redis);

    @Test
    void theListenerHearsWhatTheCallerGot() throws Exception {
        RedisPermitSemaphore holder = semaphores.open(1, Duration.ofSeconds(30), Duration.ofSeconds(2));
        List<AcquireOutcome> heard = new CopyOnWriteArrayList<>();
        RedisPermitSemaphore waiter = semaphores.open(semaphores.builder().size(1).leaseTime(Duration.ofSeconds(30))
                .listener((permits, waited, outcome) -> heard.add(outcome)));
        int acquired = 0;
        for (int round = 0; round < ROUNDS; round++) {
            holder.acquire(1);
            CyclicBarrier bothReady = new CyclicBarrier(2);
            AtomicBoolean got = new AtomicBoolean();
            Thread caller = new Thread(() -> {
                try {
                    waiter.acquire(1);
                    got.set(true); // given back below, by this test's thread, which no interrupt reaches
                } catch (InterruptedException expected) {
                    // interrupted while waiting: holds nothing
                }
            });
            caller.start();
            await().until(() -> holder.waiting() == 1);
            Thread releaser = new Thread(() -> {
                awaitQuietly(bothReady);
                holder.release(1);
            });
            releaser.start();
            awaitQuietly(bothReady);
            caller.interrupt();
            caller.join(10_000);
            releaser.join(10_000);
            if (got.get()) {
                acquired++;
                waiter.release(1);
            }
            int told = round + 1;
            await().until(() -> heard.size() == told);
            assertThat(heard.get(round)).as("round %d, caller %s", round, got.get() ? "acquired" : "interrupted")
                    .isEqualTo(got.get() ? AcquireOutcome.ACQUIRED : AcquireOutcome.INTERRUPTED);
            await().until(() -> holder.used() == 0);
        }
        assertThat(heard).filteredOn(AcquireOutcome.ACQUIRED::equals).hasSize(acquired);
    }

    private static void awaitQuietly(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
