package io.github.poolkit.redis;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a blocked caller waits for the reply of one script run: it busy-waits ({@link Thread#onSpinWait()}) for at most
 * the spin budget, then parks. Parking costs a wake-up when the reply comes (a thread switch, and on a virtual
 * machine often an idle processor to wake), which against a loopback or same-host Redis is as long as the round trip
 * itself; a short spin saves it.
 *
 * <p>Spinning burns the processor it runs on, so it is kept to where it pays off:
 * <ul>
 *   <li>only when the caller's script run is the only one of this semaphore in flight, and (the semaphore's side of
 *       the rule) no other request of this instance is pending: otherwise the processors have other work (their
 *       replies, grants to wake) and a spinner would slow it;</li>
 *   <li>only on a platform thread (a spinning virtual thread would hold its carrier) of a machine with more than one
 *       processor, and by at most half of the processors at once, over all semaphores of the JVM;</li>
 *   <li>never longer than the budget; and after a spin that the reply outlasted (a distant or busy Redis, a loaded
 *       machine), the next callers park at once: the next 1, 2, 4 ... up to 64 calls, doubling with each failed
 *       spin, until a spin catches its reply again.</li>
 * </ul>
 * Whether it spins or not, the caller ends up with the same reply: this only changes how it waits.
 *
 * <p>Thread-safety: the back-off counters are read and written without a lock by every caller; a lost update only
 * means one spin more or less, never a wrong reply.
 */
final class ReplySpin {

    /** The default budget: a little more than a loopback round trip on a slow virtual machine. */
    static final Duration DEFAULT_BUDGET = Duration.ofNanos(200_000);

    private static final int MAX_BACKOFF = 64;
    private static final int MAX_SPINNERS = Runtime.getRuntime().availableProcessors() / 2;
    private static final AtomicInteger SPINNERS = new AtomicInteger();

    private final long budgetNanos;
    /** Script runs of this semaphore sent and not yet settled (answered, failed or timed out). */
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Calls to skip after the last failed spin (0: spin); doubles with each failed spin. */
    private volatile int backoff;
    /** Calls skipped since the last spin. */
    private volatile int skipped;

    /** @param budget the longest spin per reply; zero never spins */
    ReplySpin(Duration budget) {
        this.budgetNanos = budget.toNanos();
    }

    /** A script run was sent; {@link #settled()} follows exactly once. */
    void sent() {
        inFlight.incrementAndGet();
    }

    /** A script run was answered, failed or timed out. */
    void settled() {
        inFlight.decrementAndGet();
    }

    /**
     * Spins until {@code reply} is done, if spinning may pay off (see the class comment); returns at once otherwise.
     * The caller then takes the reply as usual (a blocking get), parking if it is not done yet.
     */
    void awaitBriefly(Future<?> reply) {
        if (reply == null || reply.isDone() || budgetNanos == 0 || inFlight.get() > 1
                || Thread.currentThread().isVirtual()) {
            return;
        }
        if (skipped < backoff) {
            skipped++;
            return;
        }
        if (SPINNERS.incrementAndGet() <= MAX_SPINNERS) {
            long deadline = System.nanoTime() + budgetNanos;
            while (!reply.isDone() && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            skipped = 0;
            backoff = reply.isDone() ? 0 : Math.min(MAX_BACKOFF, Math.max(1, 2 * backoff));
        }
        SPINNERS.decrementAndGet();
    }
}
