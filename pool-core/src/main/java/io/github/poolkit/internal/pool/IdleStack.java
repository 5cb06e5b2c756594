package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.PaddedLong;
import io.github.poolkit.internal.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The idle workers of a pool (ants' {@code workerQueue}): a lock-free LIFO stack, so that a worker going idle and a
 * caller or worker waking one never wait for a lock, and the most recently used workers are reused first while cold
 * ones sink to the bottom, where expiry finds them.
 *
 * <h2>Implementation overview</h2>
 *
 * <p>A Treiber stack of nodes made fresh for every push: a node is never pushed twice, so a compare-and-set of the top
 * cannot be fooled by a node that left and came back (no ABA; the collector reclaims nodes). A node only says "this
 * worker went idle at this time"; who owns the worker is decided on the worker itself:
 *
 * <ul>
 *   <li><b>Idle episode.</b> On its own thread, a worker clears its hand-off slot ({@link Worker#handoff} = null),
 *       then pushes a node and counts itself in {@link #size}. It then waits for its slot to be filled.</li>
 *   <li><b>Claim.</b> Whoever wants an idle worker pops nodes and, for each, tries to move the worker's slot from null
 *       to a token (a task, {@link Worker#WAKE} or {@link Worker#STOP}) with one CAS. Of all claims on one idle
 *       episode exactly one CAS succeeds; its winner subtracts the worker from {@link #size} and must then unpark it.
 *       A node whose CAS fails is dead (its worker was claimed through another path: expiry, shutdown) and is
 *       dropped.</li>
 *   <li><b>Claim in place.</b> Expiry and shutdown claim workers without popping ({@link #claimIdleSince},
 *       {@link #claimAll}); their nodes stay in the stack, dead, until a pop drops them. Only a worker's newest node
 *       ({@link Worker#idleNode}) may be claimed in place, so a stale node does not pass an old idle time for a worker
 *       idle again since (one race remains: the worker may be claimed and go idle again between the check and the
 *       CAS, and is then expired early; harmless, as expiry only retires an idle worker). The expiry then cuts the
 *       dead nodes below the deepest live one off the stack, which pops in a pool with a queue never reach.</li>
 * </ul>
 *
 * <p>{@link #size} is exact once pushes and claims in flight have finished: +1 per idle episode, -1 per successful
 * claim. Readers that race with it (an appender deciding whether to wake someone) re-check after writing what the
 * other side reads, as the pool's protocol prescribes ({@link PoolCore}).
 */
final class IdleStack {

    /**
     * "Went idle at {@code since}": a record in the stack, immutable but for {@code next}, which only the expiry sets
     * to null, below the deepest node that may lead to an idle worker ({@link #claimIdleSince}). A reader sees the old
     * link or null, both fine: what the link led to is dead.
     */
    static final class Node {
        final Worker worker;
        final long since;
        Node next;

        Node(Worker worker, long since, Node next) {
            this.worker = worker;
            this.since = since;
            this.next = next;
        }
    }

    private static final VarHandle TOP = VarHandles.field(MethodHandles.lookup(), "top", Node.class);

    private volatile Node top;
    /** Idle workers not yet claimed. */
    private final PaddedLong size = new PaddedLong();

    /** {@return idle workers not yet claimed (a racy snapshot)} */
    int size() {
        return (int) size.get();
    }

    /**
     * Puts worker {@code w} in the stack, on its own thread; its slot must already be clear.
     *
     * @param w         the worker going idle
     * @param nowNanos  when, in {@link System#nanoTime()} terms
     */
    void push(Worker w, long nowNanos) {
        for (Node t; ; ) {
            t = top;
            Node n = new Node(w, nowNanos, t);
            w.idleNode = n;
            if (TOP.compareAndSet(this, t, n)) {
                break;
            }
        }
        // Counted once linked, so that a reader that sees it counted finds the node (a claim that pops it first makes
        // the count dip below the truth for an instant, never above).
        size.increment();
    }

    /** {@return the most recently idle worker, or null (a racy snapshot: it may be claimed or dead already)} */
    Worker peek() {
        Node t = top;
        return t == null ? null : t.worker;
    }

    /**
     * Claims the most recently idle worker with {@code token}; the caller must then {@link Worker#wake wake} it.
     *
     * @return the worker, or null when none is idle
     */
    Worker claim(Object token) {
        for (Node t; (t = top) != null; ) {
            if (TOP.compareAndSet(this, t, t.next) && claimWorker(t.worker, token)) {
                return t.worker;
            }
        }
        return null;
    }

    /**
     * Claims, with {@code token}, every idle worker idle since before {@code deadlineNanos}, oldest first; the caller
     * wakes them. Then cuts the dead nodes off the bottom of the stack: a pool with a queue pops only while it counts
     * an idle worker, so it never reaches them, and they would pile up with every worker retired (each holding its
     * worker and thread) and lengthen this walk. One caller at a time (the pool's lock).
     *
     * <p>Why the cut never hides an idle worker: a node is kept if it is its worker's newest and the worker can be
     * claimed; whatever is below the deepest such node was judged otherwise, and stays so, since a worker whose node
     * is not its newest, or that cannot be claimed (running, retired), becomes claimable again only by pushing a new
     * node above all of these. With no node kept, the whole stack is dropped unless a push came meanwhile.
     */
    List<Worker> claimIdleSince(long deadlineNanos, Object token) {
        List<Worker> claimed = new ArrayList<>();
        Node first = top;
        Node keep = null;
        for (Node n = first; n != null; n = n.next) {
            boolean newest = n.worker.idleNode == n;
            if (n.since - deadlineNanos < 0 && newest && claimWorker(n.worker, token)) {
                claimed.add(n.worker);
            } else if (newest && n.worker.claimable()) {
                keep = n;
            }
        }
        if (keep != null) {
            if (keep.next != null) {
                keep.next = null; // a pop that read the old link drops the dead nodes one by one, as before
            }
        } else if (first != null) {
            TOP.compareAndSet(this, first, null);
        }
        return claimed.reversed();
    }

    /** {@return the nodes linked now, dead ones included (for tests)} */
    int linked() {
        int count = 0;
        for (Node n = top; n != null; n = n.next) {
            count++;
        }
        return count;
    }

    /** Claims every idle worker with {@code token}; the caller wakes them. */
    List<Worker> claimAll(Object token) {
        List<Worker> claimed = new ArrayList<>();
        for (Worker w; (w = claim(token)) != null; ) {
            claimed.add(w);
        }
        return claimed;
    }

    private boolean claimWorker(Worker w, Object token) {
        if (w.claim(token)) {
            size.decrement();
            return true;
        }
        return false;
    }
}
