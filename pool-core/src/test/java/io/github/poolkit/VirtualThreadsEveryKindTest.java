package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * {@code virtualThreads(true)}: a virtual thread never runs a second task, in every pool kind and whatever the task
 * before did (threw, was interrupted as overdue, left a ThreadLocal or its interrupt status set).
 */
@Timeout(30)
class VirtualThreadsEveryKindTest {

    private static final ThreadLocal<String> LEFTOVER = new ThreadLocal<>();

    /** What each task saw when it started, and the threads the tasks ran on. */
    static final class Seen {
        final Set<Thread> threads = ConcurrentHashMap.newKeySet();
        final List<String> leftovers = new CopyOnWriteArrayList<>();
        final List<Boolean> interrupted = new CopyOnWriteArrayList<>();

        void record(String mark) {
            Thread t = Thread.currentThread();
            assertThat(t.isVirtual()).isTrue();
            threads.add(t);
            leftovers.add(String.valueOf(LEFTOVER.get()));
            interrupted.add(t.isInterrupted());
            LEFTOVER.set(mark); // never cleared
            t.interrupt(); // left set
        }

        void assertFresh(int tasks) {
            assertThat(threads).hasSize(tasks);
            assertThat(leftovers).hasSize(tasks).containsOnly("null");
            assertThat(interrupted).hasSize(tasks).containsOnly(false);
        }
    }

    private static PoolOptions.Builder vt() {
        return PoolOptions.builder().name("vt").virtualThreads(true).panicHandler(e -> { });
    }

    @RepeatedTest(5)
    void tasksAfterOneThatThrewStartOnFreshThreads() {
        Seen seen = new Seen();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(6);
        try (WorkerPool pool = WorkerPool.create(2, vt().queueCapacity(-1).build())) {
            for (int i = 0; i < 6; i++) {
                int id = i;
                pool.execute(() -> {
                    seen.record("task " + id);
                    Latches.awaitUninterruptibly(gate);
                    done.countDown();
                    throw new IllegalStateException("task " + id + " fails");
                });
            }
            gate.countDown();
            Latches.await(done);
        }
        seen.assertFresh(6);
    }

    @RepeatedTest(5)
    void aFuncPoolsQueuedAndBlockedArgumentsStartOnFreshThreads() throws Exception {
        Seen seen = new Seen();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(5);
        FuncPool<Integer> pool = FuncPool.create(1, arg -> {
            seen.record("arg " + arg);
            Latches.awaitUninterruptibly(gate);
            done.countDown();
        }, vt().queueCapacity(3).build());
        try {
            for (int i = 0; i < 4; i++) {
                pool.invoke(i); // one runs, three queue
            }
            Thread caller = Thread.ofPlatform().start(() -> pool.invoke(4)); // blocks: the queue is full
            org.awaitility.Awaitility.await().until(() -> pool.stats().blocked() == 1);
            gate.countDown();
            caller.join(TimeUnit.SECONDS.toMillis(10));
            Latches.await(done);
        } finally {
            pool.release();
        }
        seen.assertFresh(5);
    }

    @RepeatedTest(5)
    void aMultiPoolsTasksStartOnFreshThreads() {
        Seen seen = new Seen();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(8);
        MultiPool pool = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN, vt().queueCapacity(-1).build());
        try {
            for (int i = 0; i < 8; i++) {
                int id = i;
                pool.execute(() -> {
                    seen.record("task " + id);
                    Latches.awaitUninterruptibly(gate);
                    done.countDown();
                });
            }
            gate.countDown();
            Latches.await(done);
        } finally {
            pool.release();
        }
        seen.assertFresh(8);
    }

    @RepeatedTest(5)
    void aSchedulersJobsAndEachRunOfARepeatingJobStartOnFreshThreads() throws Exception {
        Seen seen = new Seen();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(4);
        CountDownLatch repeats = new CountDownLatch(3);
        DelayScheduler scheduler = DelayScheduler.create(1, vt().build());
        try {
            for (int i = 0; i < 4; i++) {
                int id = i;
                scheduler.scheduleOnce(() -> {
                    seen.record("job " + id);
                    Latches.awaitUninterruptibly(gate);
                    done.countDown();
                }, Duration.ZERO);
            }
            gate.countDown();
            Latches.await(done);
            seen.assertFresh(4);
            Seen runs = new Seen();
            var future = scheduler.scheduleRepeating(() -> {
                if (repeats.getCount() > 0) {
                    runs.record("run");
                    repeats.countDown();
                }
            }, Duration.ofMillis(5));
            Latches.await(repeats);
            future.cancel(false);
            runs.assertFresh(3);
        } finally {
            scheduler.shutdown();
        }
    }

    @RepeatedTest(5)
    void theTaskAfterOneInterruptedAsOverdueStartsOnAFreshThread() {
        Seen seen = new Seen();
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch next = new CountDownLatch(1);
        try (WorkerPool pool = WorkerPool.create(1, vt().queueCapacity(-1).runTimeout(Duration.ofMillis(100))
                .interruptOverdue(true).build())) {
            pool.execute(() -> {
                seen.threads.add(Thread.currentThread());
                LEFTOVER.set("overdue");
                try {
                    new CountDownLatch(1).await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                    Thread.currentThread().interrupt(); // left set
                }
            });
            pool.execute(() -> {
                seen.threads.add(Thread.currentThread());
                seen.leftovers.add(String.valueOf(LEFTOVER.get()));
                seen.interrupted.add(Thread.currentThread().isInterrupted());
                next.countDown();
            });
            Latches.await(interrupted);
            Latches.await(next);
        }
        assertThat(seen.threads).hasSize(2);
        assertThat(seen.leftovers).containsExactly("null");
        assertThat(seen.interrupted).containsExactly(false);
    }
}
