package io.github.poolkit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.github.poolkit.internal.limit.WeightedSamples;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
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

    /**
     * A limit below 1 is not followed, as a pool's capacity does not follow it, and one that starts at 0 gives a size
     * of 1: at size 0 no permit would ever be granted, so none would close to let the limit move the size back up.
     */
    @Test
    void aLimitOfZeroLeavesTheSizeAtOneSoItCanComeBack() throws Exception {
        assertThat(WeightedSemaphore.adaptive(new SettableLimit(0)).size()).isEqualTo(1);
        SettableLimit limit = new SettableLimit(2);
        WeightedSemaphore s = WeightedSemaphore.adaptive(limit);
        Permit held = s.acquirePermit(1);
        limit.set(0);
        held.close();
        assertThat(s.size()).isEqualTo(2); // 0 is not followed
        limit.set(5);
        s.acquirePermit(1).close();
        assertThat(s.size()).isEqualTo(5);
    }

    /** An application's limit that throws an {@code Error} on a sample is logged: the permit still closes quietly. */
    @Test
    void aLimitThatThrowsAnErrorNeverEscapesTheClose() throws Exception {
        WeightedSemaphore s = WeightedSemaphore.adaptive(new BrokenLimit(2));
        Permit permit = s.acquirePermit(2);
        permit.close();
        assertThat(s.available()).isEqualTo(2);
        assertThat(s.tryAcquire(2)).isTrue();
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

    /**
     * A permit of 0 permits used none of the capacity the limit sizes, so its hold time says nothing about it: no
     * sample (a built-in limit would have counted it as a sample of weight 1).
     */
    @Test
    void aClosedPermitOfZeroPermitsIsNoSample() throws Exception {
        SettableLimit limit = new SettableLimit(2);
        WeightedSemaphore s = WeightedSemaphore.adaptive(limit);
        Permit none = s.acquirePermit(0);
        limit.set(3);
        none.close();
        assertThat(limit.samples()).isEmpty();
        assertThat(s.size()).as("not resized: no sample").isEqualTo(2);
        s.acquirePermit(1).close();
        assertThat(limit.samples()).hasSize(1);
        assertThat(s.size()).isEqualTo(3);
    }

    /** poolkit's own limits hear a closed permit's weight; see {@code AdaptiveLimitTest} for what they do with it. */
    @Test
    void aClosedPermitOfNPermitsIsOneSampleOfWeightNForTheBuiltInLimits() throws Exception {
        List<Long> weights = new CopyOnWriteArrayList<>();
        List<Integer> plain = new CopyOnWriteArrayList<>();
        class Weighed implements AdaptiveLimit, WeightedSamples {
            @Override
            public int limit() {
                return 10;
            }

            @Override
            public void onSample(long rttNanos, int inFlight, boolean dropped) {
                plain.add(inFlight);
            }

            @Override
            public void onSample(long rttNanos, long inFlight, boolean dropped, long weight) {
                weights.add(weight);
            }
        }
        WeightedSemaphore s = WeightedSemaphore.adaptive(new Weighed());
        s.acquirePermit(3).close();
        s.acquirePermit(7).close();
        assertThat(weights).containsExactly(3L, 7L);
        assertThat(plain).as("no plain sample besides").isEmpty();
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

    @Test
    void permitsFromBothTryFormsReportWhenClosed() throws Exception {
        SettableLimit limit = new SettableLimit(2);
        WeightedSemaphore s = WeightedSemaphore.adaptive(limit);
        Permit now = s.tryAcquirePermit(1);
        Permit waited = s.tryAcquirePermit(1, java.time.Duration.ofSeconds(5));
        assertThat(now).isNotNull();
        assertThat(waited).isNotNull();
        assertThat(s.tryAcquirePermit(1)).isNull(); // none free: nothing held, nothing reported
        assertThat(s.tryAcquirePermit(1, java.time.Duration.ofMillis(1))).isNull();
        assertThat(s.tryAcquirePermit(3)).isNull(); // more than the size
        assertThat(s.used()).isEqualTo(2);
        limit.set(5);
        now.close();
        now.close(); // once
        assertThat(s.size()).isEqualTo(5);
        assertThat(limit.samples()).hasSize(1);
        waited.close();
        assertThat(limit.samples()).extracting(SettableLimit.Sample::inFlight).containsExactly(2, 1);
        assertThat(s.used()).isZero();
        assertThatThrownBy(() -> s.tryAcquirePermit(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theDefaultTryFormsOfAnotherSemaphoreReleaseOnce() throws Exception {
        WeightedSemaphore inner = new WeightedSemaphore(2);
        PermitSemaphore other = new PermitSemaphore() { // only the defaults under test, the rest delegated
            public void acquire(long n) throws InterruptedException { inner.acquire(n); }
            public Permit acquirePermit(long n) throws InterruptedException { return inner.acquirePermit(n); }
            public CompletableFuture<Permit> acquireAsync(long n) { return inner.acquireAsync(n); }
            public boolean tryAcquire(long n) { return inner.tryAcquire(n); }
            public boolean tryAcquire(long n, java.time.Duration t) throws InterruptedException {
                return inner.tryAcquire(n, t);
            }
            public void release(long n) { inner.release(n); }
            public void resize(long size) { inner.resize(size); }
            public long size() { return inner.size(); }
            public long used() { return inner.used(); }
            public long available() { return inner.available(); }
            public int waiting() { return inner.waiting(); }
        };
        Permit now = other.tryAcquirePermit(1);
        Permit waited = other.tryAcquirePermit(1, java.time.Duration.ofSeconds(5));
        assertThat(other.tryAcquirePermit(1)).isNull();
        assertThat(other.tryAcquirePermit(1, java.time.Duration.ofMillis(1))).isNull();
        assertThat(inner.used()).isEqualTo(2);
        now.close();
        now.close();
        assertThat(inner.used()).isEqualTo(1);
        waited.close();
        assertThat(inner.used()).isZero();
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
