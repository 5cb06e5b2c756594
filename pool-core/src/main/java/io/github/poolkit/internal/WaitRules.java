package io.github.poolkit.internal;

import io.github.poolkit.PoolOptions;

import java.time.Duration;

/**
 * What a caller may do when the pool cannot take its task at once: fail ({@code nonblocking}), or join the line of
 * blocked callers if it is not full ({@code maxBlockingTasks}) and wait there at most {@code maxWaitNanos}. Immutable,
 * so that the pool can swap all three in one volatile write when it is reconfigured; a caller reads them once, when
 * it enters {@code execute}, and keeps them while it waits.
 *
 * @param nonblocking      whether to fail instead of waiting
 * @param maxBlockingTasks the most callers waiting at once, 0 for no limit
 * @param maxWaitNanos     the longest wait, {@link #NO_LIMIT} for none; 0 fails at once, as {@code nonblocking}
 */
record WaitRules(boolean nonblocking, int maxBlockingTasks, long maxWaitNanos) {

    /** A wait without limit. */
    static final long NO_LIMIT = Long.MAX_VALUE;

    /** @return the rules the options give */
    static WaitRules of(PoolOptions options) {
        Duration maxWait = options.maxWait();
        return new WaitRules(options.nonblocking(), options.maxBlockingTasks(),
                maxWait == null ? NO_LIMIT : PoolEngine.saturatedNanos(maxWait));
    }

    /**
     * @param callerTimeoutNanos a limit of the caller's own (a timed {@code invokeAll}), or {@link #NO_LIMIT}
     * @return the longest this caller may wait: the smaller of {@code maxWait} and its own limit
     */
    long waitNanosFor(long callerTimeoutNanos) {
        return Math.min(maxWaitNanos, Math.max(0, callerTimeoutNanos));
    }
}
