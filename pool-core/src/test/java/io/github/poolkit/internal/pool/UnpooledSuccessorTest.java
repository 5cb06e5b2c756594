package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolOptions;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An unpooled pool (a fresh virtual thread per task) passing a place on when a task ends with another one queued: the
 * fresh worker fetches the queued task itself, so one whose thread cannot be started loses nothing (the task stays
 * queued and runs once a thread can be started again: at the next execute, or when the pool retries on its own, which
 * also empties a closed pool), and workers ending together start one successor per queued task, not one each. The
 * threads come from a factory that fails on demand and counts; the rest is the real engine.
 */
@Timeout(20)
class UnpooledSuccessorTest {

    /** Virtual threads, counted, except while {@link #failing} is set: then it throws, as a thread start may. */
    private static final class FailingFactory implements ThreadFactory {
        final AtomicBoolean failing = new AtomicBoolean();
        final AtomicInteger made = new AtomicInteger();
        private final ThreadFactory virtual = Thread.ofVirtual().factory();

        @Override
        public Thread newThread(Runnable r) {
            if (failing.get()) {
                throw new OutOfMemoryError("test: no thread now");
            }
            made.incrementAndGet();
            return virtual.newThread(r);
        }
    }

    @RepeatedTest(10)
    void workersEndingTogetherStartOneSuccessorForOneQueuedTask() throws Exception {
        FailingFactory factory = new FailingFactory();
        int capacity = 32;
        PoolOptions options = PoolOptions.builder().name("u").virtualThreads(true).queueCapacity(4).build();
        PoolEngine pool = new PoolEngine(capacity, options, t -> ((Runnable) t).run(),
                WorkerThreads.unpooled(factory, options.name()));
        CountDownLatch gate = new CountDownLatch(1);
        try {
            for (int i = 0; i < capacity; i++) {
                pool.execute((Runnable) () -> awaitQuietly(gate));
            }
            CountDownLatch queuedRan = new CountDownLatch(1);
            pool.execute((Runnable) queuedRan::countDown);
            assertThat(pool.stats().queued()).isEqualTo(1);
            int before = factory.made.get();

            gate.countDown(); // 32 tasks end at once, one task queued
            assertThat(queuedRan.await(10, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 0);
            // one successor, or two when a place frees up just as the first begins to fetch; never one per worker
            assertThat(factory.made.get() - before).isBetween(1, 3);
        } finally {
            gate.countDown();
            pool.shutdownNow();
        }
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @RepeatedTest(10)
    void aQueuedTaskWaitsForTheNextThreadWhenItsSuccessorCannotStart() throws Exception {
        FailingFactory factory = new FailingFactory();
        List<Throwable> panics = new CopyOnWriteArrayList<>();
        CountDownLatch panicked = new CountDownLatch(1);
        PoolOptions options = PoolOptions.builder().name("u").virtualThreads(true).queueCapacity(4)
                .panicHandler(e -> {
                    panics.add(e);
                    panicked.countDown();
                })
                .build();
        PoolEngine pool = new PoolEngine(1, options, t -> ((Runnable) t).run(),
                WorkerThreads.unpooled(factory, options.name()));
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch firstMayEnd = new CountDownLatch(1);
        CountDownLatch allRan = new CountDownLatch(3);
        try {
            pool.execute((Runnable) () -> {
                awaitQuietly(firstMayEnd);
                ran.add("first");
                allRan.countDown();
            });
            pool.execute((Runnable) () -> {
                ran.add("queued");
                allRan.countDown();
            });
            assertThat(pool.stats().queued()).isEqualTo(1);

            factory.failing.set(true);
            firstMayEnd.countDown(); // its worker passes on: the successor's thread cannot start
            assertThat(panicked.await(10, TimeUnit.SECONDS)).isTrue();
            // (a retry may have failed too by now: WorkerLaunch)
            assertThat(panics).isNotEmpty()
                    .allSatisfy(e -> assertThat(e).isInstanceOf(RejectedExecutionException.class));
            // the queued task was not taken: it waits in the queue, and the place is free again
            assertThat(pool.stats().queued()).isEqualTo(1);
            assertThat(ran).containsExactly("first");

            factory.failing.set(false);
            pool.execute((Runnable) () -> {
                ran.add("last");
                allRan.countDown();
            }); // room and tasks queued: a worker starts for the queue
            assertThat(allRan.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ran).containsExactly("first", "queued", "last");
        } finally {
            pool.shutdownNow();
        }
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.stats().completed()).isEqualTo(3);
    }

    @RepeatedTest(10)
    void aQueuedTaskLeftWithoutAWorkerRunsOnceAThreadStartsAgainEvenInAClosedPool() throws Exception {
        FailingFactory factory = new FailingFactory();
        CountDownLatch panicked = new CountDownLatch(1);
        PoolEngine pool = queuedPoolOfOne(factory, panicked);
        CountDownLatch firstMayEnd = new CountDownLatch(1);
        CountDownLatch queuedRan = new CountDownLatch(1);
        try {
            pool.execute((Runnable) () -> awaitQuietly(firstMayEnd));
            pool.execute((Runnable) queuedRan::countDown);
            factory.failing.set(true);
            firstMayEnd.countDown(); // the successor cannot start: the task stays queued, and no worker is left
            assertThat(panicked.await(10, TimeUnit.SECONDS)).isTrue();
            pool.release(); // nothing will call execute again
            assertThat(pool.isTerminated()).isFalse();
            assertThat(queuedRan.getCount()).isEqualTo(1);

            factory.failing.set(false); // the next retry starts a worker for it
            assertThat(queuedRan.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(pool.stats().completed()).isEqualTo(2);
        } finally {
            firstMayEnd.countDown();
            pool.shutdownNow();
        }
    }

    @RepeatedTest(5)
    void aPoolDroppedWhileItsStartIsRetriedCanBeCollected() throws Exception {
        WeakReference<PoolEngine> dropped = strandedPool();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            System.gc();
            return dropped.get() == null;
        });
    }

    /** {@return a pool whose queued task has no worker, its start retried and failing for good, held weakly} */
    private static WeakReference<PoolEngine> strandedPool() throws InterruptedException {
        FailingFactory factory = new FailingFactory();
        CountDownLatch panicked = new CountDownLatch(1);
        PoolEngine pool = queuedPoolOfOne(factory, panicked);
        CountDownLatch firstMayEnd = new CountDownLatch(1);
        pool.execute((Runnable) () -> awaitQuietly(firstMayEnd));
        pool.execute((Runnable) () -> { });
        factory.failing.set(true); // for good: the retries keep failing, and keep being scheduled
        firstMayEnd.countDown();
        assertThat(panicked.await(10, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 0);
        assertThat(pool.stats().queued()).isEqualTo(1);
        return new WeakReference<>(pool);
    }

    /** {@return an unpooled pool of capacity 1 with a queue of 4, its threads from {@code factory}} */
    private static PoolEngine queuedPoolOfOne(FailingFactory factory, CountDownLatch panicked) {
        PoolOptions options = PoolOptions.builder().name("u").virtualThreads(true).queueCapacity(4)
                .panicHandler(e -> panicked.countDown()).build();
        return new PoolEngine(1, options, t -> ((Runnable) t).run(), WorkerThreads.unpooled(factory, options.name()));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
