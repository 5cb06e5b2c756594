package io.github.poolkit.internal.semaphore;

import io.github.poolkit.SemaphoreListener;
import io.github.poolkit.SemaphoreListener.AcquireOutcome;

import java.util.Arrays;

/**
 * Tells a semaphore's {@link SemaphoreListener} how each request settled and how long it waited. Internal to
 * {@code WeightedSemaphore}; not part of poolkit's API.
 *
 * <p>A semaphore without a listener has no reporter: the static methods take {@code null} for "nobody listens" and
 * then do nothing and read no clock, so that such a semaphore pays one field read on its fast paths. A reporter is
 * immutable: adding a listener replaces it.
 */
public final class SemaphoreReporter {

    /*
     * Implementation overview.
     * Every public acquiring method of WeightedSemaphore reports exactly one outcome per call that got past its
     * argument checks: the semaphore reports what it settles at once, ThreadWaiter and AsyncWaiter what they settle
     * after queueing, SemaphoreLine a request refused as it would have been queued. The clock is read only when a
     * listener is set. A listener that throws is logged and ignored (a VirtualMachineError is rethrown).
     */

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    /** Told in order; the array is never changed once published (a listener added makes a new reporter). */
    private final SemaphoreListener[] listeners;
    private final Object semaphore;

    private SemaphoreReporter(SemaphoreListener[] listeners, Object semaphore) {
        this.listeners = listeners;
        this.semaphore = semaphore;
    }

    /**
     * Returns the reporter of a semaphore.
     *
     * @param listener  the semaphore's listener, or {@code null} for none
     * @param semaphore the semaphore, named in the warning when the listener throws
     * @return a reporter, or {@code null} when there is no listener
     */
    public static SemaphoreReporter of(SemaphoreListener listener, Object semaphore) {
        return listener == null ? null : new SemaphoreReporter(new SemaphoreListener[] {listener}, semaphore);
    }

    /**
     * Returns a reporter that tells the listeners of {@code reporter} and then {@code listener}.
     *
     * @param reporter  the semaphore's reporter now, or {@code null} for none
     * @param listener  the listener to add
     * @param semaphore the semaphore, named in the warning when a listener throws
     * @return a new reporter; {@code reporter} is left as it is
     */
    public static SemaphoreReporter adding(SemaphoreReporter reporter, SemaphoreListener listener, Object semaphore) {
        if (reporter == null) {
            return of(listener, semaphore);
        }
        SemaphoreListener[] more = Arrays.copyOf(reporter.listeners, reporter.listeners.length + 1);
        more[reporter.listeners.length] = listener;
        return new SemaphoreReporter(more, semaphore);
    }

    /**
     * Returns the start of a wait, to pass to {@link #settle} later.
     *
     * @param reporter the semaphore's reporter, or {@code null}
     * @return {@link System#nanoTime()}, or {@code 0} when there is no reporter (no clock read then)
     */
    public static long clock(SemaphoreReporter reporter) {
        return reporter == null ? 0L : System.nanoTime();
    }

    /**
     * Reports a settled request; costs one null check when there is no reporter.
     *
     * @param reporter the semaphore's reporter, or {@code null}
     * @param n        the permits requested
     * @param since    when the request started to wait (from {@link #clock}), or {@code 0} if it settled at once
     * @param outcome  how it ended
     */
    public static void settle(SemaphoreReporter reporter, long n, long since, AcquireOutcome outcome) {
        if (reporter != null) {
            reporter.notifyListener(n, since == 0L ? 0L : Math.max(0L, System.nanoTime() - since), outcome);
        }
    }

    /**
     * As {@link #settle(SemaphoreReporter, long, long, AcquireOutcome)}, for a wait that ended at {@code until} (from
     * {@link #clock}; what came after it, such as the stages a completed future ran, is not the wait's).
     */
    public static void settle(SemaphoreReporter reporter, long n, long since, long until, AcquireOutcome outcome) {
        if (reporter != null) {
            reporter.notifyListener(n, since == 0L ? 0L : Math.max(0L, until - since), outcome);
        }
    }

    private void notifyListener(long n, long waitedNanos, AcquireOutcome outcome) {
        for (SemaphoreListener listener : listeners) {
            try {
                listener.requestSettled(n, waitedNanos, outcome);
            } catch (Throwable e) { // a checked exception too, thrown undeclared: it would leave granted permits held
                if (e instanceof VirtualMachineError fatal) {
                    throw fatal;
                }
                LOG.log(System.Logger.Level.WARNING, "a listener of " + semaphore + " threw; ignored", e);
            }
        }
    }
}
