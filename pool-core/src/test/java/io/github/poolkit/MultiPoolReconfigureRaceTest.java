package io.github.poolkit;

import io.github.poolkit.MultiPool.LoadBalancing;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two {@link MultiPool#reconfigure} (or {@link MultiPool#tune}) calls at once apply as a whole, one after the other: a second one changes no
 * sub-pool while the first is half done, and afterwards every sub-pool has the options of the one that came last, as
 * the multi-pool reports.
 *
 * <p>Deterministic: the test holds the monitor under which sub-pool 1 applies a reconfiguration (its engine's, the
 * lock of one reconfiguration at a time), so the first call stops right before sub-pool 1, having changed sub-pool 0;
 * the second call is started then and waits until it is blocked behind a lock that the test or the first call holds.
 */
@Timeout(30)
class MultiPoolReconfigureRaceTest {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @RepeatedTest(20)
    void aSecondReconfigureWaitsForTheFirstAndTheLastWinsOnEverySubPool() throws Exception {
        PoolOptions base = PoolOptions.builder().name("mrr").build();
        PoolOptions first = base.toBuilder().maxWait(Duration.ofMillis(100)).maxBlockingTasks(1).build();
        PoolOptions second = base.toBuilder().maxWait(Duration.ofMillis(200)).nonblocking(true).build();
        try (MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN, base)) {
            List<Thread> callers = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Object subPool1 = engine(subPools(pool)[1]);
            synchronized (subPool1) {
                Thread a = start("first", () -> pool.reconfigure(first), failure);
                callers.add(a);
                awaitBlockedBehind(a, Set.of(Thread.currentThread()));
                assertThat(live(pool.options())).as("the first call changed sub-pool 0 before stopping")
                        .isEqualTo(live(first));

                Thread b = start("second", () -> pool.reconfigure(second), failure);
                callers.add(b);
                awaitBlockedBehind(b, Set.of(Thread.currentThread(), a));
                assertThat(live(pool.options())).as("the second call changed sub-pool 0 while the first was half done")
                        .isEqualTo(live(first));
            }
            for (Thread caller : callers) {
                caller.join();
            }
            assertThat(failure.get()).isNull();
            for (WorkerPool sub : subPools(pool)) {
                assertThat(live(sub.options())).as(sub.name()).isEqualTo(live(second));
            }
            assertThat(live(pool.options())).isEqualTo(live(second));
        }
    }

    @RepeatedTest(20)
    void aSecondTuneWaitsForTheFirstAndTheLastWinsOnEverySubPool() throws Exception {
        try (MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN, PoolOptions.builder().name("mrt")
                .build())) {
            List<Thread> callers = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            ReentrantLock subPool1 = coreLock(subPools(pool)[1]); // taken by sub-pool 1 while it tunes
            subPool1.lock();
            try {
                Thread a = start("first", () -> pool.tune(3), failure);
                callers.add(a);
                awaitBlockedBehind(a, Set.of(Thread.currentThread()));
                assertThat(subPools(pool)[0].capacity()).as("the first call tuned sub-pool 0 before stopping")
                        .isEqualTo(3);

                Thread b = start("second", () -> pool.tune(5), failure);
                callers.add(b);
                awaitBlockedBehind(b, Set.of(Thread.currentThread(), a));
                assertThat(subPools(pool)[0].capacity()).as("the second call tuned sub-pool 0 while the first was "
                        + "half done").isEqualTo(3);
            } finally {
                subPool1.unlock();
            }
            for (Thread caller : callers) {
                caller.join();
            }
            assertThat(failure.get()).isNull();
            for (WorkerPool sub : subPools(pool)) {
                assertThat(sub.capacity()).as(sub.name()).isEqualTo(5);
            }
        }
    }

    /** {@return the options that differ between the two calls} */
    private static List<Object> live(PoolOptions options) {
        return Arrays.asList(options.maxWait(), options.maxBlockingTasks(), options.nonblocking());
    }

    private static Thread start(String name, Runnable call, AtomicReference<Throwable> failure) {
        Thread thread = new Thread(() -> {
            try {
                call.run();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, name);
        thread.start();
        return thread;
    }

    /** Waits until {@code thread} is blocked on a lock that one of {@code owners} holds. */
    private static void awaitBlockedBehind(Thread thread, Set<Thread> owners) {
        Set<Long> ids = owners.stream().map(Thread::threadId).collect(Collectors.toSet());
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(5)).until(() -> {
            ThreadInfo info = THREADS.getThreadInfo(thread.threadId());
            return info != null && (info.getThreadState() == Thread.State.BLOCKED
                    || info.getThreadState() == Thread.State.WAITING) && ids.contains(info.getLockOwnerId());
        });
    }

    private static WorkerPool[] subPools(MultiPool pool) throws ReflectiveOperationException {
        Field pools = MultiPool.class.getDeclaredField("pools");
        pools.setAccessible(true);
        return (WorkerPool[]) pools.get(pool);
    }

    private static ReentrantLock coreLock(WorkerPool pool) throws ReflectiveOperationException {
        Object engine = engine(pool);
        Field core = engine.getClass().getDeclaredField("core");
        core.setAccessible(true);
        Object poolCore = core.get(engine);
        Field lock = poolCore.getClass().getDeclaredField("lock");
        lock.setAccessible(true);
        return (ReentrantLock) lock.get(poolCore);
    }

    private static Object engine(WorkerPool pool) throws ReflectiveOperationException {
        Field engine = WorkerPool.class.getDeclaredField("engine");
        engine.setAccessible(true);
        return engine.get(pool);
    }
}
