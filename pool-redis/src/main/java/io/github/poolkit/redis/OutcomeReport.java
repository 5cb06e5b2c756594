package io.github.poolkit.redis;

import io.github.poolkit.Permit;
import io.github.poolkit.SemaphoreListener;
import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the semaphore's {@link SemaphoreListener} hears of each request as it ends: its weight, how long it took and
 * its outcome, told once (see {@link Requests}). A listener that throws is logged, never heard in place of a permit.
 */
final class OutcomeReport {

    private static final Logger LOG = Logger.getLogger(RedisPermitSemaphore.class.getName());

    private final Instance instance;
    private final SemaphoreListener listener;

    OutcomeReport(Instance instance, SemaphoreListener listener) {
        this.instance = instance;
        this.listener = listener;
    }

    /** Tells the listener, if there is one, that {@code request} ended so. */
    void tell(Request request, AcquireOutcome outcome) {
        if (listener == null) {
            return;
        }
        try {
            listener.requestSettled(request.weight, System.nanoTime() - request.startNanos, outcome);
        } catch (RuntimeException | Error e) { // told on the caller's thread too: never in place of its permit
            if (e instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            LOG.log(Level.WARNING, "SemaphoreListener of '" + instance.name() + "' failed", e);
        }
    }

    /** {@return the outcome of a request whose result settled with {@code permit} or {@code failure}} */
    static AcquireOutcome of(Permit permit, Throwable failure) {
        Throwable cause = failure == null ? null : SemaphoreScript.unwrap(failure);
        if (permit != null) {
            return AcquireOutcome.ACQUIRED;
        } else if (cause instanceof GaveUp g) {
            return g.outcome;
        } else if (cause instanceof CancellationException) {
            return AcquireOutcome.CANCELLED;
        } else if (cause instanceof SemaphoreUnavailableException || cause instanceof TimeoutException) {
            return AcquireOutcome.TIMEOUT;
        }
        return AcquireOutcome.REJECTED; // refused by tryAcquire, or larger than the size
    }

    /** The caller stopped waiting (timeout or interrupt); internal, never thrown to users. */
    static final class GaveUp extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient AcquireOutcome outcome;

        GaveUp(AcquireOutcome outcome) {
            super(null, null, false, false);
            this.outcome = outcome;
        }
    }
}
