package io.github.poolkit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** {@link Pool#reconfigure}: what changes live, what is refused, and what already blocked callers keep. */
@Timeout(20)
class ReconfigureTest {

    private static PoolOptions.Builder opts() {
        return PoolOptions.builder().name("rc").panicHandler(e -> { });
    }


    @Test
    void optionsReturnsWhatTheLastReconfigureSet() {
        try (WorkerPool pool = WorkerPool.create(2, opts().build())) {
            PoolOptions changed = pool.options().toBuilder().maxWait(Duration.ofMillis(200)).maxBlockingTasks(3)
                    .nonblocking(true).build();
            pool.reconfigure(changed);
            assertThat(pool.options()).isSameAs(changed);
        }
    }

    @Test
    void nonblockingAndMaxWaitApplyToNewCallers() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, opts().build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            pool.reconfigure(pool.options().toBuilder().nonblocking(true).build());
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class)
                    .hasMessageContaining("nonblocking");
            pool.reconfigure(pool.options().toBuilder().nonblocking(false).maxWait(Duration.ofMillis(20)).build());
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class)
                    .hasMessageContaining("maxWait");
            blocker.open();
        }
    }

    @Test
    void maxBlockingTasksAppliesToNewCallers() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, opts().build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread first = Callers.start(() -> pool.execute(() -> { }), thrown);
            await().until(() -> pool.stats().blocked() == 1);
            pool.reconfigure(pool.options().toBuilder().maxBlockingTasks(1).build());
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class)
                    .hasMessageContaining("maxBlockingTasks");
            blocker.open();
            first.join();
            assertThat(thrown.get()).isNull();
        }
    }

    @Test
    void aCallerAlreadyBlockedKeepsTheWaitItEnteredWith() throws Exception {
        try (WorkerPool pool = WorkerPool.create(1, opts().build())) {
            Blocker blocker = Blocker.occupy(pool, 1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread patient = Callers.start(() -> pool.execute(() -> { }), thrown); // waits without limit
            await().until(() -> pool.stats().blocked() == 1);
            pool.reconfigure(pool.options().toBuilder().maxWait(Duration.ofMillis(20)).build());
            // A newcomer enters under the new rule and gives up after 20 ms ...
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            // ... while the caller that entered before is still in line.
            assertThat(pool.stats().blocked()).isEqualTo(1);
            assertThat(patient.isAlive()).isTrue();
            blocker.open();
            patient.join();
            assertThat(thrown.get()).isNull();
        }
    }

    @Test
    void anOptionThatCannotChangeLiveIsRefusedAndNothingChanges() {
        try (WorkerPool pool = WorkerPool.create(2, opts().build())) {
            PoolOptions before = pool.options();
            PoolOptions changed = before.toBuilder().maxWait(Duration.ofMillis(5)).queueCapacity(10).build();
            assertThatThrownBy(() -> pool.reconfigure(changed))
                    .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                        assertThat(e.option()).isEqualTo("queueCapacity");
                        assertThat(e.value()).isEqualTo(10);
                    })
                    .hasMessageContaining("restart");
            assertThat(pool.options()).isSameAs(before);
            for (PoolOptions fixed : new PoolOptions[]{
                    before.toBuilder().name("other").build(),
                    before.toBuilder().virtualThreads(true).build(),
                    before.toBuilder().expiry(Duration.ofSeconds(9)).build(),
                    before.toBuilder().disablePurge(true).build(),
                    before.toBuilder().panicHandler(e -> { }).build(),
                    before.toBuilder().listener(new PoolListener() { }).build(),
                    before.toBuilder().taskDecorator(r -> r).build(),
                    before.toBuilder().threadFactory(Thread::new).build()}) {
                assertThatThrownBy(() -> pool.reconfigure(fixed)).isInstanceOf(InvalidOptionException.class);
            }
            assertThat(pool.options()).isSameAs(before);
        }
    }

    @Test
    void anInvalidValueIsRefused() {
        try (FuncPool<Object> pool = FuncPool.create(2, x -> { }, opts().build())) {
            assertThatThrownBy(() -> pool.reconfigure(pool.options().toBuilder().maxBlockingTasks(-1).build()))
                    .isInstanceOfSatisfying(InvalidOptionException.class,
                            e -> assertThat(e.option()).isEqualTo("maxBlockingTasks"));
            assertThat(pool.options().maxBlockingTasks()).isZero();
        }
    }

    @Test
    void multiPoolReconfiguresEverySubPool() throws Exception {
        try (MultiPool pool = MultiPool.create(2, 1, MultiPool.LoadBalancing.ROUND_ROBIN, opts().build())) {
            Blocker blocker = Blocker.occupy(pool, 2);
            pool.reconfigure(pool.options().toBuilder().nonblocking(true).build());
            assertThat(pool.options().nonblocking()).isTrue();
            assertThat(pool.options().name()).isEqualTo("rc");
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(PoolOverloadException.class);
            assertThatThrownBy(() -> pool.reconfigure(pool.options().toBuilder().name("x").build()))
                    .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("name"));
            blocker.open();
        }
    }

    @Test
    void validateNamesTheOptionTheValueAndTheFix() {
        assertThatThrownBy(() -> PoolOptions.builder().queueCapacity(-2).build().validate(1))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                    assertThat(e.option()).isEqualTo("queueCapacity");
                    assertThat(e.value()).isEqualTo(-2);
                    assertThat(e.fix()).contains("-1");
                });
        assertThatThrownBy(() -> PoolOptions.builder().preAlloc(true).build().validate(0))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("preAlloc"));
        assertThatThrownBy(() -> PoolOptions.builder().preAlloc(true).build().validate(Integer.MAX_VALUE))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("capacity"));
        assertThatThrownBy(() -> PoolOptions.builder().expiry(Duration.ofSeconds(-1)).build().validate(1))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("expiry"));
        assertThatThrownBy(() -> PoolOptions.builder().maxWait(Duration.ofSeconds(-1)))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("maxWait"));
        assertThatThrownBy(() -> MultiPool.create(0, 1, MultiPool.LoadBalancing.ROUND_ROBIN))
                .isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(e.option()).isEqualTo("pools"));
        PoolOptions.builder().expiry(Duration.ofSeconds(-1)).disablePurge(true).build().validate(1); // fine
    }
}
