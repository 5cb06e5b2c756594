package io.github.poolkit.internal.pool;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live set of an unpooled pool: a table of slots sized from the capacity, an overflow for the workers that find
 * no free slot, and counts that a worker brings when it leaves. The threads here are the test's own; no pool runs.
 */
@Timeout(20)
class ConcurrentWorkersTest {

    /** A worker with no pool whose one task ended as {@code outcome}. */
    private static Worker ran(Worker.Outcome outcome) {
        Worker w = new Worker(null, null, null);
        w.countStarted();
        w.countFinished(outcome);
        return w;
    }

    private static List<Worker> listed(ConcurrentWorkers set) {
        List<Worker> seen = new ArrayList<>();
        set.forEach(seen::add);
        return seen;
    }

    @Test
    void theTableHasRoomForFourTimesTheCapacityWithinBounds() {
        assertThat(new ConcurrentWorkers(1, () -> 0).slotCount()).isEqualTo(64);
        assertThat(new ConcurrentWorkers(100, () -> 0).slotCount()).isEqualTo(512);
        assertThat(new ConcurrentWorkers(1024, () -> 0).slotCount()).isEqualTo(4096);
        assertThat(new ConcurrentWorkers(50_000, () -> 0).slotCount()).isEqualTo(1 << 17);
        assertThat(new ConcurrentWorkers(Integer.MAX_VALUE, () -> 0).slotCount()).isEqualTo(1 << 17);
        assertThat(new ConcurrentWorkers(-1, () -> 0).slotCount()).isEqualTo(1 << 12);
    }

    @Test
    void workersBeyondTheSlotsNearTheirStartGoToTheOverflowAndAreStillFoundAndCounted() {
        // One thread: every worker starts probing at the same slot, so the 17th finds no free slot near it.
        ConcurrentWorkers set = new ConcurrentWorkers(1, () -> 3);
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < ConcurrentWorkers.PROBES + 4; i++) {
            Worker w = ran(i % 2 == 0 ? Worker.Outcome.COMPLETED : Worker.Outcome.FAILED);
            set.add(w);
            workers.add(w);
        }
        assertThat(workers).filteredOn(w -> w.stripe < 0).hasSize(4);
        assertThat(listed(set)).containsExactlyInAnyOrderElementsOf(workers);
        assertThat(set.tally().completed()).as("the overflow's live workers only").isEqualTo(2);

        workers.forEach(set::remove);
        assertThat(listed(set)).isEmpty();
        WorkerSet.Tally tally = set.tally();
        assertThat(tally.completed()).isEqualTo(10);
        assertThat(tally.failed()).isEqualTo(10);
        assertThat(tally.busy()).as("the pool's reserved places").isEqualTo(3);

        Worker again = ran(Worker.Outcome.COMPLETED);
        set.add(again);
        assertThat(again.stripe).as("a freed slot is taken again").isGreaterThanOrEqualTo(0);
        set.remove(again);
        assertThat(set.tally().completed()).isEqualTo(11);
    }

    @Test
    void removingAWorkerThatWasNeverAddedChangesNothing() {
        ConcurrentWorkers set = new ConcurrentWorkers(4, () -> 0);
        set.remove(ran(Worker.Outcome.COMPLETED));
        assertThat(set.tally().completed()).isZero();
        assertThat(listed(set)).isEmpty();
    }

    @RepeatedTest(20)
    void concurrentAddsAndRemovesCountEveryTaskOnceAndLeaveNothingListed() throws Exception {
        int threads = 8;
        int perThread = 2_000;
        ConcurrentWorkers set = new ConcurrentWorkers(4, () -> 0); // 64 slots: many workers overflow
        CyclicBarrier start = new CyclicBarrier(threads);
        AtomicInteger failures = new AtomicInteger();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            running.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    List<Worker> mine = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        Worker w = ran(i % 4 == 0 ? Worker.Outcome.FAILED : Worker.Outcome.COMPLETED);
                        set.add(w);
                        mine.add(w);
                        if (mine.size() == 8) { // hold a few at once, then let them all go
                            mine.forEach(set::remove);
                            mine.clear();
                        }
                    }
                    mine.forEach(set::remove);
                } catch (Exception e) {
                    failures.incrementAndGet();
                }
            }));
        }
        for (Thread t : running) {
            t.join();
        }
        assertThat(failures).hasValue(0);
        assertThat(listed(set)).isEmpty();
        WorkerSet.Tally tally = set.tally();
        assertThat(tally.completed() + tally.failed()).isEqualTo((long) threads * perThread);
        assertThat(tally.failed()).isEqualTo((long) threads * perThread / 4);
    }
}
