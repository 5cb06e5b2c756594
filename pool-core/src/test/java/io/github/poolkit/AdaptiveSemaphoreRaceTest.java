package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * {@link WeightedSemaphore#adaptive}: closes on several threads that race with a change of the limit, each
 * interleaving forced with latches.
 */
@Timeout(30)
class AdaptiveSemaphoreRaceTest {

    /**
     * A limit the test sets; {@link #limit()} pauses once, on the given thread at its given read, after it has read
     * the value it returns (so that the reader then acts on a value the test has changed meanwhile).
     */
    static final class PausingLimit implements AdaptiveLimit {
        private volatile int value;
        private volatile Thread pauseThread;
        private volatile int pauseAtRead;
        private final ThreadLocal<int[]> reads = ThreadLocal.withInitial(() -> new int[1]);
        final CountDownLatch paused = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);

        PausingLimit(int value) {
            this.value = value;
        }

        void set(int v) {
            value = v;
        }

        void pause(Thread thread, int atRead) {
            pauseAtRead = atRead;
            pauseThread = thread;
        }

        @Override
        public int limit() {
            int v = value;
            if (Thread.currentThread() == pauseThread && ++reads.get()[0] == pauseAtRead) {
                paused.countDown();
                Latches.await(resume);
            }
            return v;
        }

        @Override
        public void onSample(long rttNanos, int inFlight, boolean dropped) {
        }
    }

    /**
     * A close whose limit read went stale while it resized must not leave the size there: A reads limit 10 to follow
     * it; meanwhile the limit falls back to 5 and B's close sees size 5 == limit 5 and does nothing; A then resizes to
     * 10. Before the fix the size stayed 10 with the limit at 5 (more admitted than the limit allows) until some later
     * close.
     */
    @RepeatedTest(20)
    void aResizeToAStaleLimitIsCorrectedByTheThreadThatMadeIt() throws Exception {
        PausingLimit limit = new PausingLimit(5);
        WeightedSemaphore s = WeightedSemaphore.adaptive(limit);
        Permit a = s.acquirePermit(1);
        Permit b = s.acquirePermit(1);
        limit.set(10);
        Thread closerA = Thread.ofPlatform().unstarted(a::close);
        limit.pause(closerA, 1); // A's 1st read, in follow(): pauses holding 10, before it resizes
        closerA.start();
        Latches.await(limit.paused);
        limit.set(5); // the limit went back down (as a later sample would have moved it)
        Thread closerB = Thread.ofPlatform().start(b::close);
        closerB.join(TimeUnit.SECONDS.toMillis(Latches.PATIENCE_SECONDS));
        assertThat(closerB.isAlive()).as("B's close returned").isFalse();
        limit.resume.countDown();
        closerA.join(TimeUnit.SECONDS.toMillis(Latches.PATIENCE_SECONDS));
        assertThat(closerA.isAlive()).as("A's close returned").isFalse();
        assertThat(s.size()).as("size after both closes, limit " + limit.limit()).isEqualTo(5);
        assertThat(s.used()).isZero();
    }

    /**
     * A close must not wait for code of another thread: A's close grows the semaphore, which grants an async request
     * whose dependent stage runs in A (as documented) and blocks; B's close, while the limit moves again, must return
     * meanwhile. Before the fix B waited in the adaptive size's monitor, held by A for the whole stage.
     */
    @RepeatedTest(20)
    void aCloseDoesNotWaitForAStageRunByAnotherThreadsResize() throws Exception {
        PausingLimit limit = new PausingLimit(2);
        WeightedSemaphore s = WeightedSemaphore.adaptive(limit);
        Permit a = s.acquirePermit(1);
        Permit b = s.acquirePermit(1);
        CountDownLatch stageRuns = new CountDownLatch(1);
        CountDownLatch stageMayEnd = new CountDownLatch(1);
        CompletableFuture<Permit> later = s.acquireAsync(2); // fits only once the semaphore grows
        CompletableFuture<Void> stage = later.thenAccept(p -> {
            stageRuns.countDown();
            Latches.await(stageMayEnd);
            p.close();
        });
        limit.set(3);
        Thread closerA = Thread.ofPlatform().start(a::close); // grows to 3: grants 'later', runs its stage in A
        Latches.await(stageRuns);
        limit.set(4);
        Thread closerB = Thread.ofPlatform().start(b::close);
        try {
            closerB.join(TimeUnit.SECONDS.toMillis(Latches.PATIENCE_SECONDS));
            assertThat(closerB.isAlive()).as("B's close returned while A's stage runs").isFalse();
            assertThat(s.size()).isEqualTo(4);
        } finally {
            stageMayEnd.countDown();
        }
        stage.get(Latches.PATIENCE_SECONDS, TimeUnit.SECONDS);
        closerA.join(TimeUnit.SECONDS.toMillis(Latches.PATIENCE_SECONDS));
        closerB.join(TimeUnit.SECONDS.toMillis(Latches.PATIENCE_SECONDS));
        assertThat(s.size()).isEqualTo(4);
        assertThat(s.used()).isZero();
    }

    /**
     * When the limit falls below what is in use and below a waiter's weight: the too-large waiter is refused, the
     * smaller one behind it waits until enough permits are closed to fit the smaller size, and no permit is lost.
     */
    @RepeatedTest(20)
    void aFallingLimitRefusesTheWaitersLargerThanItAndHoldsBackTheRest() throws Exception {
        SettableLimit limit = new SettableLimit(4);
        WeightedSemaphore s = WeightedSemaphore.adaptive(limit);
        Permit[] held = new Permit[4];
        for (int i = 0; i < held.length; i++) {
            held[i] = s.acquirePermit(1);
        }
        CompletableFuture<Permit> large = s.acquireAsync(3);
        WeightedSemaphoreCaller small = WeightedSemaphoreCaller.start(() -> {
            s.acquirePermit(1).close();
            return true;
        });
        WeightedSemaphoreCaller.awaitWaiting(s, 2);
        limit.set(2);
        held[0].close(); // used 3, resized to 2: 'large' can never be granted, 'small' does not fit yet
        assertThat(s.size()).isEqualTo(2);
        assertThat(large).isCompletedExceptionally();
        assertThat(s.waiting()).isEqualTo(1);
        assertThat(s.available()).isEqualTo(-1);
        held[1].close(); // used 2: still no room for 'small'
        assertThat(small.isDone()).isFalse();
        assertThat(s.waiting()).isEqualTo(1);
        held[2].close(); // used 1: 'small' fits
        assertThat(small.join()).isTrue();
        held[3].close();
        assertThat(s.used()).isZero();
        assertThat(s.waiting()).isZero();
        assertThat(s.size()).isEqualTo(2);
    }
}
