package io.github.poolkit.abuse;

import io.github.poolkit.FuncPool;
import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Abuse of {@link FuncPool}'s public entry points: null, zero, negative and huge values, calls after release. */
@Timeout(20)
class FuncPoolAbuseTest {

    @Test
    void nullFunctionAndOptionsAreRejected() {
        assertThatThrownBy(() -> FuncPool.create(1, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("function");
        assertThatThrownBy(() -> FuncPool.create(1, x -> { }, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aNullArgumentIsPassedToTheFunctionAsIs() throws Exception {
        List<Object> seen = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(2);
        try (FuncPool<String> pool = FuncPool.create(1, s -> {
            seen.add(s == null ? "<null>" : s);
            done.countDown();
        })) {
            pool.invoke(null);
            pool.invoke("x");
            assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(seen).containsExactlyInAnyOrder("<null>", "x");
    }

    @Test
    void zeroNegativeAndHugeCapacities() throws Exception {
        try (FuncPool<Integer> unlimited = FuncPool.create(0, x -> { });
             FuncPool<Integer> negative = FuncPool.create(-7, x -> { });
             FuncPool<Integer> huge = FuncPool.create(Integer.MAX_VALUE, x -> { })) {
            assertThat(unlimited.capacity()).isEqualTo(-1);
            assertThat(negative.capacity()).isEqualTo(-1);
            assertThat(huge.capacity()).isEqualTo(Integer.MAX_VALUE);
            huge.tune(0);
            huge.tune(-1);
            assertThat(huge.capacity()).isEqualTo(Integer.MAX_VALUE);
            unlimited.tune(3);
            assertThat(unlimited.capacity()).isEqualTo(-1);
        }
    }

    @Test
    void invokeOnAReleasedPoolFailsAndLifecycleCallsAreHarmless() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        FuncPool<String> pool = FuncPool.create(1, s -> ran.countDown());
        pool.release();
        assertThatThrownBy(() -> pool.invoke("late")).isInstanceOf(PoolClosedException.class);
        assertThatCode(() -> {
            pool.release();
            pool.tune(4);
            pool.close();
        }).doesNotThrowAnyException();
        assertThatThrownBy(() -> pool.releaseTimeout(Duration.ofSeconds(1))).isInstanceOf(PoolClosedException.class);
        assertThatThrownBy(() -> pool.releaseTimeout(null)).isInstanceOf(NullPointerException.class);
        assertThat(pool.running()).isZero();
        assertThat(pool.waiting()).isZero();
        assertThat(ran.getCount()).as("the rejected argument never reached the function").isEqualTo(1);

        pool.reboot();
        pool.invoke("again");
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        pool.close();
    }

    @Test
    void hugePreAllocFailsWithAClearMessage() {
        assertThatThrownBy(() -> FuncPool.create(Integer.MAX_VALUE, x -> { },
                PoolOptions.builder().preAlloc(true).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("preAlloc");
    }
}
