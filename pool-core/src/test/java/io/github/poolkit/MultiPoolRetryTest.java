package io.github.poolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.github.poolkit.MultiPool.LoadBalancing;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Round robin's second try, on another sub-pool, after the first refused the task: it is the same call, so it keeps
 * the rules the caller entered with and decorates the task once.
 */
@Timeout(30)
class MultiPoolRetryTest {

    /**
     * A caller is not made to wait longer by a reconfigure that lands during its first try: it entered with
     * {@code maxWait} 2 s, which bounds the whole call, so once its first try has waited that long the second has
     * nothing left, whatever the options say by then (here: wait without a limit).
     */
    @Test
    void theSecondTryKeepsTheMaxWaitTheCallerEnteredWith() throws Exception {
        try (MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().maxWait(Duration.ofSeconds(2)).build())) {
            Blocker blocker = Blocker.occupy(pool, 2);
            try {
                CompletableFuture<Void> caller = CompletableFuture.runAsync(() -> pool.execute(() -> { }));
                await().until(() -> pool.stats().blocked() == 1); // its first try waits
                pool.reconfigure(pool.options().toBuilder().maxWait(null).build());
                assertThat(caller).as("still in its first try when the options changed").isNotDone();
                assertThatThrownBy(() -> caller.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(PoolOverloadException.class);
            } finally {
                blocker.open();
            }
        }
    }

    /**
     * The listeners hear of a refusal only when the caller gets it: not of the first sub-pool's, when the second try
     * runs the task; once when both refuse.
     */
    @Test
    void aRefusalThatTheSecondTryMakesGoodIsToldToNobody() throws Exception {
        List<RuntimeException> told = new CopyOnWriteArrayList<>();
        PoolListener listener = new PoolListener() {
            @Override
            public void taskRejected(RuntimeException reason) {
                told.add(reason);
            }
        };
        try (MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().maxWait(Duration.ZERO).listener(listener).build())) {
            WorkerPool[] subPools = subPools(pool);
            Blocker first = Blocker.occupy(subPools[0], 1); // sub-pool 0's only worker, held
            try {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown); // round robin: sub-pool 0 refuses, sub-pool 1 runs it
                assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
                assertThat(told).isEmpty();
                assertThat(pool.stats().rejected()).isZero();
                await().until(() -> subPools[1].idleWorkers() == 1);
                Blocker second = Blocker.occupy(subPools[1], 1);
                try {
                    // sub-pool 1's turn: 1 refuses, the retry on 0 refuses too
                    Throwable refused = catchThrowable(() -> pool.execute(() -> { }));
                    assertThat(refused).isInstanceOf(PoolOverloadException.class);
                    assertThat(told).singleElement().isSameAs(refused);
                } finally {
                    second.open();
                }
                assertThat(pool.stats().rejected()).isOne();
            } finally {
                first.open();
            }
        }
    }

    /** The task decorator wraps each task once per call, also when the first sub-pool refused it. */
    @Test
    void aTaskRefusedByTheFirstSubPoolIsDecoratedOnce() throws Exception {
        AtomicInteger applied = new AtomicInteger();
        try (MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN, PoolOptions.builder()
                .maxWait(Duration.ZERO).taskDecorator(task -> {
                    applied.incrementAndGet();
                    return task;
                }).build())) {
            WorkerPool[] subPools = subPools(pool);
            Blocker blocker = Blocker.occupy(subPools[0], 1); // sub-pool 0's only worker, held
            try {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown); // round robin: sub-pool 0 refuses, sub-pool 1 runs it
                assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
                await().until(() -> subPools[1].idleWorkers() == 1);
                CountDownLatch again = new CountDownLatch(1);
                pool.execute(again::countDown); // sub-pool 1 (its turn)
                assertThat(again.await(5, TimeUnit.SECONDS)).isTrue();
                assertThat(applied).as("one wrap per call, of the multi-pool's and of its sub-pools' own").hasValue(3);
            } finally {
                blocker.open();
            }
        }
    }

    /** A timeout of {@code Long.MIN_VALUE} is spent at once, as one of 0 is, while a worker still runs. */
    @Test
    void theMostNegativeTimeoutIsSpentAtOnce() throws Exception {
        try (MultiPool pool = MultiPool.create(2, 1, LoadBalancing.ROUND_ROBIN)) {
            Blocker blocker = Blocker.occupy(pool, 1);
            try {
                pool.release();
                assertThat(pool.awaitTermination(Long.MIN_VALUE, TimeUnit.NANOSECONDS)).isFalse();
            } finally {
                blocker.open();
            }
        }
    }

    private static WorkerPool[] subPools(MultiPool pool) throws ReflectiveOperationException {
        Field pools = MultiPool.class.getDeclaredField("pools");
        pools.setAccessible(true);
        return (WorkerPool[]) pools.get(pool);
    }
}
