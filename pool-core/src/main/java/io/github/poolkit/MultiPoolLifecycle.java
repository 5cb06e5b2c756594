package io.github.poolkit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether a {@link MultiPool} is open, kept in step with its sub-pools.
 *
 * <p>Invariants:
 * <ul>
 *   <li>The flag is written, and the sub-pools closed or reopened to match, only under this object's lock, so that a
 *       release and a reboot racing each other leave the flag and every sub-pool agreeing. It is read without the
 *       lock (the multi-pool's {@code execute}).</li>
 *   <li>While a caller waits for the sub-pools it closed ({@code close()}, {@code releaseTimeout}), {@code waiters}
 *       is above 0 and a reboot is refused: the pools it waits for stay closed, so it never waits for a pool that was
 *       reopened under it (which would never terminate), and the flag never shows open with a sub-pool closed.</li>
 *   <li>The lock is never held while a caller waits for tasks to end: closing a sub-pool under it waits at most for
 *       a worker between two tasks to leave (see {@code WorkerPool.release()}; microseconds, at most 100 ms), and
 *       {@code close()} and {@code releaseTimeout} wait for termination after they let it go.</li>
 * </ul>
 */
final class MultiPoolLifecycle {

    private final String name;
    private final WorkerPool[] pools;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Callers waiting for the sub-pools they closed; guarded by this object's lock. */
    private int waiters;

    MultiPoolLifecycle(String name, WorkerPool[] pools) {
        this.name = name;
        this.pools = pools;
    }

    /** {@return whether the multi-pool is closed (released and not rebooted)} */
    boolean isClosed() {
        return closed.get();
    }

    /** Closes the multi-pool and every sub-pool; a second call is a no-op. */
    synchronized void release() {
        closed.set(true);
        for (WorkerPool p : pools) {
            p.release();
        }
    }

    /**
     * Closes the multi-pool and every sub-pool for a caller that then waits for them, refusing reboots until it calls
     * {@link #doneWaiting()}.
     *
     * @param wasOpen whether the multi-pool must have been open (else nothing happens and false is returned)
     * @return whether it was released for the caller, who must then call {@link #doneWaiting()}
     */
    synchronized boolean releaseToWait(boolean wasOpen) {
        if (wasOpen && closed.get()) {
            return false;
        }
        release();
        waiters++; // after the release, which may throw: never left counting a caller that does not wait
        return true;
    }

    /** Ends a wait begun by {@link #releaseToWait}. */
    synchronized void doneWaiting() {
        waiters--;
    }

    /**
     * Reopens the multi-pool and every sub-pool; no-op when open.
     *
     * @throws IllegalStateException if a caller waits for the sub-pools it closed
     */
    synchronized void reboot() {
        if (waiters > 0) {
            throw new IllegalStateException("multi-pool '" + name + "' is being closed: close() or releaseTimeout()"
                    + " is waiting for its tasks to finish; reboot it after that returns");
        }
        for (WorkerPool p : pools) {
            p.reboot();
        }
        closed.set(false);
    }

    /** {@return the sub-pools' queued tasks, pool by pool, after stopping each as {@link WorkerPool#shutdownNow()}} */
    synchronized List<Runnable> shutdownNow() {
        closed.set(true);
        List<Runnable> drained = new ArrayList<>();
        for (WorkerPool p : pools) {
            drained.addAll(p.shutdownNow());
        }
        return drained;
    }
}
