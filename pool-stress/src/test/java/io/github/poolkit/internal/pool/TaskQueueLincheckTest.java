package io.github.poolkit.internal.pool;

import io.github.poolkit.stress.LincheckBudget;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * Lincheck linearizability check of the lock-free {@link TaskQueue} (bounded to 2, so that "full" is exercised too):
 * every concurrent history of {@code offer} and {@code poll} must match some sequential order of the same calls.
 * Model checking explores the interleavings of every shared-memory access (the index CASes, the slot writes and the
 * slot CASes); the stress strategy runs the same scenarios on real threads. Withdrawal is checked by the jcstress test
 * {@code TaskQueueWithdrawVsPoll} and by pool-core's {@code TaskQueueTest}.
 */
// values from a wide range, so that a task lost while another is delivered twice rarely looks like two correct takes
@Param(name = "task", gen = IntGen.class, conf = "1:1000")
public class TaskQueueLincheckTest {

    private final TaskQueue queue = new TaskQueue(2);

    /**
     * @param task the task to append
     * @return whether it was appended (false: full)
     */
    @Operation
    public boolean offer(@Param(name = "task") int task) {
        return queue.offer(task) >= 0;
    }

    /** @return the head, or null when empty */
    @Operation
    public Object poll() {
        return queue.poll();
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
