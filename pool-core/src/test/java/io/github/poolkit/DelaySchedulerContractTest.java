package io.github.poolkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The {@code ScheduledExecutorService} contract at its edges: jobs that cancel themselves, cancels that race the
 * firing, jobs caught between the timer and the pool by {@code shutdownNow}, extreme delays, and the invoke methods.
 */
@Timeout(30)
class DelaySchedulerContractTest {

    private final DelaySchedulerFixture fixture = new DelaySchedulerFixture();

    @AfterEach
    void stopSchedulers() throws InterruptedException {
        fixture.close();
    }

    // ------------------------------------------------------------ shutdownNow

    /**
     * The timer takes due jobs from the pending set in a batch and then hands them to the pool one by one. A
     * shutdownNow that comes while a batch is being handed over must still return the jobs of the batch not yet
     * handed over: they never run, so they are "tasks that never commenced execution". The thread factory, which the
     * pool calls on the timer thread when it starts a worker for a due job, holds the timer in the middle of a batch.
     */
    @RepeatedTest(20)
    void shutdownNowReturnsDueJobsTheTimerHadNotYetHandedToThePool() throws Exception {
        TimerHoldingFactory factory = new TimerHoldingFactory(2);
        DelayScheduler s = fixture.create(2, PoolOptions.builder().threadFactory(factory));
        CountDownLatch firstStarted = new CountDownLatch(1);
        AtomicBoolean firstInterrupted = new AtomicBoolean();
        s.schedule(() -> {
            firstStarted.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                firstInterrupted.set(true);
            }
        }, 1, NANOSECONDS);
        factory.awaitHeld(0); // the timer is handing the first job over, making the first worker
        AtomicInteger ran = new AtomicInteger();
        ScheduledFuture<?> a = s.schedule(ran::incrementAndGet, 1, NANOSECONDS);
        ScheduledFuture<?> b = s.schedule(ran::incrementAndGet, 1, NANOSECONDS);
        // both are due now: the timer's next batch is [a, b], and handing a over makes the second worker
        factory.release(0);
        firstStarted.await();
        factory.awaitHeld(1); // the timer holds [a, b] and is handing a over

        List<Runnable> returned = s.shutdownNow();

        factory.release(1);
        assertThat(s.awaitTermination(10, SECONDS)).isTrue();
        assertThat(firstInterrupted).isTrue();
        assertThat(b.isCancelled()).as("b was never handed to the pool").isTrue();
        List<Runnable> neverStarted = new ArrayList<>();
        for (ScheduledFuture<?> f : List.of(a, b)) {
            if (f.isCancelled()) {
                neverStarted.add((Runnable) f);
            }
        }
        assertThat(returned).as("every job cancelled without a run is returned").containsAll(neverStarted);
        assertThat(ran.get() + neverStarted.size()).as("each job ran or was returned, never both").isEqualTo(2);
    }

    // ------------------------------------------------------------ helpers

    /**
     * A thread factory that holds the timer thread inside each of its first {@code holds} calls made on that thread,
     * until the test releases that call.
     */
    private static final class TimerHoldingFactory implements ThreadFactory {
        private final CountDownLatch[] held;
        private final CountDownLatch[] released;
        private final AtomicInteger timerCalls = new AtomicInteger();

        TimerHoldingFactory(int holds) {
            held = new CountDownLatch[holds];
            released = new CountDownLatch[holds];
            for (int i = 0; i < holds; i++) {
                held[i] = new CountDownLatch(1);
                released[i] = new CountDownLatch(1);
            }
        }

        void awaitHeld(int call) throws InterruptedException {
            assertThat(held[call].await(10, SECONDS)).as("the timer thread made call %d", call).isTrue();
        }

        void release(int call) {
            released[call].countDown();
        }

        @Override
        public Thread newThread(Runnable r) {
            if (Thread.currentThread().getName().endsWith("-timer")) {
                int call = timerCalls.getAndIncrement();
                if (call < held.length) {
                    held[call].countDown();
                    awaitQuietly(released[call]);
                }
            }
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
