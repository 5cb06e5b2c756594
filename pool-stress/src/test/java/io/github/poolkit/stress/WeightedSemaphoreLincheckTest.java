package io.github.poolkit.stress;

import io.github.poolkit.WeightedSemaphore;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Lincheck linearizability check of {@link WeightedSemaphore}'s non-blocking operations: every concurrent history of
 * {@code tryAcquire}, {@code tryAcquire} with a zero timeout (documented to behave as {@code tryAcquire}),
 * {@code release} (including releases of more than is held, which must throw {@link IllegalStateException} and
 * change nothing), {@code resize} (grow and shrink, also below what is in use), {@code size}, {@code used},
 * {@code available} and {@code waiting} must be explainable by some sequential order of the same calls on one
 * semaphore. With {@code resize} in the mix this checks that the lock-free fast paths never grant against a size
 * that a completed resize has already replaced.
 *
 * <p>Two strategies: model checking (Lincheck explores thread switches at every shared access, including the lock-free
 * fast paths' CAS loops, systematically) and stress (real threads, for what the model does not cover, such as JIT
 * reorderings). Blocking and asynchronous requests are left out on purpose: a request waiting in line is visible state
 * (it stops {@code tryAcquire} from barging), so a history with a transient waiter has no atomic sequential
 * equivalent; those races are covered by the jcstress tests {@code SemaphoreAsyncCancelVsGrant} and
 * {@code SemaphoreTryAcquireVsAcquireAsync}.
 *
 * <p>The class is public because Lincheck instantiates it and calls the operations reflectively.
 */
@Param(name = "n", gen = IntGen.class, conf = "0:3")
public class WeightedSemaphoreLincheckTest {

    private final WeightedSemaphore semaphore = new WeightedSemaphore(3);

    /**
     * @param n permits
     * @return whether they were acquired
     */
    @Operation
    public boolean tryAcquire(@Param(name = "n") int n) {
        return semaphore.tryAcquire(n);
    }

    /**
     * @param n permits
     * @return whether they were acquired
     * @throws InterruptedException never: a zero timeout does not wait
     */
    @Operation
    public boolean tryAcquireWithZeroTimeout(@Param(name = "n") int n) throws InterruptedException {
        return semaphore.tryAcquire(n, Duration.ZERO);
    }

    /** @param n permits to give back; more than held throws {@link IllegalStateException} */
    @Operation
    public void release(@Param(name = "n") int n) {
        semaphore.release(n);
    }

    /** @param size the new size; below what is in use takes nothing back */
    @Operation
    public void resize(@Param(name = "n") int size) {
        semaphore.resize(size);
    }

    /** @return the current size */
    @Operation
    public long size() {
        return semaphore.size();
    }

    /** @return permits in use */
    @Operation
    public long used() {
        return semaphore.used();
    }

    /** @return free permits */
    @Operation
    public long available() {
        return semaphore.available();
    }

    /** @return requests in line: always 0 here, as nothing blocks */
    @Operation
    public int waiting() {
        return semaphore.waiting();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void modelChecking() {
        LincheckBudget.modelCheck(getClass());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void stress() {
        LincheckBudget.stress(getClass());
    }
}
