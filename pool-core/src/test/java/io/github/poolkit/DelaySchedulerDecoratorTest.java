package io.github.poolkit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link PoolOptions.Builder#taskDecorator}: a scheduler decorates each job once, when it is scheduled, on the
 * scheduling thread, so the job carries that thread's context (here a real ThreadLocal) into every run.
 */
@Timeout(20)
class DelaySchedulerDecoratorTest {

    private static final ThreadLocal<String> CONTEXT = new ThreadLocal<>();

    private final DelaySchedulerFixture fixture = new DelaySchedulerFixture();
    private final AtomicInteger decorations = new AtomicInteger();
    /** Captures the scheduling thread's CONTEXT and sets it around the task on the worker, as MDC propagation does. */
    private final UnaryOperator<Runnable> propagate = task -> {
        decorations.incrementAndGet();
        String captured = CONTEXT.get();
        return () -> {
            String before = CONTEXT.get();
            CONTEXT.set(captured);
            try {
                task.run();
            } finally {
                CONTEXT.set(before);
            }
        };
    };

    @AfterEach
    void stopSchedulers() throws InterruptedException {
        fixture.close();
        CONTEXT.remove();
    }

    private DelayScheduler scheduler() {
        return fixture.create(2, PoolOptions.builder().taskDecorator(propagate));
    }

    @RepeatedTest(20)
    void aRepeatingJobIsDecoratedOnceWithTheSchedulingThreadsContextAndRunsWithItEveryPeriod() throws Exception {
        DelayScheduler s = scheduler();
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch threeRuns = new CountDownLatch(3);
        CONTEXT.set("scheduler-caller");
        ScheduledFuture<?> repeating = s.scheduleAtFixedRate(() -> {
            seen.add(CONTEXT.get());
            threeRuns.countDown();
        }, 0, 1, MILLISECONDS);
        CONTEXT.set("changed later");
        assertThat(threeRuns.await(10, TimeUnit.SECONDS)).isTrue();
        repeating.cancel(false);
        assertThat(seen).hasSizeGreaterThanOrEqualTo(3).containsOnly("scheduler-caller");
        assertThat(decorations).as("decorated once, not per run").hasValue(1);
    }

    @Test
    void everyKindOfJobCarriesTheContextOfTheThreadThatScheduledIt() throws Exception {
        DelayScheduler s = scheduler();
        CONTEXT.set("caller");
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch runs = new CountDownLatch(4);
        s.execute(() -> {
            seen.add("execute:" + CONTEXT.get());
            runs.countDown();
        });
        s.submit(() -> {
            seen.add("submit:" + CONTEXT.get());
            runs.countDown();
        });
        s.scheduleOnce(() -> {
            seen.add("once:" + CONTEXT.get());
            runs.countDown();
        }, Duration.ofMillis(5));
        s.schedule(() -> {
            seen.add("delayed:" + CONTEXT.get());
            runs.countDown();
        }, 5, MILLISECONDS);
        assertThat(s.submit(() -> "callable:" + CONTEXT.get()).get()).isEqualTo("callable:caller");
        assertThat(s.schedule(() -> "scheduled-callable:" + CONTEXT.get(), 5, MILLISECONDS).get())
                .isEqualTo("scheduled-callable:caller");
        assertThat(runs.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).containsExactlyInAnyOrder("execute:caller", "submit:caller", "once:caller", "delayed:caller");
        assertThat(decorations).hasValue(6);
        assertThat(fixture.panics).isEmpty();
    }

    @Test
    void aDecoratedCallableStillReportsItsOwnCheckedException() {
        DelayScheduler s = scheduler();
        IOException failure = new IOException("disk gone");
        ScheduledFuture<Object> job = s.schedule(() -> {
            throw failure;
        }, 0, MILLISECONDS);
        assertThatThrownBy(job::get).isInstanceOf(ExecutionException.class).cause().isSameAs(failure);
    }

    @Test
    void aDecoratorThatReturnsNullIsRejectedWhenSchedulingAndNothingIsScheduled() {
        DelayScheduler s = fixture.create(1, PoolOptions.builder().taskDecorator(task -> null));
        assertThatThrownBy(() -> s.schedule(() -> { }, 1, TimeUnit.HOURS)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("decorator");
        assertThat(s.pending()).isZero();
    }

    /**
     * A job refused because the scheduler is shut down is not decorated (a decorator that captures a context would do
     * that work for nothing; one that fails then would replace the refusal): the caller gets the refusal, counted.
     */
    @Test
    void aJobRefusedAfterShutdownIsNotDecorated() {
        AtomicInteger decorations = new AtomicInteger();
        DelayScheduler s = fixture.create(1, PoolOptions.builder().taskDecorator(task -> {
            decorations.incrementAndGet();
            throw new IllegalStateException("the context is closing");
        }));
        s.shutdown();
        assertThatThrownBy(() -> s.schedule(() -> { }, 1, TimeUnit.HOURS))
                .isInstanceOf(RejectedExecutionException.class).hasMessageContaining("is shut down");
        assertThatThrownBy(() -> s.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> s.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(decorations).hasValue(0);
        assertThat(s.stats().rejected()).isEqualTo(3);
    }
}
