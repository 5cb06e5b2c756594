package io.github.poolkit;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code invokeAll} and {@code invokeAny} on a full pool without a queue, the caller interrupted while it is blocked
 * handing a task over: the {@code ExecutorService} contract promises {@link InterruptedException} (as the JSR-166 TCK's
 * {@code testInvokeAnyWithInterruptSet}, {@code testInterruptInvokeAny} and {@code testInvokeAllInterrupt*} check),
 * not the {@code RejectedExecutionException} that {@code execute} throws then; none of the tasks runs.
 */
@Timeout(20)
class InvokeInterruptTest {

    /** One invocation of the four, on a pool, with two tasks. */
    private interface Invoke {
        void on(ExecutorService pool, List<Callable<Integer>> tasks) throws Exception;
    }

    private static final List<Invoke> INVOCATIONS = List.of(
            ExecutorService::invokeAll,
            ExecutorService::invokeAny,
            (pool, tasks) -> pool.invokeAll(tasks, 1, TimeUnit.DAYS),
            (pool, tasks) -> pool.invokeAny(tasks, 1, TimeUnit.DAYS));

    private static final List<Function<PoolOptions, ExecutorService>> POOLS = List.of(
            options -> WorkerPool.create(1, options),
            options -> MultiPool.create(1, 1, MultiPool.LoadBalancing.ROUND_ROBIN, options));

    @RepeatedTest(5) // passed 20 times in a row when written
    void interruptedWhileBlockedHandingATaskOverThrowsInterruptedException() throws Exception {
        for (Function<PoolOptions, ExecutorService> make : POOLS) {
            for (Invoke invoke : INVOCATIONS) {
                try (ExecutorService pool = make.apply(PoolOptions.builder().name("invoke").build())) {
                    Blocker blocker = Blocker.occupy(pool, 1);
                    AtomicInteger ran = new AtomicInteger();
                    Callable<Integer> task = ran::incrementAndGet;
                    AtomicReference<Throwable> thrown = new AtomicReference<>();
                    AtomicBoolean interruptStatusAfter = new AtomicBoolean(true);
                    Thread caller = new Thread(() -> {
                        try {
                            invoke.on(pool, List.of(task, task));
                        } catch (Throwable e) {
                            thrown.set(e);
                        }
                        interruptStatusAfter.set(Thread.currentThread().isInterrupted());
                    });
                    caller.start();
                    await().until(() -> ((Pool) pool).waiting() == 1); // blocked in execute
                    caller.interrupt();
                    caller.join();
                    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
                    assertThat(interruptStatusAfter).as("interrupt status cleared, as by any InterruptedException")
                            .isFalse();
                    blocker.open();
                    pool.shutdown();
                    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
                    assertThat(ran).as("tasks run").hasValue(0);
                }
            }
        }
    }

    @RepeatedTest(3)
    void aCallerInterruptedBeforeItStartsGetsInterruptedExceptionToo() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, PoolOptions.builder().name("invoke").maxWait(Duration.ofDays(1))
                .build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            Thread.currentThread().interrupt();
            Throwable thrown = null;
            try {
                pool.invokeAny(List.<Callable<Integer>>of(() -> 1));
            } catch (Throwable e) {
                thrown = e;
            }
            assertThat(thrown).isInstanceOf(InterruptedException.class);
            assertThat(Thread.interrupted()).isFalse();
            blocker.open();
        }
    }
}
