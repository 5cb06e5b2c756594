package io.github.poolkit.redis;

/**
 * A grant this instance holds, as Redis knows it: renewed by the heartbeat until it is released or lost.
 *
 * <p>{@code weight} changes only for a handle-less lease ({@link RedisPermitSemaphore#release(long)} may give part of
 * it back), and only under that method's lock.
 */
final class Lease {

    final String id;
    final long token;
    /** Whether it was taken without a {@code Permit} (acquire/tryAcquire), so that release(n) may give it back. */
    final boolean handleLess;
    long weight;

    Lease(String id, long weight, long token, boolean handleLess) {
        this.id = id;
        this.weight = weight;
        this.token = token;
        this.handleLess = handleLess;
    }
}
