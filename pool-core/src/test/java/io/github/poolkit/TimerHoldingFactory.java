package io.github.poolkit;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thread factory that holds a scheduler's timer thread inside each of its first {@code holds} calls made on that
 * thread, until the test releases that call. The pool calls its factory on the thread that hands it a task when it
 * starts a worker for it, so a held call holds the timer in the middle of handing a due job over. Its threads are
 * daemons.
 */
final class TimerHoldingFactory implements ThreadFactory {
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

    /** Waits until the timer thread is held in call {@code call} (0-based). */
    void awaitHeld(int call) throws InterruptedException {
        assertThat(held[call].await(10, SECONDS)).as("the timer thread made call %d", call).isTrue();
    }

    /** Lets call {@code call} go on. */
    void release(int call) {
        released[call].countDown();
    }

    @Override
    public Thread newThread(Runnable r) {
        if (Thread.currentThread().getName().endsWith("-timer")) {
            int call = timerCalls.getAndIncrement();
            if (call < held.length) {
                held[call].countDown();
                try {
                    released[call].await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        Thread t = new Thread(r);
        t.setDaemon(true);
        return t;
    }
}
