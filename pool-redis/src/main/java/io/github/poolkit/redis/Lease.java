package io.github.poolkit.redis;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A grant this instance holds, as Redis knows it: renewed by the heartbeat until it is released or lost.
 *
 * <p>{@code weight} changes only for a handle-less lease ({@link RedisPermitSemaphore#release(long)} may give part of
 * it back), and only under {@link BatchedRelease}'s lock.
 *
 * <p>Invariant: {@code state} moves HELD -> CLOSED (its Permit was closed), HELD -> LOST (a renewal found it gone, or
 * Redis confirmed no renewal for longer than the lease time) or CLOSED -> LOST (the release itself found it expired),
 * each by one CAS, so it enters LOST at most once and {@code lost} is completed by that one transition only. A lease
 * that is LOST is never renewed again: the holder was told, and Redis gives its permits back (once: by lease id).
 */
final class Lease {

    private static final int HELD = 0;
    private static final int CLOSED = 1;
    private static final int LOST = 2;

    final String id;
    final long token;
    /** Whether it was taken without a {@code Permit} (acquire/tryAcquire), so that release(n) may give it back. */
    final boolean handleLess;
    long weight;
    /**
     * When Redis last confirmed it (System.nanoTime when the acquire or renewal that Redis answered was sent; for a
     * grant made while it waited in line, when the last call that found it still in line was sent).
     */
    volatile long confirmedNanos;
    /** The Permit's lost signal: completed once, by the transition to LOST, when this lease is known lost. */
    final LostSignal lost;
    private final AtomicInteger state = new AtomicInteger(HELD);

    /**
     * The lease of a granted request: the request's id, weight and handle-less mark, and the token of the grant.
     *
     * @param confirmedNanos when Redis confirmed the grant (System.nanoTime)
     * @param completions    where the actions that holders hang on the Permit's {@code lost()} run, so that they
     *                       never run on the heartbeat or on Redis's I/O thread ({@link LostSignal})
     */
    Lease(Request granted, long token, long confirmedNanos, Executor completions) {
        this.id = granted.id;
        this.weight = granted.weight;
        this.handleLess = granted.handleLess;
        this.token = token;
        this.confirmedNanos = confirmedNanos;
        this.lost = new LostSignal(completions);
    }

    /** {@return whether its Permit was closed first, before any loss was known} (false: it was lost already) */
    boolean close() {
        return state.compareAndSet(HELD, CLOSED);
    }

    /**
     * Marks it lost while held or while its release runs; only the first call wins, and signals the loss at once
     * (the Permit's {@code isValid()} is {@code false} from now on).
     *
     * @return whether this call marked it (false: closed and released, or lost already)
     */
    boolean markLost(boolean byRelease) {
        if (!state.compareAndSet(byRelease ? CLOSED : HELD, LOST)) {
            return false;
        }
        lost.signal();
        return true;
    }
}
