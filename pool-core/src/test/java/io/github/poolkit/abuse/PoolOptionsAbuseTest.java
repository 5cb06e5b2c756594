package io.github.poolkit.abuse;

import io.github.poolkit.FuncPool;
import io.github.poolkit.InvalidOptionException;
import io.github.poolkit.MultiPool;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Abuse of {@link PoolOptions}: every option with null, negative, zero and huge values. Options are checked together
 * when a pool is created ({@link PoolOptions#validate(int)}), so a bad combination fails there with an {@link IllegalArgumentException} whose
 * message names the option, the value and the fix; a huge {@code preAlloc} must fail that way too, not with an
 * {@link OutOfMemoryError}.
 */
@Timeout(20)
class PoolOptionsAbuseTest {

    @Test
    void nullExpiryAndNameAreRejectedAtOnce() {
        assertThatThrownBy(() -> PoolOptions.builder().expiry(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("expiry");
        assertThatThrownBy(() -> PoolOptions.builder().name(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("name");
    }

    @Test
    void blankNameIsRejected() {
        assertThatThrownBy(() -> PoolOptions.builder().name("  ")).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("name must not be blank, was '  '")
                .satisfies(e -> assertThat(((InvalidOptionException) e).option()).isEqualTo("name"))
                .satisfies(e -> assertThat(((InvalidOptionException) e).value()).as("the value given, not a quotation")
                        .isEqualTo("  "));
    }

    @Test
    void zeroExpiryMeansTheDefault() {
        assertThat(PoolOptions.builder().expiry(Duration.ZERO).build().expiry()).isEqualTo(PoolOptions.DEFAULT_EXPIRY);
    }

    @Test
    void negativeExpiryFailsAtCreationUnlessPurgingIsDisabled() {
        PoolOptions negative = PoolOptions.builder().expiry(Duration.ofSeconds(-1)).build();
        assertThatThrownBy(() -> WorkerPool.create(1, negative)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expiry").hasMessageContaining("-1").hasMessageContaining("disablePurge");
        try (WorkerPool pool = WorkerPool.create(1, negative.toBuilder().disablePurge(true).build())) {
            assertThat(pool.capacity()).isEqualTo(1);
        }
    }

    @Test
    void hugeExpiryIsAccepted() throws Exception {
        PoolOptions options = PoolOptions.builder().expiry(Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L)).build();
        try (WorkerPool pool = WorkerPool.create(1, options)) {
            assertThat(pool.submit(() -> 1).get(5, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    @Test
    void preAllocWithUnlimitedCapacityIsRejected() {
        PoolOptions preAlloc = PoolOptions.builder().preAlloc(true).build();
        for (int capacity : new int[] {0, -1}) {
            assertThatThrownBy(() -> WorkerPool.create(capacity, preAlloc))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("preAlloc").hasMessageContaining("capacity");
        }
    }

    @Test
    void preAllocWithAHugeCapacityFailsWithAClearMessageNotOutOfMemory() {
        PoolOptions preAlloc = PoolOptions.builder().preAlloc(true).build();
        assertThatThrownBy(() -> WorkerPool.create(Integer.MAX_VALUE, preAlloc))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("preAlloc").hasMessageContaining(String.valueOf(Integer.MAX_VALUE));
        assertThatThrownBy(() -> FuncPool.create(Integer.MAX_VALUE, x -> { }, preAlloc))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MultiPool.create(2, Integer.MAX_VALUE, MultiPool.LoadBalancing.ROUND_ROBIN, preAlloc))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void preAllocIgnoresTune() {
        try (WorkerPool pool = WorkerPool.create(4, PoolOptions.builder().preAlloc(true).build())) {
            pool.tune(8);
            pool.tune(1);
            assertThat(pool.capacity()).isEqualTo(4);
        }
    }

    @Test
    void negativeMaxBlockingTasksIsRejected() {
        PoolOptions options = PoolOptions.builder().maxBlockingTasks(-1).build();
        assertThatThrownBy(() -> WorkerPool.create(1, options)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxBlockingTasks").hasMessageContaining("-1");
    }

    @Test
    void queueCapacityBelowMinusOneIsRejected() {
        for (int queueCapacity : new int[] {-2, Integer.MIN_VALUE}) {
            PoolOptions options = PoolOptions.builder().queueCapacity(queueCapacity).build();
            assertThatThrownBy(() -> WorkerPool.create(1, options)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("queueCapacity").hasMessageContaining(String.valueOf(queueCapacity));
        }
    }

    @Test
    void hugeQueueCapacityAndMaxBlockingTasksDoNotAllocateUpFront() throws Exception {
        PoolOptions options = PoolOptions.builder().queueCapacity(Integer.MAX_VALUE)
                .maxBlockingTasks(Integer.MAX_VALUE).build();
        try (WorkerPool pool = WorkerPool.create(1, options)) {
            HeldWorkers held = HeldWorkers.hold(pool, 1);
            pool.execute(() -> { });
            assertThat(pool.waiting()).isEqualTo(1);
            held.let();
        }
    }

    @Test
    void nullPanicHandlerAndThreadFactoryMeanTheDefaults() throws Exception {
        PoolOptions options = PoolOptions.builder().panicHandler(null).threadFactory(null).name("abuse-defaults").build();
        try (WorkerPool pool = WorkerPool.create(1, options)) {
            assertThat(pool.submit(() -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS))
                    .startsWith("abuse-defaults-");
        }
    }

    @Test
    void aPanicHandlerThatThrowsDoesNotKillTheWorkerOrLoseTheNextTask() throws Exception {
        PoolOptions options = PoolOptions.builder().panicHandler(e -> {
            throw new IllegalStateException("handler fails too");
        }).build();
        Logger log = Logger.getLogger("io.github.poolkit");
        Level level = log.getLevel();
        log.setLevel(Level.OFF); // the pool logs the handler's failure; keep it out of the build log
        try (WorkerPool pool = WorkerPool.create(1, options)) {
            pool.execute(() -> {
                throw new IllegalArgumentException("task fails");
            });
            assertThat(pool.submit(() -> "next").get(5, TimeUnit.SECONDS)).isEqualTo("next");
            assertThat(pool.running()).isEqualTo(1);
        } finally {
            log.setLevel(level);
        }
    }
}
