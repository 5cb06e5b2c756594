package io.github.poolkit.stress;

import io.github.poolkit.PoolListener;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.WorkerPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a task given to {@code submit} is counted, and its pool's listener told, before its future completes, so
 * a thread that sees the future done also sees both (a meter fed by the listener, {@code stats()} right after
 * {@code get()}). The task throws; the worker counts it as failed and tells the listener inside the future's own
 * completion, while the actor watches the future from another thread.
 *
 * <p>r1: 1 if the listener had been told when the actor saw the future done, 0 if not ({@link Quiesce#STUCK} if the
 * future did not complete in time). (The count is told in the same step, before the listener; a shared pool's counts
 * cannot tell this state's task from the others', so {@code SubmittedTaskCountsTest} checks them, one task at a time.)
 */
@JCStressTest
@Outcome(id = "1", expect = ACCEPTABLE, desc = "told before the future completed")
@Outcome(expect = FORBIDDEN, desc = "the future was done before its listener was told, or it hung")
@State
public class SubmittedTaskToldBeforeDone {

    /** The task's failure, which the listener marks as heard: it tells this state's task from the others. */
    static final class Failure extends RuntimeException {
        /** Written by the worker's listener; read by the actor after it saw the future done (no other ordering). */
        boolean told;

        Failure() {
            super("expected by the test", null, false, false);
        }
    }

    /** Shared by the states of a fork: a pool per state would measure thread start-up instead of the race. */
    private static final WorkerPool POOL = WorkerPool.create(2, PoolOptions.builder()
            .name("jcs-told")
            .threadFactory(Thread.ofPlatform().daemon().name("jcs-told-", 1).factory())
            .listener(new PoolListener() {
                @Override
                public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                    if (failure instanceof Failure f) {
                        f.told = true;
                    }
                }
            })
            .build());

    private final Failure failure = new Failure();
    private final Future<?> future = POOL.submit(() -> {
        throw failure;
    });

    /** Watches the future; as soon as it is done, reads whether the listener was told. */
    @Actor
    public void watch(I_Result r) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Quiesce.TIMEOUT_SECONDS);
        while (!future.isDone()) {
            if (System.nanoTime() - deadline > 0) {
                r.r1 = Quiesce.STUCK;
                return;
            }
            Thread.onSpinWait();
        }
        r.r1 = failure.told ? 1 : 0;
    }
}
