package io.github.poolkit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** {@code virtualThreads(true)}: a fresh, unpooled virtual thread per task, with the pool's usual bounds and rules. */
@Timeout(20)
class VirtualThreadsTest {

    private static PoolOptions.Builder vt() {
        return PoolOptions.builder().name("vt").virtualThreads(true).panicHandler(e -> { });
    }

    @Test
    void eachTaskStartsAFreshNamedVirtualThread() {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        try (WorkerPool pool = WorkerPool.create(2, vt().build())) {
            for (int i = 0; i < 5; i++) {
                CountDownLatch done = new CountDownLatch(1);
                pool.execute(() -> {
                    threads.add(Thread.currentThread());
                    done.countDown();
                });
                Latches.await(done);
                await().until(() -> pool.running() == 0); // no worker stays behind
            }
        }
        assertThat(threads).hasSize(5).allMatch(Thread::isVirtual).doesNotHaveDuplicates();
        // numbered from 1, one number per thread, as a pool's platform threads are
        assertThat(threads).extracting(Thread::getName).containsExactly("vt-1", "vt-2", "vt-3", "vt-4", "vt-5");
    }

    @Test
    void capacityBoundsTasksInFlightAndRunningEqualsBusy() throws Exception {
        try (WorkerPool pool = WorkerPool.create(3, vt().nonblocking(true).build())) {
            Blocker blocker = Blocker.occupy(pool, 3);
            PoolStats s = pool.stats();
            assertThat(s.running()).isEqualTo(3);
            assertThat(s.busy()).isEqualTo(3);
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            blocker.open();
            await().until(() -> pool.stats().running() == 0);
            assertThat(pool.stats().busy()).isZero();
            assertThat(pool.stats().completed()).isEqualTo(3);
            assertThat(pool.stats().rejected()).isEqualTo(1);
        }
    }

