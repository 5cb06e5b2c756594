package io.github.poolkit.redis;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a blocked caller waits for the reply of one script run: it busy-waits ({@link Thread#onSpinWait()}) for at most
 * the spin budget, then parks. Parking costs a wake-up when the reply comes (a thread switch, and on a virtual
 * machine often an idle processor to wake), which on a loopback or same-host Redis is as long as the round trip
 * itself; a short spin saves it.
 *
 * <p>Spinning burns the processor it runs on, so it is kept to where it pays off:
 * <ul>
 *   <li>only while replies typically come within the budget (a moving average of the observed reply times): with a
 *       distant Redis nobody spins;</li>
 *   <li>only on a platform thread (a spinning virtual thread would hold its carrier) of a machine with more than
 *       one processor, and by at most half of the processors at once, so that Redis's I/O thread and the
 *       application keep the others;</li>
 *   <li>never longer than the budget: a slow reply is awaited parked.</li>
 * </ul>
 * Whether it spins or not, the caller ends up with the same reply: this only changes how it waits.
 */
final class ReplySpin {

    /** The default budget: a little more than a loopback round trip on a slow virtual machine. */
    static final Duration DEFAULT_BUDGET = Duration.ofNanos(200_000);

    private static final int MAX_SPINNERS = Runtime.getRuntime().availableProcessors() / 2;

    private final long budgetNanos;
    private final AtomicInteger spinners = new AtomicInteger();
    /**
     * Moving average of the reply times (7/8 old, 1/8 new). Written only by Redis's I/O thread of the script
     * connection (one thread per connection), read by callers: a plain volatile suffices.
     */
    private volatile long typicalNanos;

    /** @param budget the longest spin per reply; zero never spins */
    ReplySpin(Duration budget) {
        this.budgetNanos = budget.toNanos();
    }

    /** Records how long one script run took, from sending to its reply. */
    void observed(long nanos) {
        typicalNanos = typicalNanos - (typicalNanos >> 3) + (nanos >> 3);
    }

    /**
     * Spins until {@code reply} is done, if spinning may pay off (see the class comment); returns at once otherwise.
     * The caller then takes the reply as usual (a blocking get), parking if it is not done yet.
     */
    void awaitBriefly(Future<?> reply) {
        if (reply == null || reply.isDone() || budgetNanos == 0 || typicalNanos > budgetNanos
                || Thread.currentThread().isVirtual()) {
            return;
        }
        if (spinners.incrementAndGet() <= MAX_SPINNERS) {
            long deadline = System.nanoTime() + budgetNanos;
            while (!reply.isDone() && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
        }
        spinners.decrementAndGet();
    }
}
