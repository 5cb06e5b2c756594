package io.github.poolkit.internal.schedule;

import io.github.poolkit.internal.TaskCounter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Guarantee: a periodic job that a pool's worker starts to run while {@code shutdown()} cancels the periodic jobs
 * either runs, once, and is cancelled only as that run ends, or never runs and is cancelled: never cancelled while its
 * run goes on (so never a run after its cancel was reported), never left uncancelled. The worker claims the run
 * ({@code runner}, a CAS in {@link ScheduledJob#run()}), then reads whether the timer is shut down; the shutdown marks
 * the timer shut down, then cancels each periodic job unless it sees it claimed ({@link ScheduledJob#cancelForShutdown}
 * reads {@code runner}): a Dekker pair, so either the shutdown cancels the job or the worker sees the shutdown and
 * cancels it unrun. A run the shutdown left alone cancels its job as it ends ({@link JobTimer#reschedule} refuses it).
 *
 * <p>The job has no initial delay and a period of an hour, so the scheduling call hands it straight to the executor,
 * which here only holds it: one actor is the worker that took it and runs it ({@code runCounted}, as a pool's worker
 * does), the other shuts the timer down. The job's task waits (at most a second) until the shutdown has returned, so
 * that a run the worker claimed first is still going on when the shutdown comes.
 *
 * <p>r1: how many times the job's task ran. r2: 1 if the job was done (cancelled) when its task ended. r3: 1 if the
 * job is cancelled once the timer has terminated, 0 if not (-1 if it did not terminate within 30 s). r4: 1 if the job
 * was done when {@code shutdown()} returned, 0 if the shutdown left it to the worker that had claimed it.
 */
@JCStressTest
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "shut down first: cancelled, never ran")
@Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "running: the shutdown left it, cancelled as its run ended")
@Outcome(id = "0, 0, 1, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "claimed as the shutdown came: the worker saw the shutdown and cancelled it unrun")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE,
        desc = "ran to its end before the shutdown came (its task waited a second for it in vain), then cancelled")
@Outcome(expect = FORBIDDEN, desc = "cancelled while it ran, left uncancelled, or the timer did not terminate")
@State
public class SchedulerShutdownVsRunClaim {

    private static final long PERIOD = TimeUnit.HOURS.toNanos(1);
    private static final long TIMEOUT_SECONDS = 30;
    /** How long the job's task waits for the shutdown to return. */
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The worker running the job: its runs count (a pool's worker counts them on its own thread only). */
    private static final TaskCounter WORKER = (failure, last) -> true;

    /**
     * The timer's executor: it holds the job handed to it, as a pool's queue holds a job for a busy worker, and runs
     * nothing itself (the worker actor runs the job); terminated once shut down.
     */
    static final class HoldingExecutor extends AbstractExecutorService {
        private volatile boolean shutdown;

        @Override
        public void execute(Runnable command) {
            // held for the worker actor
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return shutdown;
        }
    }

    /** The job's task: counts its runs, waits for the shutdown, then reads whether its job was reported done. */
    static final class Probe implements Runnable {
        /** The job that runs this task; set before the actors start. */
        ScheduledJob<?> job;
        /** Set by the shutdown actor once {@code shutdown()} has returned. */
        volatile boolean shutdownReturned;
        int runs;
        int doneAtEnd;

        @Override
        public void run() {
            runs++;
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (!shutdownReturned && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            doneAtEnd = job.isDone() ? 1 : 0;
        }
    }

    private final JobTimer timer = JobTimer.start("jcs-shutdown-claim", new HoldingExecutor(), null);
    private final Probe probe = new Probe();
    private final ScheduledJob<Void> job = timer.schedule(probe, 0, PERIOD); // handed to the executor at once

    public SchedulerShutdownVsRunClaim() {
        probe.job = job;
    }

    /** A pool's worker that took the job from the executor: claims the run and runs it. */
    @Actor
    public void worker(IIII_Result r) {
        job.runCounted(WORKER);
        r.r1 = probe.runs;
        r.r2 = probe.doneAtEnd;
    }

    /** Shuts the timer down: cancels the periodic jobs, leaving one that runs to end its run. */
    @Actor
    public void shutdown(IIII_Result r) {
        timer.shutdown();
        r.r4 = job.isDone() ? 1 : 0;
        probe.shutdownReturned = true;
    }

    /** Waits for the timer to terminate, then reads whether the job is cancelled. */
    @Arbiter
    public void arbiter(IIII_Result r) {
        try {
            r.r3 = timer.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS) ? (job.isCancelled() ? 1 : 0) : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            r.r3 = -1;
        }
    }
}
