package io.github.poolkit.internal.pool;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOverloadException;

import java.util.function.Supplier;

/**
 * A caller that the lock-free path ({@link QueuedPath}, {@link HandOffPath}, {@link UnpooledPath}) could not serve:
 * under the pool's lock it queues its task, hands it to an idle worker or starts a worker for it, in that order of
 * preference, else is refused or joins the {@link CallerLine} and waits, as the pool's {@link WaitRules} say.
 *
 * <p>Order: only the caller whose turn it is ({@link CallerLine#isTurnOf}: first in line, or nobody in line) may take
 * room, so no caller overtakes one already waiting. A caller that joins the line looks again before it parks, since a
 * worker may have gone idle, or polled, before it could see the caller (invariant 4 of {@link PoolCore}); while it
 * waits, a finishing worker may take its task ({@link BlockedCaller#taken}), and then the task is accepted. A caller
 * that gives up leaves the line under the lock unless its task was taken, so a task is run or refused, never both; a
 * caller in line when the pool closes has been taken out of it, refused ({@link CallerLine#refuseAll}).
 */
final class LockedAdmission {

    private final PoolCore core;
    /** The wait rules in force, read once by each caller that cannot be served at once. */
    private final Supplier<WaitRules> waitRules;

    LockedAdmission(PoolCore core, Supplier<WaitRules> waitRules) {
        this.core = core;
        this.waitRules = waitRules;
    }

    /** Decides under the lock (see {@link PoolEngine#execute(Object, long)} for what it throws). */
    void admit(Object task, long timeoutNanos) {
        WaitRules rules = waitRules.get(); // read once: the caller keeps the rules it entered with
        Worker toStart = null;
        Worker toWake = null;
        boolean appended = false;
        long waitNanos = rules.waitNanosFor(timeoutNanos);
        long deadline = CallerLine.NO_DEADLINE;
        BlockedCaller me = null;
        CallerLine line = core.line;
        TaskQueue queue = core.queue;
        core.lock.lock();
        try {
            for (;;) {
                if (me != null) {
                    if (me.taken) {
                        return; // a finishing worker took the task (invariant 4)
                    }
                    if (me.refused) {
                        throw closed(); // blocked when the pool closed, whether or not it is open again now
                    }
                    me.woken = false; // before looking: a wake-up from now on is not lost (BlockedCaller#woken)
                }
                if (core.state != PoolCore.State.OPEN) {
                    throw closed();
                }
                boolean myTurn = line.isTurnOf(me); // FIFO: nobody overtakes a caller in line
                if (queue != null) {
                    // Behind queued tasks, or for an idle worker, or because no worker can start: the queue.
                    if (myTurn && (core.idle.size() > 0 || !queue.isEmpty() || !core.hasRoom())
                            && queue.offer(task, me == null ? TaskQueue.NOW : me.acceptedAt) >= 0) {
                        appended = true;
                        break;
                    }
                } else if (myTurn && (toWake = core.idle.claim(task)) != null) {
                    break;
                }
                if (myTurn && (toStart = core.reserveWorker(task)) != null) {
                    break; // (unpooled workers give places back, and callers take them, without the lock: one CAS)
                }
                if (me == null) {
                    String refusal = rules.refusal(waitNanos, line.size());
                    if (refusal != null) {
                        throw new PoolOverloadException(overloaded(refusal));
                    }
                    if (waitNanos != WaitRules.NO_LIMIT) {
                        deadline = System.nanoTime() + waitNanos;
                    }
                    me = line.join(task, core.watchesQueue() ? System.nanoTime() : TaskQueue.UNWATCHED);
                    core.lineChanged();
                    continue; // look again: a worker may have gone idle or polled before it could see us (invariant 4)
                }
                if (!line.await(me, deadline) && !me.refused) {
                    throw new PoolOverloadException(overloaded(rules.timedOut(waitNanos)));
                }
            }
        } finally {
            if (me != null) {
                line.leave(me); // no-op once taken: then the task is accepted
                core.lineChanged();
            }
            core.lock.unlock();
        }
        if (toWake != null) {
            toWake.wake();
        } else if (toStart != null) {
            core.launch.forCaller(toStart);
        } else if (appended) {
            core.queued.signalWork();
        }
    }

    private PoolClosedException closed() {
        return new PoolClosedException("pool '" + core.name() + "' is closed: it takes no new tasks"
                + " (reboot() reopens it)");
    }

    private String overloaded(String why) {
        String queueNote = core.queue == null ? "" : " and its queue of " + core.queueCapacity + " is full";
        return "pool '" + core.name() + "' is overloaded: all " + core.capacity() + " workers are busy" + queueNote
                + " and " + why + "; retry later, raise the capacity or add a queue (queueCapacity)";
    }
}
