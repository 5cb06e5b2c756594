package io.github.poolkit.autoconfigure;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.poolkit.PoolListener;

/**
 * Hands each pool a {@link PoolListener} at creation time and lets listeners be attached to it later. A pool's options
 * are fixed when the pool is created, long before Micrometer binds its meters; so every pool gets a forwarding listener
 * from {@link #listenerFor(String)}, and the metrics support calls {@link #attach(String, PoolListener)} once a
 * registry is bound.
 *
 * <p>Implementation overview: one forwarder per pool name in a concurrent map; each forwarder keeps its targets in a
 * {@link CopyOnWriteArrayList}, so workers iterate a stable snapshot without locking while attachment (rare) copies.
 * Events that happen before anything is attached are dropped: they predate the meters. Attaching happens-before every
 * event the attached listener then receives (the list's volatile publication).
 */
public final class PoolTaskListeners {

    private final ConcurrentMap<String, Forwarder> forwarders = new ConcurrentHashMap<>();

    /** Creates an empty set of listeners. */
    public PoolTaskListeners() {
    }

    /**
     * @param poolName the bean name of a pool
     * @return the listener to put in that pool's options; the same one on every call with that name
     */
    public PoolListener listenerFor(String poolName) {
        return forwarders.computeIfAbsent(poolName, name -> new Forwarder());
    }

    /**
     * @param poolName the bean name of a pool
     * @return whether that pool was given a listener by {@link #listenerFor(String)}, so that it reports its tasks
     */
    public boolean isReporting(String poolName) {
        return forwarders.containsKey(poolName);
    }

    /**
     * Makes {@code listener} receive every later event of the pool named {@code poolName}, if that pool was given a
     * listener by {@link #listenerFor(String)}; other pools (the application's own beans) report nothing.
     *
     * @param poolName the bean name of a pool
     * @param listener the listener; must be fast and must not throw
     * @return whether the listener was attached
     */
    public boolean attach(String poolName, PoolListener listener) {
        Forwarder forwarder = forwarders.get(poolName);
        if (forwarder == null) {
            return false;
        }
        forwarder.targets.add(listener);
        return true;
    }

    /** Forwards each event to every attached listener, in attachment order. */
    private static final class Forwarder implements PoolListener {

        final List<PoolListener> targets = new CopyOnWriteArrayList<>();

        @Override
        public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
            for (PoolListener target : targets) {
                target.taskFinished(waitedNanos, ranNanos, failure);
            }
        }

        @Override
        public void taskRejected(RuntimeException reason) {
            for (PoolListener target : targets) {
                target.taskRejected(reason);
            }
        }
    }
}
