package io.github.poolkit.autoconfigure;

import java.util.List;

import io.github.poolkit.SemaphoreListener;

/**
 * The {@link SemaphoreListener}s of the semaphores poolkit creates, to which the acquire timer is attached once a
 * meter registry is bound (see {@link AttachableListeners}).
 */
public final class SemaphoreListeners extends AttachableListeners<SemaphoreListener> {

    /** Creates an empty set of listeners. */
    public SemaphoreListeners() {
    }

    @Override
    protected SemaphoreListener fanOut(List<SemaphoreListener> targets) {
        return (permits, waitedNanos, outcome) -> tellEach(targets,
                target -> target.requestSettled(permits, waitedNanos, outcome));
    }
}
