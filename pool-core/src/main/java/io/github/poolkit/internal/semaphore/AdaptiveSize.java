package io.github.poolkit.internal.semaphore;

import io.github.poolkit.AdaptiveLimit;
import io.github.poolkit.PermitSemaphore;

/**
 * A semaphore's size following an {@link AdaptiveLimit}: each permit closed is a sample (its hold time, the permits
 * in use before it was given back, not dropped), after which the semaphore is resized when the limit changed. Exists
 * only in an adaptive semaphore.
 *
 * <p>Invariant: after the last sample of any burst has been handled, the size equals {@code limit.limit()}. Every
 * sample is followed by a comparison of the limit with the size, and a thread that resizes reads the limit again after
 * its resize and resizes again if it moved: so whoever resizes last then saw the limit equal to what it set, and any
 * later sample's comparison finds a difference (a resize to a limit read just before another sample moved it is
 * corrected by the same thread). No lock or monitor is held here:
 * a resize may complete futures of waiting requests, whose dependent stages then run in the resizing thread, and
 * another thread's close must not wait for them.
 */
public final class AdaptiveSize {

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private final AdaptiveLimit limit;
    private final PermitSemaphore semaphore;

    /**
     * @param limit     the limit to follow
     * @param semaphore the semaphore to resize
     */
    public AdaptiveSize(AdaptiveLimit limit, PermitSemaphore semaphore) {
        this.limit = limit;
        this.semaphore = semaphore;
    }

    /** {@return the size the semaphore starts with: the limit's current value (at least 0)} */
    public long initial() {
        return Math.max(0, limit.limit());
    }

    /**
     * Feeds one sample: permits held for {@code holdNanos}, with {@code inUse} permits in use before their release.
     *
     * @param holdNanos how long the permits were held
     * @param inUse     the permits in use before the release, the released ones included
     */
    public void released(long holdNanos, long inUse) {
        try {
            limit.onSample(Math.max(1, holdNanos), (int) Math.min(Integer.MAX_VALUE, inUse), false);
            follow();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the adaptive limit of a semaphore threw", e);
        }
    }

    /**
     * Resizes to the limit if the size differs, and again while the limit moved during this thread's resize (another
     * close's sample; the resize may then have set a stale value after that close compared the two). Stops once the
     * limit read after a resize is the one just set, so a resize by somebody else (a stage run by this resize) cannot
     * keep it going. A negative limit is ignored.
     */
    private void follow() {
        int l = limit.limit();
        while (l >= 0 && l != semaphore.size()) {
            semaphore.resize(l);
            int after = limit.limit();
            if (after == l) {
                return;
            }
            l = after;
        }
    }
}
