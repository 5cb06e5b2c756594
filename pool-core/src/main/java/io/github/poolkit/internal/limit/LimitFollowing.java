package io.github.poolkit.internal.limit;

import io.github.poolkit.AdaptiveLimit;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * Makes a size (an adaptive pool's capacity, an adaptive semaphore's size) follow an {@link AdaptiveLimit}, after
 * each sample fed to the limit.
 *
 * <p>Invariant: after the last sample of any burst has been handled, the size equals {@code limit.limit()}. Each
 * sample is followed by a comparison of the limit with the size, and a thread that sets the size reads the limit
 * again afterwards and sets it again if the limit moved meanwhile: another sample may have moved the limit back to the
 * size not yet set and found nothing to do, so the thread that sets must not leave the size at the value it read
 * before. So whoever sets last saw the limit equal to what it set. It stops once the limit read after setting is the
 * one just set, so a change made by somebody else meanwhile cannot keep it going.
 */
public final class LimitFollowing {

    private LimitFollowing() {
    }

    /**
     * Sets {@code size} to the limit if they differ, and again while the limit moved during the setting.
     *
     * @param limit the limit
     * @param least the smallest limit followed; a smaller one is ignored
     * @param size  the size now
     * @param set   sets the size
     */
    public static void follow(AdaptiveLimit limit, int least, LongSupplier size, IntConsumer set) {
        int l = limit.limit();
        while (l >= least && l != size.getAsLong()) {
            set.accept(l);
            int after = limit.limit();
            if (after == l) {
                return;
            }
            l = after;
        }
    }
}
