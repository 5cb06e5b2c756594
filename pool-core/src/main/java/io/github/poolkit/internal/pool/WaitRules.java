package io.github.poolkit.internal.pool;

import io.github.poolkit.internal.Durations;
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

    /** {@return the rules the options give} */
    static WaitRules of(PoolOptions options) {
        Duration maxWait = options.maxWait();
        return new WaitRules(options.nonblocking(), options.maxBlockingTasks(),
                maxWait == null ? NO_LIMIT : Durations.toNanosSaturated(maxWait));
    }

    /**
     * @param callerTimeoutNanos a limit of the caller's own (a timed {@code invokeAll}), or {@link #NO_LIMIT}
     * @return the longest this caller may wait: the smaller of {@code maxWait} and its own limit
     */
    long waitNanosFor(long callerTimeoutNanos) {
        return Math.min(maxWaitNanos, Math.max(0, callerTimeoutNanos));
    }

    /**
     * @param waitNanos what {@link #waitNanosFor} gave the caller
     * @param inLine    callers already waiting
     * @return why a caller that the pool cannot serve now must not wait, or null if it may join the line
     */
    String refusal(long waitNanos, int inLine) {
        if (nonblocking) {
            return "the pool is nonblocking";
        }
        if (waitNanos == 0) {
            return waitNanos == maxWaitNanos ? "maxWait is 0 (do not wait)" : "the call's own time limit has run out"
                    + " (a timed invokeAll or invokeAny, or a multi-pool's maxWait, spent on its first try)";
        }
        if (maxBlockingTasks > 0 && inLine >= maxBlockingTasks) {
            return inLine + " callers are already blocked (maxBlockingTasks)";
        }
        return null;
    }

    /** {@return why a caller that waited {@code waitNanos} in vain was refused} */
    String timedOut(long waitNanos) {
        String waited = Duration.ofNanos(waitNanos).toString().substring(2).toLowerCase();
        return "the caller waited " + waited + (waitNanos == maxWaitNanos ? " (maxWait)"
                : " (the call's own time limit: a timed invokeAll or invokeAny, or a multi-pool's maxWait)");
    }
}