    @Test
    void queuedTasksRunOnceEachAndNoThreadStaysBehind() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        try (WorkerPool pool = WorkerPool.create(2, vt().queueCapacity(10).build())) {
            Blocker blocker = Blocker.occupy(pool, 2);
            for (int i = 0; i < 10; i++) {
                pool.execute(ran::incrementAndGet);
            }
            assertThat(pool.stats().queued()).isEqualTo(10);
            assertThat(pool.stats().running()).isEqualTo(2);
            blocker.open();
            await().until(() -> ran.get() == 10 && pool.running() == 0);
        }
        assertThat(ran.get()).isEqualTo(10);
    }

    /**
     * A virtual thread never runs a second task: queued tasks each start on a fresh thread, so a ThreadLocal (or MDC
     * entry) that a task sets and never clears is never seen by the next one.
     */
    @RepeatedTest(20)
    void queuedTasksEachStartOnAFreshThreadAndSeeNoLeftovers() throws Exception {
        ThreadLocal<String> leftover = new ThreadLocal<>();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(10);
        try (WorkerPool pool = WorkerPool.create(3, vt().queueCapacity(-1).build())) {
            for (int i = 0; i < 10; i++) {
                int id = i;
                pool.execute(() -> {
                    threads.add(Thread.currentThread());
                    seen.add(String.valueOf(leftover.get()));
                    leftover.set("task " + id); // never cleared
                    Latches.await(gate);
                    done.countDown();
                });
            }
            assertThat(pool.stats().queued()).isEqualTo(7);
            gate.countDown();
            Latches.await(done);
        }
        assertThat(threads).hasSize(10);
        assertThat(seen).hasSize(10).containsOnly("null");
    }

    /**
     * A fresh thread is started by the thread whose task just ended, yet inherits nothing of it: neither the
     * InheritableThreadLocals the task left set (an inheritable MDC, a security context) nor the context class loader
     * it set. Every task's thread has the context class loader of the thread that created the pool.
     */
    @RepeatedTest(20)
    void aQueuedTaskInheritsNeitherTheInheritableThreadLocalsNorTheClassLoaderTheTaskBeforeItLeft() throws Exception {
        InheritableThreadLocal<String> leftover = new InheritableThreadLocal<>();
        ClassLoader creators = new URLClassLoader(new URL[0], getClass().getClassLoader());
        ClassLoader tasks = new URLClassLoader(new URL[0], getClass().getClassLoader());
        List<String> seen = new CopyOnWriteArrayList<>();
        List<ClassLoader> loaders = new CopyOnWriteArrayList<>();
        CountDownLatch gate = new CountDownLatch(1);
        Thread creator = Thread.currentThread();
        ClassLoader before = creator.getContextClassLoader();
        WorkerPool pool;
        creator.setContextClassLoader(creators);
        try {
            pool = WorkerPool.create(1, vt().queueCapacity(-1).build());
        }
        finally {
            creator.setContextClassLoader(before);
        }
        leftover.set("the submitter's");
        try (pool) {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int id = i;
                futures.add(pool.submit(() -> {
                    seen.add(String.valueOf(leftover.get()));
                    loaders.add(Thread.currentThread().getContextClassLoader());
                    leftover.set("task " + id); // never cleared
                    Thread.currentThread().setContextClassLoader(tasks); // never set back
                    Latches.await(gate);
                }));
            }
            gate.countDown();
            for (Future<?> future : futures) {
                future.get();
            }
        }
        finally {
            leftover.remove();
        }
        assertThat(seen).containsExactly("null", "null", "null");
        assertThat(loaders).containsExactly(creators, creators, creators);
    }

    /** A blocked caller's task, too, starts on a fresh thread, not on the one whose task just ended. */
    @RepeatedTest(20)
    void aBlockedCallersTaskStartsOnAFreshThread() throws Exception {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(1);
        try (WorkerPool pool = WorkerPool.create(1, vt().build())) {
            pool.execute(() -> {
                threads.add(Thread.currentThread());
                Thread.currentThread().interrupt(); // left set: must not reach the next task
                Latches.awaitUninterruptibly(gate);
            });
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Boolean> interrupted = new AtomicReference<>();
            Thread caller = Callers.start(() -> pool.execute(() -> {
                threads.add(Thread.currentThread());
                interrupted.set(Thread.currentThread().isInterrupted());
                ran.countDown();
            }), thrown);
            await().until(() -> pool.stats().blocked() == 1);
            gate.countDown();
            caller.join();
            Latches.await(ran);
            assertThat(thrown.get()).isNull();
            assertThat(interrupted.get()).isFalse();
        }
        assertThat(threads).hasSize(2).doesNotHaveDuplicates();
    }

    @Test
    void aBlockedCallerIsServedAndMaxWaitApplies() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        try (WorkerPool pool = WorkerPool.create(1, vt().build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread caller = Callers.start(() -> pool.execute(ran::countDown), thrown);
            await().until(() -> pool.stats().blocked() == 1);
            blocker.open();
            caller.join();
            Latches.await(ran);
            assertThat(thrown.get()).isNull();
        }
        try (WorkerPool pool = WorkerPool.create(1, vt().maxWait(Duration.ofMillis(20)).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class)
                    .hasMessageContaining("maxWait");
            blocker.open();
        }
    }

    @Test
    void tuneGrowsAndShrinksTheBound() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, vt().nonblocking(true).build())) {
            Blocker first = Blocker.occupy(pool, 1);
            pool.tune(3);
            Blocker more = Blocker.occupy(pool, 2);
            assertThat(pool.running()).isEqualTo(3);
            pool.tune(1);
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            first.open();
            more.open();
            await().until(() -> pool.running() == 0);
            Blocker.occupy(pool, 1).open();
        }
    }

    @Test
    void releaseLetsRunningAndQueuedTasksFinish() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        WorkerPool pool = WorkerPool.create(1, vt().queueCapacity(-1).build());
        Blocker blocker = Blocker.occupy(pool, 1);
        pool.execute(ran::incrementAndGet);
        pool.release();
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolClosedException.class);
        blocker.open();
        pool.close();
        assertThat(pool.isTerminated()).isTrue();
        assertThat(ran.get()).isEqualTo(1);
    }

    @Test
    void funcPoolRunsOnVirtualThreads() {
        Set<Boolean> virtual = ConcurrentHashMap.newKeySet();
        FuncPool<Integer> pool = FuncPool.create(4, n -> virtual.add(Thread.currentThread().isVirtual()),
                vt().build());
        for (int i = 0; i < 20; i++) {
            pool.invoke(i);
        }
        pool.close();
        assertThat(virtual).containsExactly(true);
        assertThat(pool.stats().completed()).isEqualTo(20);
    }

    @Test
    void cannotBeCombinedWithPreAllocOrAThreadFactory() {
        assertThatThrownBy(() -> WorkerPool.create(4, vt().preAlloc(true).build()))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("preAlloc"))
                .hasMessageContaining("virtualThreads");
        assertThatThrownBy(() -> WorkerPool.create(4, vt().threadFactory(Thread.ofVirtual().factory()).build()))
                .isInstanceOfSatisfying(InvalidOptionException.class,
                        e -> assertThat(e.option()).isEqualTo("threadFactory"))
                .hasMessageContaining("virtualThreads");
    }

    /**
     * Several submitters on a full pool without a queue: places are given back and taken without the lock, and a
     * caller that decided under the lock that there was room may lose it to one that did not look at the lock; it
     * must then wait, never fail (it once got an IllegalStateException).
     */
    @RepeatedTest(20)
    void submittersRacingForFreedPlacesWaitAndNeverFail() throws Exception {
        int capacity = 2;
        int submitters = 4;
        int perSubmitter = 500;
        AtomicInteger ran = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        WorkerPool pool = WorkerPool.create(capacity, vt().build());
        Thread[] threads = new Thread[submitters];
        for (int s = 0; s < submitters; s++) {
            threads[s] = Callers.start(() -> {
                for (int i = 0; i < perSubmitter; i++) {
                    pool.execute(ran::incrementAndGet);
                }
            }, failure);
        }
        for (Thread t : threads) {
            t.join();
        }
        pool.close();
        assertThat(failure.get()).isNull();
        assertThat(ran.get()).isEqualTo(submitters * perSubmitter);
        assertThat(pool.running()).isZero();
    }

    /** Several submitters, a small queue, blocking: never more than capacity tasks at once, each task run once. */
    @RepeatedTest(20)
    void underLoadNoTaskIsLostOrRunTwiceAndTheBoundHolds() throws Exception {
        int capacity = 4;
        int submitters = 3;
        int perSubmitter = 300;
        AtomicReferenceArray<Integer> runs = new AtomicReferenceArray<>(submitters * perSubmitter);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        WorkerPool pool = WorkerPool.create(capacity, vt().queueCapacity(8).build());
        Thread[] threads = new Thread[submitters];
        for (int s = 0; s < submitters; s++) {
            int base = s * perSubmitter;
            threads[s] = new Thread(() -> {
                for (int i = 0; i < perSubmitter; i++) {
                    int id = base + i;
                    pool.execute(() -> {
                        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                        runs.accumulateAndGet(id, 1, (a, b) -> a == null ? b : a + b);
                        inFlight.decrementAndGet();
                    });
                }
            });
            threads[s].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        pool.close();
        for (int i = 0; i < runs.length(); i++) {
            assertThat(runs.get(i)).as("runs of task %d", i).isEqualTo(1);
        }
        assertThat(maxInFlight.get()).isLessThanOrEqualTo(capacity);
        assertThat(pool.stats().completed()).isEqualTo(submitters * perSubmitter);
        assertThat(pool.running()).isZero();
    }
}
