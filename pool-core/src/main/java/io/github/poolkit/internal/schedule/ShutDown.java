package io.github.poolkit.internal.schedule;

import java.util.concurrent.RejectedExecutionException;

/** The refusal of a job because its {@link JobTimer} was shut down (the executor's refusals are its own). */
public final class ShutDown extends RejectedExecutionException {

    private static final long serialVersionUID = 1L;

    /** @param scheduler the scheduler's name */
    ShutDown(String scheduler) {
        super("scheduler '" + scheduler + "' is shut down and accepts no new jobs;"
                + " schedule on a new scheduler instead");
    }
}
