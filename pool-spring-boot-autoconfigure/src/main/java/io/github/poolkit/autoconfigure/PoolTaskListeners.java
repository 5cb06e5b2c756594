package io.github.poolkit.autoconfigure;

import java.util.List;

import io.github.poolkit.OverdueTask;
import io.github.poolkit.PoolListener;

/**
 * The {@link PoolListener}s of the pools and the scheduler poolkit creates, to which the task timers are attached once
 * a meter registry is bound (see {@link AttachableListeners}).
 */
public final class PoolTaskListeners extends AttachableListeners<PoolListener> {

    /** Creates an empty set of listeners. */
    public PoolTaskListeners() {
    }

    @Override
    protected PoolListener fanOut(List<PoolListener> targets) {
        return new PoolListener() {

            @Override
            public void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
                tellEach(targets, target -> target.taskFinished(waitedNanos, ranNanos, failure));
            }

            @Override
            public void taskRejected(RuntimeException reason) {
                tellEach(targets, target -> target.taskRejected(reason));
            }

            @Override
            public void taskOverdue(OverdueTask task) {
                tellEach(targets, target -> target.taskOverdue(task));
            }
        };
    }
}
