package io.github.poolkit.internal.semaphore;

import java.util.ArrayDeque;

/**
 * Keeps the stack flat when wakes of asynchronous waiters nest. Completing a waiter's future runs its dependent
 * stages on the waking thread; a stage that gives permits back ({@code acquireAsync(1).thenAccept(Permit::close)})
 * grants the next waiter, whose future completes inside that stage, and so on down the line: 20 000 such waiters
 * would overflow the stack. Up to {@link #DEPTH} wakes nest as they come, so a stage that waits for a later grant
 * still sees it; a deeper one is queued and run by the wake at that depth once its own completion returns, so a chain
 * of any length costs at most {@link #DEPTH} levels of stack.
 *
 * <p>Invariants, per thread: {@code depth} counts the wakes running on its stack; {@code queued} is not null exactly
 * while a wake at {@link #DEPTH} runs, and every wake queued there runs before that one returns.
 */
final class NestedWakes {

    /** How deep wakes nest before the deeper ones are queued. */
    static final int DEPTH = 32;

    private static final ThreadLocal<NestedWakes> OF_THREAD = ThreadLocal.withInitial(NestedWakes::new);

    private int depth;
    private ArrayDeque<Runnable> queued;

    private NestedWakes() {
    }

    /** Runs {@code wake} now, or, this deep in wakes already, after the wake at {@link #DEPTH} on this thread. */
    static void run(Runnable wake) {
        NestedWakes nested = OF_THREAD.get();
        if (nested.depth == DEPTH) {
            nested.queued.add(wake);
            return;
        }
        boolean drains = ++nested.depth == DEPTH;
        if (drains) {
            nested.queued = new ArrayDeque<>();
        }
        Throwable failure = null;
        try {
            failure = BatchWakes.run(wake, null);
            if (drains) { // every queued wake runs, whatever one throws (its grant is counted: it must be told)
                for (Runnable next; (next = nested.queued.poll()) != null; ) {
                    failure = BatchWakes.run(next, failure);
                }
            }
        } finally {
            if (drains) {
                nested.queued = null;
            }
            nested.depth--;
        }
        BatchWakes.rethrow(failure);
    }
}
