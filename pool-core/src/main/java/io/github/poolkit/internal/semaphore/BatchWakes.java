package io.github.poolkit.internal.semaphore;

/**
 * Wakes the requests a {@link SemaphoreLine} took out of its line (granted or refused), once its lock is released.
 * Internal to {@code WeightedSemaphore}.
 *
 * <p>Rules: blocked threads first (an unpark each runs none of the callers' code), then the asynchronous requests in
 * line order (completing a future runs its dependent stages); every waiter is woken even if a wake throws; and a
 * blocked thread that gives up has the asynchronous requests it lets through woken on a virtual thread of their own,
 * so that their stages never delay its return past its timeout.
 */
final class BatchWakes {

    private BatchWakes() {
    }

    /**
     * Wakes the waiters of one or two batches: first every blocked thread, then the asynchronous requests in line
     * order, so that a thread granted with them is not kept parked while their stages run (nor forever, when one waits
     * for that thread). Every waiter is woken even if a wake throws (a listener's {@code VirtualMachineError}); the
     * first failure is rethrown at the end. A batch's links never change once it is taken out of the line.
     *
     * @param first   a batch (linked by {@code nextInBatch}), or {@code null}
     * @param second  another batch, or {@code null}
     * @param handOff whether the asynchronous requests are woken on a virtual thread of their own (in order), not here
     */
    static void wake(SemaphoreWaiter first, SemaphoreWaiter second, boolean handOff) {
        Throwable failure = null;
        boolean async = false;
        for (SemaphoreWaiter w = first; w != null; w = w.nextInBatch()) {
            if (w.wakeRunsCallersCode()) {
                async = true;
            } else {
                failure = wake(w, failure);
            }
        }
        for (SemaphoreWaiter w = second; w != null; w = w.nextInBatch()) {
            if (w.wakeRunsCallersCode()) {
                async = true;
            } else {
                failure = wake(w, failure);
            }
        }
        if (async && !(handOff && wakeAsyncElsewhere(first, second))) {
            failure = wakeAsync(second, wakeAsync(first, failure));
        }
        rethrow(failure);
    }

    /**
     * Wakes the asynchronous requests of a batch, in order.
     *
     * @return the first failure, this batch's or {@code failure}
     */
    private static Throwable wakeAsync(SemaphoreWaiter batch, Throwable failure) {
        for (SemaphoreWaiter w = batch; w != null; w = w.nextInBatch()) {
            if (w.wakeRunsCallersCode()) {
                failure = wake(w, failure);
            }
        }
        return failure;
    }

    /**
     * Starts a virtual thread that wakes the asynchronous requests, in order.
     *
     * @return whether it started (else they are to be woken here)
     */
    private static boolean wakeAsyncElsewhere(SemaphoreWaiter first, SemaphoreWaiter second) {
        try {
            // a failure goes to the thread's uncaught-exception handler
            Thread.ofVirtual().name("poolkit-semaphore-wakes")
                    .start(() -> rethrow(wakeAsync(second, wakeAsync(first, null))));
            return true;
        } catch (RuntimeException | OutOfMemoryError cannotStart) {
            return false;
        }
    }

    /**
     * Throws a wake's failure as it was thrown (a checked one too, which a listener written in another language may
     * throw undeclared); nothing if {@code null}.
     */
    static void rethrow(Throwable failure) {
        if (failure != null) {
            BatchWakes.<RuntimeException>throwAs(failure);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void throwAs(Throwable failure) throws T {
        throw (T) failure;
    }

    private static Throwable wake(SemaphoreWaiter w, Throwable failure) {
        try {
            w.wake();
        } catch (Throwable e) { // a listener's undeclared checked exception too: the rest must still be woken
            return first(failure, e);
        }
        return failure;
    }

    /**
     * Runs one wake, keeping what it throws.
     *
     * @param failure the first failure so far, or {@code null}
     * @return the first failure: {@code failure}, or what this wake threw (a later one is suppressed by the first)
     */
    static Throwable run(Runnable wake, Throwable failure) {
        try {
            wake.run();
        } catch (Throwable e) {
            return first(failure, e);
        }
        return failure;
    }

    private static Throwable first(Throwable failure, Throwable e) {
        if (failure == null) {
            return e;
        }
        if (e != failure) { // one instance thrown twice cannot suppress itself
            failure.addSuppressed(e);
        }
        return failure;
    }
}
