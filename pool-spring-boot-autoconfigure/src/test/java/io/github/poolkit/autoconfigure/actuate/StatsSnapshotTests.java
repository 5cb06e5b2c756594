package io.github.poolkit.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The meters of one scrape share one read: also a read that failed (a cluster semaphore whose Redis does not answer
 * waits out its command timeout once per scrape, not once per gauge), and also a read that was slow.
 */
class StatsSnapshotTests {

    @Test
    void aFailedReadIsSharedByTheMetersOfOneScrape() {
        AtomicInteger reads = new AtomicInteger();
        StatsSnapshot<String> snapshot = new StatsSnapshot<>(() -> {
            reads.incrementAndGet();
            throw new IllegalStateException("Redis did not answer within 2000 ms");
        }, Duration.ofHours(1));
        for (int gauge = 0; gauge < 4; gauge++) {
            assertThatThrownBy(snapshot::get).hasMessage("Redis did not answer within 2000 ms");
        }
        assertThat(reads).hasValue(1);
    }

    @Test
    void aSlowReadIsNotOldAsSoonAsItEnds() {
        AtomicInteger reads = new AtomicInteger();
        Duration maxAge = Duration.ofSeconds(1);
        StatsSnapshot<Integer> snapshot = new StatsSnapshot<>(() -> {
            long until = System.nanoTime() + maxAge.toNanos(); // a read as long as the snapshot's age, no sleep
            while (System.nanoTime() - until < 0) {
                Thread.onSpinWait();
            }
            return reads.incrementAndGet();
        }, maxAge);
        assertThat(snapshot.get()).isEqualTo(1);
        assertThat(snapshot.get()).as("the next gauge of that scrape").isEqualTo(1);
        assertThat(reads).hasValue(1);
    }
}
