package io.github.poolkit.redis;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: every holder that hangs an action on a lease's {@code Permit.lost()} hears of the loss, on the
 * completions executor, through one relay per lease. Two holders ask for the stage, one of them on the thread that
 * then marks the lease lost ({@code LostSignal.signal()}, as the heartbeat does): the stages handed out before the
 * loss share the relay that one CAS installs, which the signal hands to the executor as one task; a stage handed out
 * after the loss is complete already. The executor only queues its tasks; the arbiter runs them.
 *
 * <p>r1: tasks handed to the executor. r2: stages complete before those tasks ran (only one handed out after the
 * loss may be). r3: stages complete after they ran.
 */
@JCStressTest
@Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "both asked before the loss: one relay, completed on the executor")
@Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "one asked after the loss: its stage was complete already")
@Outcome(expect = FORBIDDEN, desc = "a holder never told, told on the signalling thread, or one relay per holder")
@State
public class RedisLostStagesVsSignal {

    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final LostSignal lost = new LostSignal(tasks::add);
    /** Written by their actors; read by the arbiter only. */
    private CompletableFuture<Void> first;
    private CompletableFuture<Void> second;

    /** A holder hangs an action on lost(). */
    @Actor
    public void holder() {
        first = lost.minimalCompletionStage().toCompletableFuture();
    }

    /** Another holder does too, then the lease is found lost on this thread. */
    @Actor
    public void holderThenLoss() {
        second = lost.minimalCompletionStage().toCompletableFuture();
        lost.signal();
    }

    /** Counts the executor's tasks and the stages complete, then runs the tasks and counts again. */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = tasks.size();
        r.r2 = done();
        tasks.forEach(Runnable::run);
        r.r3 = done();
    }

    private int done() {
        return (first.isDone() ? 1 : 0) + (second.isDone() ? 1 : 0);
    }
}
