package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A listener added to a running pool ({@link Pool#addListener}, {@link DelayScheduler#addListener}). */
@Timeout(60)
class AddListenerTest {

    private static final long MS = 1_000_000L;

    /** Records every call it gets. */
    static final class Recorder implements PoolListener {
        final String tag;
        final List<String> order;
        final List<long[]> finished = new CopyOnWriteArrayList<>();
        final List<RuntimeException> rejected = new CopyOnWriteArrayList<>();
        final List<OverdueTask> overdue = new CopyOnWriteArrayList<>();

        Recorder() {
            this("", new CopyOnWriteArrayList<>());
        }

        Recorder(String tag, List<String> order) {
            this.tag = tag;
            this.order = order;
        }

        @Override
        public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
            order.add(tag);
            finished.add(new long[] {waitedNanos, ranNanos});
        }

        @Override
        public void taskRejected(RuntimeException reason) {
            rejected.add(reason);
        }

        @Override
        public void taskOverdue(OverdueTask task) {
            overdue.add(task);
        }
    }

    /** Lets time pass on this thread (not a wait for another thread). */
    private static void pass(long millis) {
        long end = System.nanoTime() + millis * MS;
        while (System.nanoTime() < end) {
            LockSupport.parkNanos(end - System.nanoTime());
        }
    }

    @RepeatedTest(5)
    void hearsOfTheTasksAcceptedAfterTheCallWithTheirWaitAndRunTimesButNotOfThoseAcceptedBefore() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().queueCapacity(10).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            CountDownLatch before = new CountDownLatch(1);
            pool.execute(before::countDown); // accepted before: queued behind the blocker
            Recorder recorder = new Recorder();
            pool.addListener(recorder);
            long submitted = System.nanoTime();
            pool.execute(() -> pass(10));
            pass(20);
            blocker.open();
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> recorder.finished.size() == 1);
            long elapsed = System.nanoTime() - submitted;
            Latches.await(before);
            long[] times = recorder.finished.get(0);
            assertThat(times[0]).as("waited").isBetween(20 * MS, elapsed);
            assertThat(times[1]).as("ran").isBetween(10 * MS, elapsed);
            assertThat(times[0] + times[1]).isLessThanOrEqualTo(elapsed);
            assertThat(recorder.finished).hasSize(1); // the blocker and the task queued before were not reported
            assertThat(pool.options().listener()).isNull();
        }
    }

    @RepeatedTest(5)
    void hearsOfRefusalsFromTheCallOn() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().nonblocking(true).build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            Recorder recorder = new Recorder();
            pool.addListener(recorder);
            PoolOverloadException refused = null;
            try {
                pool.execute(() -> { });
            } catch (PoolOverloadException e) {
                refused = e;
            }
            assertThat(refused).isNotNull();
            assertThat(recorder.rejected).containsExactly(refused);
            blocker.open();
        }
    }

    @RepeatedTest(5)
    void hearsOfAnOverdueTaskWithTheRunTimeout() {
        WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().runTimeout(Duration.ofMillis(50)).build());
        try {
            Recorder recorder = new Recorder();
            pool.addListener(recorder);
            CountDownLatch release = new CountDownLatch(1);
            pool.execute(DelaySchedulerContractTest.named("stuck", () -> Latches.await(release)));
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> !recorder.overdue.isEmpty());
            OverdueTask task = recorder.overdue.get(0);
            assertThat(task.kind()).isEqualTo(OverdueTask.Kind.RUN);
            assertThat(task.task()).isEqualTo("stuck");
            assertThat(task.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
            release.countDown();
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> recorder.finished.size() == 1);
            assertThat(recorder.overdue).hasSize(1);
        } finally {
            pool.close();
        }
    }

    @RepeatedTest(5)
    void severalListenersAreEachToldInOrderAfterTheOptionsOneEvenWhenOneThrows() {
        List<String> order = new CopyOnWriteArrayList<>();
        Recorder first = new Recorder("options", order);
        try (WorkerPool pool = WorkerPool.create(2, PoolOptions.builder().listener(first).build())) {
            pool.addListener(new PoolListener() {
                @Override
                public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                    order.add("throws");
                    throw new IllegalStateException("a listener's own bug");
                }
            });
            Recorder second = new Recorder("second", order);
            pool.addListener(second);
            Recorder third = new Recorder("third", order);
            pool.addListener(third);
            pool.execute(() -> { });
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> third.finished.size() == 1);
            assertThat(order).containsExactly("options", "throws", "second", "third");
            assertThat(pool.options().listener()).isSameAs(first);
        }
    }

    @RepeatedTest(5)
    void aMultiPoolAddsTheListenerToEveryPool() {
        try (MultiPool pool = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().queueCapacity(10).build())) {
            Recorder recorder = new Recorder();
            pool.addListener(recorder);
            List<String> ranOn = new CopyOnWriteArrayList<>();
            for (int i = 0; i < 4; i++) {
                pool.execute(() -> ranOn.add(Thread.currentThread().getName()));
            }
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> recorder.finished.size() == 4);
            assertThat(ranOn).anyMatch(n -> n.startsWith("pool-0-")).anyMatch(n -> n.startsWith("pool-1-"));
        }
    }

    @RepeatedTest(5)
    void aFuncPoolTellsTheAddedListener() {
        try (FuncPool<String> pool = FuncPool.create(1, s -> pass(5))) {
            Recorder recorder = new Recorder();
            pool.addListener(recorder);
            pool.invoke("a");
            pool.invoke(null);
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> recorder.finished.size() == 2);
            assertThat(recorder.finished).allSatisfy(t -> assertThat(t[1]).isGreaterThanOrEqualTo(5 * MS));
        }
    }

    @RepeatedTest(5)
    void aDelaySchedulerTellsTheAddedListenerOfEachRunAndOfAnOverdueOne() throws Exception {
        DelayScheduler scheduler = DelayScheduler.create(1,
                PoolOptions.builder().runTimeout(Duration.ofMillis(50)).build());
        try {
            Recorder recorder = new Recorder();
            scheduler.addListener(recorder);
            scheduler.schedule(() -> pass(5), 10, TimeUnit.MILLISECONDS).get(Latches.PATIENCE_SECONDS,
                    TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> recorder.finished.size() == 1);
            assertThat(recorder.finished.get(0)[1]).isGreaterThanOrEqualTo(5 * MS);
            CountDownLatch release = new CountDownLatch(1);
            scheduler.execute(DelaySchedulerContractTest.named("stuck job", () -> Latches.await(release)));
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> !recorder.overdue.isEmpty());
            assertThat(recorder.overdue.get(0).kind()).isEqualTo(OverdueTask.Kind.RUN);
            assertThat(recorder.overdue.get(0).task()).contains("stuck job");
            release.countDown();
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> recorder.finished.size() == 2);
        } finally {
            scheduler.close();
        }
    }

    @RepeatedTest(5)
    void virtualThreadsTellTheAddedListenerToo() throws Exception {
        WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().virtualThreads(true).queueCapacity(10)
                .runTimeout(Duration.ofMillis(50)).build());
        try {
            Recorder recorder = new Recorder();
            pool.addListener(recorder);
            Blocker blocker = Blocker.occupy(pool, 1);
            pool.execute(() -> pass(5));
            pass(10);
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> !recorder.overdue.isEmpty());
            assertThat(recorder.overdue.get(0).kind()).isEqualTo(OverdueTask.Kind.RUN); // the blocker
            blocker.open();
            await().atMost(Duration.ofSeconds(Latches.PATIENCE_SECONDS)).until(() -> recorder.finished.size() == 2);
            assertThat(recorder.finished).anySatisfy(t -> { // the queued task
                assertThat(t[0]).isGreaterThanOrEqualTo(10 * MS);
                assertThat(t[1]).isGreaterThanOrEqualTo(5 * MS);
            });
        } finally {
            pool.close();
        }
    }

    /**
     * A task's run time, as a listener (a timer) is told it, is the task's, not the panic handler's after it: a task
     * that throws at once, followed by a slow handler (a stack logged, a synchronous alert), ran for a moment.
     */
    @Test
    void theRunTimeOfATaskThatThrowsLeavesOutThePanicHandler() {
        Recorder recorder = new Recorder();
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch handlerMayReturn = new CountDownLatch(1);
        long[] handlerNanos = new long[1];
        try (WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().name("listener-panic")
                .panicHandler(e -> { // a slow handler: held until the test lets it return
                    long start = System.nanoTime();
                    inHandler.countDown();
                    Latches.await(handlerMayReturn);
                    handlerNanos[0] = System.nanoTime() - start;
                }).build())) {
            pool.addListener(recorder);
            pool.execute(() -> {
                throw new IllegalStateException("expected by the test");
            });
            Latches.await(inHandler);
            pass(300);
            handlerMayReturn.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> recorder.finished.size() == 1);
        }
        // with the handler's time in it, the run time would be at least the handler's 300 ms and more
        assertThat(recorder.finished.get(0)[1]).as("the task's own time").isLessThan(handlerNanos[0]);
    }

    @Test
    void aNullListenerIsRefused() {
        try (WorkerPool worker = WorkerPool.create(1); FuncPool<String> func = FuncPool.create(1, s -> { });
             MultiPool multi = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN);
             DelayScheduler scheduler = DelayScheduler.create(1)) {
            for (Runnable call : List.<Runnable>of(() -> worker.addListener(null), () -> func.addListener(null),
                    () -> multi.addListener(null), () -> scheduler.addListener(null))) {
                assertThatThrownBy(call::run).isInstanceOf(NullPointerException.class).hasMessageContaining("listener");
            }
        }
    }

    @Test
    void aPoolOfTheApplicationsOwnThatDoesNotImplementItSaysSo() {
        InvocationHandler defaults = (proxy, method, args) -> method.isDefault()
                ? InvocationHandler.invokeDefault(proxy, method, args) : null;
        Pool own = (Pool) Proxy.newProxyInstance(Pool.class.getClassLoader(), new Class<?>[] {Pool.class}, defaults);
        assertThatThrownBy(() -> own.addListener(new Recorder()))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("cannot take a listener once built")
                .hasMessageContaining("PoolOptions");
    }
}
