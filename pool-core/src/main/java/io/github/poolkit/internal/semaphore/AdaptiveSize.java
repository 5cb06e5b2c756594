package io.github.poolkit.internal.semaphore;

import io.github.poolkit.AdaptiveLimit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.internal.limit.LimitFollowing;
import io.github.poolkit.internal.limit.WeightedSamples;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * A semaphore's size following an {@link AdaptiveLimit}: each permit closed is a sample (its hold time, the permits
 * in use before it was given back, not dropped), after which the semaphore is resized when the limit changed. Exists
 * only in an adaptive semaphore.
 *
 * <p>Invariant: after the last sample of any burst has been handled, the size equals {@code limit.limit()}
 * ({@link LimitFollowing}). No lock or monitor is held here: a resize may complete futures of waiting requests, whose
 * dependent stages then run in the resizing thread, and another thread's close must not wait for them.
 */
public final class AdaptiveSize {

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private final AdaptiveLimit limit;
    /** The semaphore's size and its resize, made once: the limit is followed after every sample. */
    private final LongSupplier size;
    private final IntConsumer resize;

    /**
     * @param limit     the limit to follow
     * @param semaphore the semaphore to resize
     */
    public AdaptiveSize(AdaptiveLimit limit, PermitSemaphore semaphore) {
        this.limit = limit;
        this.size = semaphore::size;
        this.resize = semaphore::resize;
    }

    /**
     * {@return the size the semaphore starts with: the limit's current value, at least 1} Never 0, as a pool's
     * capacity never is: at size 0 no permit is ever granted, so none closes to feed the limit a sample that would
     * move it again.
     */
    public long initial() {
        return Math.max(1, limit.limit());
    }

    /**
     * Feeds one sample: {@code n} permits held for {@code holdNanos}, with {@code inUse} permits in use before their
     * release. poolkit's own limits weigh it by {@code n} ({@link WeightedSamples}); another gets one plain sample.
     *
     * @param holdNanos how long the permits were held
     * @param inUse     the permits in use before the release, the released ones included
     * @param n         the permits released
     */
    public void released(long holdNanos, long inUse, long n) {
        try {
            if (limit instanceof WeightedSamples weighted) {
                weighted.onSample(Math.max(1, holdNanos), inUse, false, n);
            } else {
                limit.onSample(Math.max(1, holdNanos), (int) Math.min(Integer.MAX_VALUE, inUse), false);
            }
            LimitFollowing.follow(limit, 1, size, resize); // a limit below 1 is ignored (see initial())
        } catch (Throwable e) { // an application's limit: never thrown from Permit.close(), as a pool's is not
            LOG.log(System.Logger.Level.WARNING, "the adaptive limit of a semaphore threw", e);
        }
    }
}
