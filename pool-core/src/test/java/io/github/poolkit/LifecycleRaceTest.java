package io.github.poolkit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Life-cycle operations (tune, release, reboot, shutdownNow) racing callers, on every kind of pool: no accepted task
 * is lost or run twice, and the capacity holds once a shrink has settled.
 */
@Timeout(60)
class LifecycleRaceTest {

    /** The pool kinds whose paths differ. */
    enum Kind {
        HAND_OFF(PoolOptions.builder()),
        BOUNDED_QUEUE(PoolOptions.builder().queueCapacity(4)),
        UNBOUNDED_QUEUE(PoolOptions.builder().queueCapacity(-1)),
        VIRTUAL(PoolOptions.builder().virtualThreads(true)),
        VIRTUAL_QUEUE(PoolOptions.builder().virtualThreads(true).queueCapacity(4));

        /** Immutable: each test builds on a copy ({@link PoolOptions#toBuilder()}). */
        final PoolOptions options;

        Kind(PoolOptions.Builder options) {
            this.options = options.build();
        }
    }

    /** A task that records each run under its id. */
    private record Counted(int id, AtomicIntegerArray runs, AtomicInteger active, AtomicInteger peak)
            implements Runnable {
        @Override
        public void run() {
            peak.accumulateAndGet(active.incrementAndGet(), Math::max);
            runs.incrementAndGet(id);
            active.decrementAndGet();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void releaseRebootShutdownNowAndTuneRacingCallersLoseNoTaskAndRunNoneTwice(Kind kind) throws Exception {
        for (int round = 0; round < 3; round++) {
            raceOnce(kind);
        }
    }

    private void raceOnce(Kind kind) throws Exception {
        int callers = 4;
        int perCaller = 3_000;
        int maxCapacity = 5;
        AtomicIntegerArray runs = new AtomicIntegerArray(callers * perCaller);
        AtomicIntegerArray accepted = new AtomicIntegerArray(callers * perCaller);
        AtomicIntegerArray drained = new AtomicIntegerArray(callers * perCaller);
        AtomicInteger active = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        WorkerPool pool = WorkerPool.create(3, kind.options.toBuilder().expiry(java.time.Duration.ofMillis(2)).build());
        CountDownLatch callersDone = new CountDownLatch(callers);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            int base = c * perCaller;
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < perCaller; i++) {
                        try {
                            pool.execute(new Counted(base + i, runs, active, peak));
                            accepted.set(base + i, 1);
                        } catch (PoolClosedException closed) {
                            // refused: must never run
                        }
                    }
                } catch (Throwable e) {
                    unexpected.compareAndSet(null, e);
                } finally {
                    callersDone.countDown();
                }
            });
            t.start();
            threads.add(t);
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread operator = new Thread(() -> {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            try {
                while (!stop.get()) {
                    switch (r.nextInt(5)) {
                        case 0 -> pool.release();
                        case 1 -> {
                            for (Runnable task : pool.shutdownNow()) {
                                drained.incrementAndGet(((Counted) task).id());
                            }
                        }
                        case 2 -> pool.tune(1 + r.nextInt(maxCapacity));
                        default -> pool.reboot();
                    }
                    Thread.onSpinWait();
                }
            } catch (Throwable e) {
                unexpected.compareAndSet(null, e);
            }
        });
        operator.start();
        boolean finished = callersDone.await(30, TimeUnit.SECONDS);
        stop.set(true);
        operator.join();
        pool.reboot();
        pool.tune(3);
        if (!finished) {
            finished = callersDone.await(10, TimeUnit.SECONDS);
        }
        assertThat(finished).as("callers finished (a caller hung)").isTrue();
        for (Thread t : threads) {
            t.join();
        }
        pool.close();
        assertThat(unexpected.get()).isNull();
        assertThat(pool.isTerminated()).isTrue();
        for (int id = 0; id < runs.length(); id++) {
            int fate = runs.get(id) + drained.get(id);
            assertThat(fate).as("task %d: accepted=%d runs=%d drained=%d", id, accepted.get(id), runs.get(id),
                    drained.get(id)).isEqualTo(accepted.get(id));
        }
        assertThat(peak.get()).isLessThanOrEqualTo(maxCapacity);
        assertThat(pool.running()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aShrinkBelowTheBusyWorkersStartsNoNewTaskUntilTheyAreFewerThanTheNewCapacity(Kind kind) throws Exception {
        for (int round = 0; round < 3; round++) {
            shrinkOnce(kind);
        }
    }

    private void shrinkOnce(Kind kind) throws Exception {
        int capacity = 6;
        int shrunk = 2;
        try (WorkerPool pool = WorkerPool.create(capacity, kind.options)) {
            AtomicInteger active = new AtomicInteger();
            CountDownLatch started = new CountDownLatch(capacity);
            CountDownLatch gate = new CountDownLatch(1);
            for (int i = 0; i < capacity; i++) {
                pool.execute(() -> {
                    active.incrementAndGet();
                    started.countDown();
                    Latches.awaitUninterruptibly(gate);
                    active.decrementAndGet();
                });
            }
            Latches.await(started);
            pool.tune(shrunk);
            assertThat(pool.capacity()).isEqualTo(shrunk);
            AtomicInteger peakOfNew = new AtomicInteger();
            int tasks = 200;
            CountDownLatch done = new CountDownLatch(tasks);
            Thread caller = new Thread(() -> {
                for (int i = 0; i < tasks; i++) {
                    pool.execute(() -> {
                        peakOfNew.accumulateAndGet(active.incrementAndGet(), Math::max);
                        active.decrementAndGet();
                        done.countDown();
                    });
                }
            });
            caller.start();
            await().until(() -> pool.waiting() > 0);
            gate.countDown(); // the old tasks end together: surplus workers must retire, not take the new tasks
            Latches.await(done);
            caller.join();
            assertThat(peakOfNew.get()).as("tasks active when a new one started").isLessThanOrEqualTo(shrunk);
            await().until(() -> pool.running() <= shrunk);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"HAND_OFF", "BOUNDED_QUEUE", "VIRTUAL", "VIRTUAL_QUEUE"})
    void aCallerBlockedWhenThePoolIsReleasedIsRefusedEvenIfThePoolIsRebootedAtOnce(Kind kind) throws Exception {
        for (int round = 0; round < 3; round++) {
            try (WorkerPool pool = WorkerPool.create(1, kind.options)) {
                Blocker busy = Blocker.occupy(pool, 1);
                try {
                    blockReleaseAndReboot(kind, pool);
                } finally {
                    busy.open();
                }
            }
        }
    }

    /** A caller blocks (behind a full queue, if any); the pool is released and rebooted before the caller looks. */
    private static void blockReleaseAndReboot(Kind kind, WorkerPool pool) throws Exception {
        int queued = kind.name().contains("QUEUE") ? 4 : 0;
        for (int i = 0; i < queued; i++) {
            pool.execute(() -> { });
        }
        AtomicInteger ran = new AtomicInteger();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = Callers.start(() -> pool.execute(ran::incrementAndGet), thrown);
        await().until(() -> pool.stats().blocked() == 1);
        pool.release();
        pool.reboot(); // before the woken caller has looked: it was blocked at the release all the same
        caller.join(TimeUnit.SECONDS.toMillis(Latches.PATIENCE_SECONDS));
        assertThat(caller.isAlive()).as("the caller still blocked after the release").isFalse();
        assertThat(thrown.get()).isInstanceOf(PoolClosedException.class);
        assertThat(ran).hasValue(0);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void nullArgumentsRacingReleaseAndRebootRunOncePerAcceptedInvoke(Kind kind) throws Exception {
        for (int round = 0; round < 3; round++) {
            AtomicInteger calls = new AtomicInteger();
            AtomicInteger accepted = new AtomicInteger();
            AtomicReference<Throwable> unexpected = new AtomicReference<>();
            FuncPool<Object> pool = FuncPool.create(2, argument -> {
                if (argument != null) {
                    unexpected.compareAndSet(null, new AssertionError("argument " + argument));
                }
                calls.incrementAndGet();
            }, kind.options);
            int callers = 3;
            CountDownLatch callersDone = new CountDownLatch(callers);
            for (int c = 0; c < callers; c++) {
                Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 2_000; i++) {
                            try {
                                pool.invoke(null);
                                accepted.incrementAndGet();
                            } catch (PoolClosedException refused) {
                                // not accepted: must not run
                            }
                        }
                    } catch (Throwable e) {
                        unexpected.compareAndSet(null, e);
                    } finally {
                        callersDone.countDown();
                    }
                });
            }
            while (callersDone.getCount() > 0) {
                pool.release();
                pool.reboot();
            }
            pool.close();
            assertThat(unexpected.get()).isNull();
            assertThat(calls.get()).isEqualTo(accepted.get());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"HAND_OFF", "BOUNDED_QUEUE", "VIRTUAL", "VIRTUAL_QUEUE"})
    void growingWakesEveryBlockedCallerThatNowHasRoomNotOnlyTheFirst(Kind kind) throws Exception {
        for (int round = 0; round < 3; round++) {
            try (WorkerPool pool = WorkerPool.create(1, kind.options)) {
                Blocker first = Blocker.occupy(pool, 1);
                CountDownLatch gate = new CountDownLatch(1);
                try {
                    int queued = kind.name().contains("QUEUE") ? 4 : 0;
                    int blocked = 3;
                    CountDownLatch started = new CountDownLatch(queued + blocked);
                    Runnable held = () -> {
                        started.countDown();
                        Latches.awaitUninterruptibly(gate);
                    };
                    for (int i = 0; i < queued; i++) {
                        pool.execute(held);
                    }
                    AtomicReference<Throwable> thrown = new AtomicReference<>();
                    for (int i = 0; i < blocked; i++) {
                        Callers.start(() -> pool.execute(held), thrown);
                    }
                    await().until(() -> pool.stats().blocked() == blocked);
                    pool.tune(1 + queued + blocked); // room for every task, the first one still running
                    Latches.await(started);
                    assertThat(thrown.get()).isNull();
                    assertThat(pool.running()).isEqualTo(1 + queued + blocked);
                } finally {
                    gate.countDown();
                    first.open();
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BOUNDED_QUEUE", "VIRTUAL_QUEUE"})
    void growingAReleasedPoolStartsItsQueuedTasksAndTheCapacityHoldsAfterReboot(Kind kind) throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, kind.options)) {
            Blocker first = Blocker.occupy(pool, 1);
            CountDownLatch gate = new CountDownLatch(1);
            try {
                CountDownLatch started = new CountDownLatch(4);
                for (int i = 0; i < 4; i++) {
                    pool.execute(() -> {
                        started.countDown();
                        Latches.awaitUninterruptibly(gate);
                    });
                }
                pool.release();
                pool.tune(5); // the queued tasks still run after a release: now on workers of their own
                Latches.await(started);
                assertThat(pool.capacity()).isEqualTo(5);
                assertThat(pool.running()).isEqualTo(5);
                pool.reboot();
                assertThat(pool.capacity()).isEqualTo(5);
            } finally {
                gate.countDown();
                first.open();
            }
        }
    }
}
