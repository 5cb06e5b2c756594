package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;
import static org.awaitility.Awaitility.await;

/**
 * The retry of a failed worker start ({@link WorkerLaunch}) when the retry timer's own thread cannot be made either,
 * as when the operating system refuses new threads (the usual reason a worker's start fails): the failure to schedule
 * must not escape into the thread that reported the failed start, and must not stop the pool from retrying at its
 * next failed start. The timer makes its thread at the first retry in the JVM, so the test first lets a thread made
 * by an earlier test end; the rest is the real engine and timer, with thread factories that fail on demand.
 */
@Timeout(60)
class RestartTimerFailureTest {

    @RepeatedTest(10)
    void aRetryThatCannotGetTheTimersThreadNeitherEscapesNorStopsLaterRetries() throws Exception {
        ScheduledThreadPoolExecutor timer = restartTimer();
        withoutThread(timer);
        AtomicBoolean noTimerThread = new AtomicBoolean();
        AtomicBoolean noWorkerThread = new AtomicBoolean();
        ThreadFactory timerThreads = timer.getThreadFactory();
        timer.setThreadFactory(r -> {
            if (noTimerThread.get()) {
                throw new OutOfMemoryError("test: unable to create native thread (timer)");
            }
            return timerThreads.newThread(r);
        });
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        List<Thread> made = new CopyOnWriteArrayList<>();
        ThreadFactory virtual = Thread.ofVirtual().uncaughtExceptionHandler((t, e) -> uncaught.add(e)).factory();
        ThreadFactory workerThreads = r -> {
            if (noWorkerThread.get()) {
                throw new OutOfMemoryError("test: unable to create native thread (worker)");
            }
            Thread t = virtual.newThread(r);
            made.add(t);
            return t;
        };
        PoolOptions options = PoolOptions.builder().name("r").virtualThreads(true).queueCapacity(4)
                .panicHandler(e -> { }).build();
        PoolEngine pool = new PoolEngine(1, options, t -> ((Runnable) t).run(),
                WorkerThreads.unpooled(workerThreads, options.name()));
        CountDownLatch firstMayEnd = new CountDownLatch(1);
        CountDownLatch queuedRan = new CountDownLatch(1);
        try {
            pool.execute((Runnable) () -> awaitQuietly(firstMayEnd));
            pool.execute((Runnable) queuedRan::countDown);
            assertThat(pool.stats().queued()).isEqualTo(1);

            noTimerThread.set(true);
            noWorkerThread.set(true);
            firstMayEnd.countDown(); // the successor cannot start, nor can the timer thread for its retry
            made.get(0).join(); // the first worker has passed its place on, and is gone
            assertThat(pool.running()).isZero();

            noTimerThread.set(false); // the timer can make its thread now; the pool's factory still fails
            pool.release(); // its start for the queued task fails: a retry is due
            noWorkerThread.set(false); // threads can be made again: the retry runs the queued task

            boolean terminated = pool.awaitTermination(10, TimeUnit.SECONDS);
            assertSoftly(soft -> {
                soft.assertThat(uncaught).as("errors escaping the worker that reported the failed start").isEmpty();
                soft.assertThat(queuedRan.getCount()).as("queued task still waiting").isZero();
                soft.assertThat(terminated).as("the closed pool terminated").isTrue();
            });
        } finally {
            timer.setThreadFactory(timerThreads);
            firstMayEnd.countDown();
            pool.shutdownNow();
        }
    }

    /**
     * Lets the timer's thread end, if an earlier test made it, once the retries queued there have run: the timer is
     * then as at the first retry in the JVM, which makes its thread.
     */
    private static void withoutThread(ScheduledThreadPoolExecutor timer) {
        if (timer.getPoolSize() == 0) {
            return;
        }
        timer.allowCoreThreadTimeOut(true);
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> timer.getPoolSize() == 0);
        } finally {
            timer.allowCoreThreadTimeOut(false);
        }
    }

    /** {@return the timer {@link WorkerLaunch} schedules its retries on} */
    private static ScheduledThreadPoolExecutor restartTimer() throws ReflectiveOperationException {
        for (Class<?> c : WorkerLaunch.class.getDeclaredClasses()) {
            if (c.getSimpleName().equals("Timer")) {
                Field f = c.getDeclaredField("INSTANCE");
                f.setAccessible(true);
                return (ScheduledThreadPoolExecutor) f.get(null);
            }
        }
        throw new AssertionError("WorkerLaunch has no Timer");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
