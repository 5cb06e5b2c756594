package io.github.poolkit.internal;

import java.util.function.Consumer;

/**
 * The workers a pool counts (reserved and not yet retired), for interrupting them and summing their task counts: a
 * doubly-linked list threaded through the workers themselves, so adding and removing one costs no allocation and no
 * hashing (an unpooled pool adds and removes a worker per task). Not thread-safe: the pool's lock guards it.
 */
final class LiveWorkers {

    private Worker first;

    /** Adds a worker that is in no list. */
    void add(Worker w) {
        w.nextLive = first;
        if (first != null) {
            first.previousLive = w;
        }
        first = w;
    }

    /** Removes a worker that is in this list. */
    void remove(Worker w) {
        Worker before = w.previousLive;
        Worker after = w.nextLive;
        if (before == null) {
            first = after;
        } else {
            before.nextLive = after;
        }
        if (after != null) {
            after.previousLive = before;
        }
        w.previousLive = null;
        w.nextLive = null;
    }

    /** Calls {@code action} for every worker in the list. */
    void forEach(Consumer<Worker> action) {
        for (Worker w = first; w != null; w = w.nextLive) {
            action.accept(w);
        }
    }
}
