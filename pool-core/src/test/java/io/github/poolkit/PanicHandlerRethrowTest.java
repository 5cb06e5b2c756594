package io.github.poolkit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A panic handler that throws back the very exception it was given (a common way to say "let it propagate"): the
 * pool documents that a handler that throws is logged and the worker survives. Rethrowing the same object must not
 * turn into a failure of the pool's own (a throwable cannot suppress itself), neither on a worker whose task threw,
 * nor on a caller whose task was queued and whose signal for a worker hit a thread factory that failed.
 */
@Timeout(20)
class PanicHandlerRethrowTest {

    /** Records each failure, then throws it back while {@code rethrow} is set. */
    private static Consumer<Throwable> rethrowing(List<Throwable> panics, AtomicBoolean rethrow) {
        return e -> {
            panics.add(e);
            if (rethrow.get() && e instanceof RuntimeException r) {
                throw r;
            }
        };
    }

    /** Platform threads named {@code <name>-<n>}, except while {@code failing} is set: then it throws. */
    private static ThreadFactory failingWhile(AtomicBoolean failing, String name) {
        AtomicInteger made = new AtomicInteger();
        return r -> {
            if (failing.get()) {
                throw new IllegalStateException("test: no thread now");
            }
            return new Thread(r, name + "-" + made.incrementAndGet());
        };
    }

    /** A task that holds its worker until {@code gate} opens. */
    private static Runnable waitingAt(CountDownLatch gate) {
        return () -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    @Test
    void aHandlerThatRethrowsTheTasksExceptionLeavesTheWorkerAliveAndTheFailureCounted() throws Exception {
        List<Throwable> panics = new CopyOnWriteArrayList<>();
        PoolOptions options = PoolOptions.builder().name("rethrow")
                .panicHandler(rethrowing(panics, new AtomicBoolean(true))).build();
        try (WorkerPool pool = WorkerPool.create(1, options)) {
            AtomicReference<Thread> failedOn = new AtomicReference<>();
            IllegalStateException boom = new IllegalStateException("task broke");
            pool.execute(() -> {
                failedOn.set(Thread.currentThread());
                throw boom;
            });
            // One worker: this runs after the failing task, on the same worker if it survived.
            Thread next = pool.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);

            assertThat(panics).containsExactly(boom);
            assertThat(next).as("the worker survives its handler").isSameAs(failedOn.get());
            assertThat(pool.stats().failed()).as("the failed task is counted").isEqualTo(1);
        }
    }

    @Test
    void growingAPoolWhoseWorkersCannotStartLeavesNoPlaceReservedAndThePoolStillTerminates() throws Exception {
        AtomicBoolean failing = new AtomicBoolean();
        ThreadFactory factory = failingWhile(failing, "grow-rethrow");
        List<Throwable> panics = new CopyOnWriteArrayList<>();
        PoolOptions options = PoolOptions.builder().name("grow-rethrow").queueCapacity(-1).disablePurge(true)
                .threadFactory(factory).panicHandler(rethrowing(panics, new AtomicBoolean(true))).build();
        WorkerPool pool = WorkerPool.create(1, options);
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        try {
            pool.execute(waitingAt(gate));
            for (int i = 0; i < 3; i++) {
                pool.execute(ran::incrementAndGet); // no room: queued behind the busy worker
            }
            failing.set(true);
            try {
                pool.tune(4); // reserves a worker per queued task; none can start
            } catch (RuntimeException e) {
                // not what this test checks: what it leaves behind is
            }
            failing.set(false);
            gate.countDown(); // the first worker drains the queue
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("terminated, no place left reserved").isTrue();
            assertThat(ran.get()).isEqualTo(3);
            assertThat(pool.running()).isZero();
        } finally {
            gate.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void aQueuedTaskIsEitherAcceptedAndRunOrRefusedAndNeverRunWhenNoWorkerCanStartAndTheHandlerRethrows()
            throws Exception {
        AtomicBoolean failing = new AtomicBoolean();
        ThreadFactory factory = failingWhile(failing, "queued-rethrow");
        List<Throwable> panics = new CopyOnWriteArrayList<>();
        AtomicBoolean rethrow = new AtomicBoolean();
        PoolOptions options = PoolOptions.builder().name("queued-rethrow").queueCapacity(-1).disablePurge(true)
                .threadFactory(factory).panicHandler(rethrowing(panics, rethrow)).build();
        WorkerPool pool = WorkerPool.create(1, options);
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        try {
            pool.execute(waitingAt(gate));
            pool.execute(ran::incrementAndGet); // no room: queued behind the busy worker
            failing.set(true);
            pool.tune(2); // the worker it starts for the queue cannot start; the handler only records that
            assertThat(panics).hasSize(1);
            assertThat(pool.running()).isEqualTo(1);
            assertThat(pool.waiting()).isEqualTo(1);

            rethrow.set(true);
            boolean refused;
            try {
                pool.execute(ran::incrementAndGet); // queued under the lock, then a worker is asked for: it fails
                refused = false;
            } catch (RuntimeException e) {
                refused = true;
            }
            failing.set(false); // threads again: the queue drains
            rethrow.set(false);
            gate.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ran.get()).as("the first queued task, and the second unless refused")
                    .isEqualTo(refused ? 1 : 2);
        } finally {
            gate.countDown();
            pool.shutdownNow();
        }
    }
}
