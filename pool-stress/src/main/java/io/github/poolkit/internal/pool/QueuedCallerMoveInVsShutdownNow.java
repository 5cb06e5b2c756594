package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOptions;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee (invariant 4 of {@link PoolCore}): a blocked caller whose task a worker moves into the queue slot it has
 * just freed, while {@code shutdownNow} stops the pool, is accepted exactly when its task got into the queue: its
 * {@code execute} returns and {@code shutdownNow} hands the task back, or it is refused with
 * {@link PoolClosedException} and its task is neither handed back, nor run, nor left in the queue. Every queued task is
 * taken or handed back once, in queue order, the caller's behind them. The worker moves the caller in
 * ({@link QueuedPath#moveHeadCallerIn}) under the pool's lock: it checks that the pool is open and the caller still in
 * line, appends its task and serves it (marked taken) in one step; {@code shutdownNow}
 * ({@link PoolLifecycle#transitionTo}) closes the pool, takes every caller out of the line refused and drains the queue
 * in one step under the same lock. One of the two comes first.
 *
 * <p>A pool of one worker, held busy, and a queue of two, full (tasks 1 and 2); a caller (task 3), on a thread of its
 * own, is blocked in line before the actors start (parked, as is the held worker: no thread beyond the two actors
 * runs). One actor stands in for a worker whose task has just ended: it takes the head of the queue without the lock,
 * as a busy worker does ({@link QueuedPath#poll}: it takes, then moves the caller in); the other stops the pool.
 *
 * <p>r1: the task the worker took (1 or 2; 0 if it found the queue drained). r2: 1 if the caller's {@code execute}
 * returned (accepted), 0 if it was refused with {@link PoolClosedException}, 2 if it failed otherwise, -1 if it had not
 * returned within 30 s. r3: how many times the caller's task was handed back, ran or was left in the queue, once the
 * pool terminated. r4: 1 if tasks 1 and 2 were each taken or handed back exactly once (never run, none left) and
 * {@code shutdownNow} handed its tasks back in queue order, else 0 (-1 if the pool did not terminate in 30 s).
 */
@JCStressTest
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "moved in first: accepted, handed back behind task 2")
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "head taken, then stopped before the move: refused")
@Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "stopped first: tasks 1 and 2 handed back, the caller refused")
@Outcome(id = "2, 0, 0, 1", expect = ACCEPTABLE, desc = "the drain took task 1, the worker task 2: refused")
@Outcome(expect = FORBIDDEN, desc = "a refused task handed back or left queued, an accepted one lost, a task doubled"
        + " or out of order, or the caller stuck")
@State
public class QueuedCallerMoveInVsShutdownNow {

    private static final long TIMEOUT_SECONDS = 30;

    /** A test task: its place in the order of submission, and its runs. */
    static final class Numbered implements Runnable {
        final int place;
        final AtomicInteger runs = new AtomicInteger();

        Numbered(int place) {
            this.place = place;
        }

        @Override
        public void run() {
            runs.incrementAndGet();
        }
    }

    private final PoolOptions options = PoolOptions.builder().name("jcs-move-in").queueCapacity(2)
            .disablePurge(true).build();
    private final TaskRunner runner = new TaskRunner(options, task -> ((Runnable) task).run(), null);
    private final PoolCore core = new PoolCore(1, options, WorkerThreads.of(options), runner,
            () -> WaitRules.of(options));
    private final CountDownLatch gate = new CountDownLatch(1);
    private final Numbered first = new Numbered(1);
    private final Numbered second = new Numbered(2);
    private final Numbered callers = new Numbered(3);
    /** The caller's answer (see r2); -1 until its {@code execute} returns. */
    private final AtomicInteger answer = new AtomicInteger(-1);
    private final Thread caller;
    /** What the worker actor took from the queue. */
    private Object taken;
    /** What {@code shutdownNow} handed back. */
    private List<Object> handedBack = List.of();

    /**
     * Holds the only worker at the gate, fills the queue, and starts the caller; then waits (a bounded spin) until the
     * caller is in line.
     */
    public QueuedCallerMoveInVsShutdownNow() {
        CountDownLatch held = gate;
        core.admit(runner.carry((Runnable) () -> awaitGate(held)), WaitRules.NO_LIMIT);
        core.admit(runner.carry(first), WaitRules.NO_LIMIT); // queued: no worker idle, and no room to start one
        core.admit(runner.carry(second), WaitRules.NO_LIMIT);
        PoolCore pool = core;
        Object task = runner.carry(callers);
        AtomicInteger told = answer;
        caller = Thread.ofVirtual().name("jcs-move-in-caller").start(() -> told.set(execute(pool, task)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (core.blockedCallers() == 0 && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait(); // if it is not in line in time, the race is with a caller on its way: still valid
        }
    }

    /** The held worker's task: waits at the gate, or until {@code shutdownNow} interrupts it. */
    private static void awaitGate(CountDownLatch gate) {
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The caller: blocks in line (the queue is full, no room for a worker) until served or refused. */
    private static int execute(PoolCore pool, Object task) {
        try {
            pool.admit(task, WaitRules.NO_LIMIT);
            return 1;
        } catch (PoolClosedException e) {
            return 0;
        } catch (RuntimeException e) {
            return 2;
        }
    }

    /** A worker whose task ended: takes the head of the queue without the lock, then moves the caller in. */
    @Actor
    public void worker(IIII_Result r) {
        Object task = core.mayTakeLockFree() ? core.queued.poll() : null; // as QueuedPath#pollSpinning
        taken = task;
        r.r1 = task instanceof Numbered n ? n.place : 0;
    }

    /** shutdownNow: stops the pool, refuses the callers in line and drains the queue, in one step under the lock. */
    @Actor
    public void shutdownNow() {
        List<Object> drained = core.lifecycle.transitionTo(PoolCore.State.STOP);
        handedBack = drained == null ? List.of() : drained;
    }

    /** Lets the held worker go, waits for the caller and for termination, then accounts for every task. */
    @Arbiter
    public void arbiter(IIII_Result r) {
        gate.countDown();
        try {
            boolean returned = caller.join(Duration.ofSeconds(TIMEOUT_SECONDS));
            r.r2 = returned ? answer.get() : -1;
            if (!returned) {
                caller.interrupt(); // stuck in line: let it give up
            }
            boolean terminated = core.termination.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<Object> left = new ArrayList<>();
            for (Object task; (task = core.queue.poll()) != null; ) {
                left.add(task);
            }
            r.r3 = fate(callers, left);
            r.r4 = !terminated ? -1 : (fate(first, left) == 1 && fate(second, left) == 1 && inQueueOrder() ? 1 : 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            r.r4 = -1;
        }
    }

    /** {@return how many times {@code task} was taken by the worker actor, handed back, run or left in the queue} */
    private int fate(Numbered task, List<Object> left) {
        return (taken == task ? 1 : 0) + count(handedBack, task) + task.runs.get() + count(left, task);
    }

    private static int count(List<Object> tasks, Object task) {
        int n = 0;
        for (Object t : tasks) {
            if (t == task) {
                n++;
            }
        }
        return n;
    }

    /** {@return whether {@code shutdownNow} handed its tasks back in the order they were queued} */
    private boolean inQueueOrder() {
        int last = 0;
        for (Object t : handedBack) {
            if (!(t instanceof Numbered n) || n.place <= last) {
                return false;
            }
            last = n.place;
        }
        return true;
    }
}
