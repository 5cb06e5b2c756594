package io.github.poolkit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link WeightedSemaphore#adaptive}: each closed permit is a sample, and the size follows the limit. */
@Timeout(20)
class AdaptiveSemaphoreTest {

    @Test
    void theSemaphoreStartsAtTheLimit() {
        WeightedSemaphore s = WeightedSemaphore.adaptive(new SettableLimit(5));
        assertThat(s.size()).isEqualTo(5);
        assertThat(s.available()).isEqualTo(5);
        assertThat(WeightedSemaphore.adaptive(AdaptiveLimit.aimd(16, 64)).size()).isEqualTo(16);
        assertThatThrownBy(() -> WeightedSemaphore.adaptive(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aClosedPermitReportsItsHoldTimeAndThePermitsInUse() throws Exception {
        SettableLimit limit = new SettableLimit(5);
        WeightedSemaphore s = WeightedSemaphore.adaptive(limit);
        Permit one = s.acquirePermit(1);
        Permit two = s.acquirePermit(2);
        limit.set(9);
        two.close();
        assertThat(s.size()).isEqualTo(9); // resized before close returned
        two.close(); // a second close is no sample
        assertThat(limit.samples()).hasSize(1);
        SettableLimit.Sample sample = limit.samples().getFirst();
        assertThat(sample.rttNanos()).isPositive();
        assertThat(sample.inFlight()).isEqualTo(3);
        assertThat(sample.dropped()).isFalse();
        limit.set(4);
        one.close();
        assertThat(s.size()).isEqualTo(4);
        assertThat(limit.samples()).extracting(SettableLimit.Sample::inFlight).containsExactly(3, 1);
    }

    @Test
    void permitsGrantedLaterAndReleasedByHandReportAsTheyShould() throws Exception {
        SettableLimit limit = new SettableLimit(2);
        WeightedSemaphore s = WeightedSemaphore.adaptive(limit);
        s.acquire(2);
        CompletableFuture<Permit> later = s.acquireAsync(2);
        limit.set(3);
        s.release(2); // not through a Permit: no sample, no resize
        assertThat(limit.samples()).isEmpty();
        assertThat(s.size()).isEqualTo(2);
        Permit p = later.get(5, TimeUnit.SECONDS);
        p.close();
        assertThat(limit.samples()).hasSize(1);
        assertThat(s.size()).isEqualTo(3);
    }

    @RepeatedTest(20)
    void concurrentClosesLeaveTheSizeAtTheLatestLimit() throws Exception {
        AdaptiveLimit gradient = AdaptiveLimit.gradient(1, 8);
        WeightedSemaphore s = WeightedSemaphore.adaptive(gradient);
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 200; i++) {
                    try (Permit p = s.acquirePermit(1)) {
                        Thread.onSpinWait();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(s.size()).isEqualTo(gradient.limit()).isBetween(1L, 8L);
        assertThat(s.used()).isZero();
    }
}
