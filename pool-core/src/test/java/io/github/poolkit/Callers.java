package io.github.poolkit;

import java.util.concurrent.atomic.AtomicReference;

/** Calls made on threads of their own, for tests whose callers block in a pool. */
final class Callers {

    private Callers() {
    }

    /**
     * Runs {@code action} on a new thread and returns it; the thread records what it threw.
     *
     * @param action the call
     * @param thrown where the thread records what the call threw
     * @return the started thread
     */
    static Thread start(Runnable action, AtomicReference<Throwable> thrown) {
        Thread t = new Thread(() -> {
            try {
                action.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        return t;
    }
}
