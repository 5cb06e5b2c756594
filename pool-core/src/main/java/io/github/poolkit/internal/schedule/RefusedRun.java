package io.github.poolkit.internal.schedule;

import java.util.concurrent.RejectedExecutionException;

/**
 * What a {@link JobTimer} does with a due job that its executor refused although the timer is not stopped (the
 * executor could not start a worker thread): the one outcome for such a refusal, whether the timer thread was handing
 * the job over or the scheduling thread was (a job with no delay).
 *
 * <p>Invariant: a refused hand-off of one run never ends a periodic job. The executor did not take the run (so it
 * cannot overlap the next); the run is skipped, logged, and the job goes back into the heap at its next deadline, as
 * if the run had ended now (out of the timer's handed-over jobs), unless it was cancelled or shut down meanwhile (then
 * it is cancelled, which also takes it out). A refused one-shot job fails with the refusal: its future, logged too
 * since no caller is there to see it, when the timer thread handed it over; its scheduling call (which throws the
 * refusal) when the scheduling thread did.
 */
final class RefusedRun {

    private static final System.Logger LOG = System.getLogger("io.github.poolkit");

    private RefusedRun() {
    }

    /**
     * Skips the refused run of a periodic job and puts the job back on its schedule.
     *
     * @param timer the job's timer
     * @param name  the scheduler's name, for the log
     * @param job   the periodic job whose run was refused
     * @param e     the refusal
     */
    static void skip(JobTimer timer, String name, ScheduledJob<?> job, RejectedExecutionException e) {
        LOG.log(System.Logger.Level.ERROR, "scheduler '" + name + "' could not hand a due run of a periodic job to"
                + " its pool; the run is skipped and the job keeps its schedule", e);
        if (!timer.reschedule(job)) {
            job.cancel(false);
        }
    }

    /**
     * Fails a refused one-shot job that the timer thread was handing over, and logs it.
     *
     * @param name the scheduler's name, for the log
     * @param job  the one-shot job
     * @param e    the refusal, the job's failure
     */
    static void fail(String name, ScheduledJob<?> job, RejectedExecutionException e) {
        LOG.log(System.Logger.Level.ERROR, "scheduler '" + name + "' could not hand a due job to its pool;"
                + " the job fails", e);
        job.fail(e);
    }
}
