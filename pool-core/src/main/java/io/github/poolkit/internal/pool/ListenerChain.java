package io.github.poolkit.internal.pool;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;

import java.util.Arrays;

/**
 * Several listeners of one pool, told in order: the one in the pool's options first, then those added to the running
 * pool ({@link TaskRunner#addListener}). One that throws is logged and the next is still told.
 *
 * <p>Immutable: adding a listener makes a new chain ({@link #of}), which the runner publishes with one volatile
 * write, so a thread that is telling the chain never sees it change.
 */
final class ListenerChain implements PoolListener {

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private final String poolName;
    private final PoolListener[] listeners;

    private ListenerChain(String poolName, PoolListener[] listeners) {
        this.poolName = poolName;
        this.listeners = listeners;
    }

    /** {@return a chain that tells {@code current} (a listener or a chain), then {@code added}} */
    static ListenerChain of(String poolName, PoolListener current, PoolListener added) {
        PoolListener[] before = current instanceof ListenerChain chain ? chain.listeners : new PoolListener[] {current};
        PoolListener[] all = Arrays.copyOf(before, before.length + 1);
        all[before.length] = added;
        return new ListenerChain(poolName, all);
    }

    @Override
    public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
        for (PoolListener l : listeners) {
            try {
                l.taskFinished(waitedNanos, ranNanos, failure);
            } catch (Throwable e) {
                threw(e);
            }
        }
    }

    @Override
    public void taskRejected(RuntimeException reason) {
        for (PoolListener l : listeners) {
            try {
                l.taskRejected(reason);
            } catch (Throwable e) {
                threw(e);
            }
        }
    }

    @Override
    public void taskOverdue(OverdueTask task) {
        for (PoolListener l : listeners) {
            try {
                l.taskOverdue(task);
            } catch (Throwable e) {
                threw(e);
            }
        }
    }

    private void threw(Throwable e) {
        LOG.log(System.Logger.Level.WARNING, "a listener of pool '" + poolName + "' threw", e);
    }
}
