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
     * Settles a refused hand-off: skips the run of a periodic job and puts the job back on its schedule (cancels it if
     * the timer shut down meanwhile), or fails a one-shot job with the refusal.
     *
     * @param timer the job's timer
     * @param job   the job whose hand-off was refused
     * @param e     the refusal, a one-shot job's failure
     */
    static void settle(JobTimer timer, ScheduledJob<?> job, RejectedExecutionException e) {
        if (!job.isPeriodic()) {
            job.fail(e);
        } else if (!timer.reschedule(job)) {
            job.cancel(false); // shut down: no more periodic runs
        }
    }

    /**
     * Settles the refusal of a job with no delay that the scheduling thread was handing over: a periodic job's run is
     * skipped as on the timer's path; a one-shot job, or any job refused because a shutdown came first, is forgotten
     * (cancelled, which also takes a periodic one out of the handed-over jobs) and the refusal thrown to the caller.
     *
     * @param timer   the job's timer
     * @param name    the scheduler's name, for the log
     * @param job     the job
     * @param e       the refusal
     * @param running whether the timer was still running when the refusal was seen (then it is for want of a thread)
     * @throws RejectedExecutionException {@code e}, unless the job is periodic and the timer running
     */
    static void direct(JobTimer timer, String name, ScheduledJob<?> job, RejectedExecutionException e,
            boolean running) {
        if (!running || !job.isPeriodic()) {
            job.cancel(false); // the caller never gets the job: forget it
            throw e; // a shutdown came first, or a one-shot job was refused: the caller hears of it
        }
        settle(timer, job, e); // the run is skipped and the job keeps its schedule
        log(name, job, e);
    }

    /**
     * Logs a refusal that {@link #settle} settled, since no caller is there to see it.
     *
     * @param name the scheduler's name
     * @param job  the job whose hand-off was refused
     * @param e    the refusal
     */
    static void log(String name, ScheduledJob<?> job, RejectedExecutionException e) {
        LOG.log(System.Logger.Level.ERROR, "scheduler '" + name + "' could not hand a due " + (job.isPeriodic()
                ? "run of a periodic job to its pool; the run is skipped and the job keeps its schedule"
                : "job to its pool; the job fails"), e);
    }
}
