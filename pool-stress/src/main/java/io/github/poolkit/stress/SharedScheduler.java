package io.github.poolkit.stress;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PoolOptions;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link DelayScheduler} shared by the scheduler tests of one jcstress fork: creating a scheduler (a timer thread
 * and a pool) per test state would measure thread start-up instead of the races under test. It has one worker, so
 * jobs handed to its pool run one at a time, in the order they were handed over, which {@link #drain()} relies on.
 * A test that shuts its scheduler down makes its own, the same way, with {@link #create}.
 *
 * <p>Guarantee: the schedulers' threads are daemons, so they never keep a fork alive.
 */
final class SharedScheduler {

    static final DelayScheduler INSTANCE = create("jcs-scheduler");

    private SharedScheduler() {
    }

    /**
     * @param name the scheduler's name, which also names its threads ({@code <name>-1}, ...)
     * @return a new scheduler of one worker, on daemon threads
     */
    static DelayScheduler create(String name) {
        return DelayScheduler.create(1, PoolOptions.builder()
                .name(name)
                .threadFactory(Thread.ofPlatform().daemon().name(name + "-", 1).factory())
                .build());
    }

    /**
     * Waits until every job handed to the pool before this call has run (or been skipped because it was cancelled):
     * hands the single worker a marker job and waits for it, in FIFO order behind them.
     *
     * @return whether the marker ran within {@link Quiesce#TIMEOUT_SECONDS}
     */
    static boolean drain() {
        try {
            INSTANCE.scheduleOnce(() -> { }, Duration.ZERO).get(Quiesce.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }
}
