package io.github.poolkit.stress;

import io.github.poolkit.PoolClosedException;
import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.PoolStats;
import io.github.poolkit.WorkerPool;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Soak test: hammers {@link WorkerPool}s for a configurable time and checks the books. The long run is excluded from
 * the default build (tag {@code soak}; a short one, a round of each mode with each ending, runs in every build); run it
 * with
 * <pre>
 * ./mvnw -B -pl pool-stress -am verify -Psoak -Dsoak.duration=PT2M -Dtest=WorkerPoolSoakTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * <p>The run is cut into rounds of about {@link #ROUND} each. A round creates a pool with a random capacity and a
 * mode taken in turn (blocking without a queue, nonblocking, bounded queue with {@code maxBlockingTasks}, unbounded
 * queue, virtual-thread workers through a {@code threadFactory}, and unpooled virtual threads ({@code virtualThreads}),
 * without a queue and with one), all with a short expiry so that the purger retires idle workers meanwhile, and then
 * runs
 * <ul>
 *   <li>{@value #SUBMITTERS} submitter threads that {@code execute} tasks as fast as they can: quick ones, ones that
 *       simulate a little work, ones that throw, ones that interrupt their own thread, and ones that sleep
 *       (interruptibly) for a millisecond;</li>
 *   <li>a chaos thread that tunes the capacity up and down, changes the live options ({@code reconfigure}:
 *       {@code nonblocking}, {@code maxWait}, {@code maxBlockingTasks}) while callers block under the old ones,
 *       releases and at once reboots the pool, interrupts submitters (possibly while they are blocked in
 *       {@code execute}), and checks the metrics' bounds.</li>
 * </ul>
 * The chaos thread ends the round with {@code release()} or {@code shutdownNow()} (in turn) while the
 * submitters are still submitting (so some are woken from a blocked {@code execute} by the close); after
 * {@code awaitTermination} the books must balance:
 * <ul>
 *   <li>every accepted task ran exactly once or was handed back by {@code shutdownNow} (never both, never neither);
 *       no refused task ran;</li>
 *   <li>every task that threw reached the panic handler once;</li>
 *   <li>no task started with a stray interrupt status, except while the pool was being stopped by
 *       {@code shutdownNow} (interrupts aimed at a finished task must not leak into the next one);</li>
 *   <li>{@code running()} and {@code waiting()} are 0, and no thread of the round's pool is alive any more (nor, for
 *       virtual threads, which no thread list shows, any of a sample of the tasks' own threads);</li>
 *   <li>{@code stats()} counts as many completed and failed tasks as ran, as many failed as threw, and none busy,
 *       queued or blocked;</li>
 *   <li>with {@code virtualThreads(true)}, no thread ran a second task.</li>
 * </ul>
 * The totals are printed and written to {@code target/soak-report.txt}.
 */
class WorkerPoolSoakTest {

    private static final int SUBMITTERS = 4;
    /** The pool modes of {@link #mode}; round r uses mode {@code r % MODES} and ends with shutdownNow when
     * {@code (r / MODES)} is even, so every fourteen rounds cover every combination. */
    private static final int MODES = 7;
    private static final Duration ROUND = Duration.ofSeconds(2);
    /** The rounds of the short soak that runs in every build. */
    private static final Duration SHORT_ROUND = Duration.ofMillis(700);
    private static final int MAX_CAPACITY = 12;
    /** Submitters pause while this many callers and tasks are waiting, so that a round drains in well under 1 s. */
    private static final int MAX_BACKLOG = 256;

    /** Whether the current thread has run a soak task: an unpooled virtual thread must never run a second one. */
    private static final ThreadLocal<Boolean> RAN_A_TASK = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private final SoakTotals totals = new SoakTotals();
    private final AtomicInteger strayInterrupts = new AtomicInteger();
    private final AtomicInteger secondTasksOnAVirtualThread = new AtomicInteger();

    @Test
    @Tag("soak")
    void booksBalanceUnderContentionFaultsAndLifecycleChurn() throws Exception {
        Duration duration = Duration.parse(System.getProperty("soak.duration", "PT30S"));
        Instant started = Instant.now();
        long end = System.nanoTime() + duration.toNanos();
        int round = 0;
        while (System.nanoTime() < end) {
            long roundEnd = Math.min(end, System.nanoTime() + ROUND.toNanos());
            runRound(round++, roundEnd);
        }
        totals.rounds = round;
        checkTotals();
        String report = "soak " + duration + " started " + started + " on " + Runtime.getRuntime().availableProcessors()
                + " CPUs, java " + Runtime.version() + ": " + totals;
        System.out.println(report);
        writeReport(report);
    }

    /**
     * In every build (not only with {@code -Psoak}): one short round of each mode with each ending, so that a change
     * that breaks the books in any mode, the unpooled virtual threads' included, fails {@code ./mvnw verify}.
     */
    @Test
    void everyModeWithEachEndingBalancesItsBooks() throws Exception {
        for (int round = 0; round < 2 * MODES; round++) {
            runRound(round, System.nanoTime() + SHORT_ROUND.toNanos());
        }
        totals.rounds = 2 * MODES;
        checkTotals();
        System.out.println("short soak: " + totals);
    }

    private void checkTotals() {
        assertThat(strayInterrupts).as("tasks that started with a stray interrupt status").hasValue(0);
        assertThat(secondTasksOnAVirtualThread).as("unpooled virtual threads that ran a second task").hasValue(0);
        assertThat(totals.panics.get()).as("panics = tasks that threw").isEqualTo(totals.thrown.get());
        assertThat(liveThreads("soak-")).as("soak worker threads still alive").isEmpty();
    }

    private void runRound(int round, long roundEnd) throws Exception {
        String name = "soak-r" + round;
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        int capacity = 1 + rnd.nextInt(8);
        PoolOptions options = mode(round % MODES, rnd, PoolOptions.builder()
                .name(name)
                .expiry(Duration.ofMillis(20))
                .panicHandler(e -> totals.panics.incrementAndGet()))
                .build();
        WorkerPool pool = WorkerPool.create(capacity, options);
        SoakLedger ledger = new SoakLedger();
        RoundState state = new RoundState((round / MODES) % 2 == 0, options.virtualThreads());
        long thrownBefore = totals.thrown.get();

        List<Thread> submitters = new ArrayList<>();
        for (int i = 0; i < SUBMITTERS; i++) {
            submitters.add(Thread.ofPlatform().name("submitter-" + i).start(() -> submit(pool, ledger, state)));
        }
        Thread chaos = Thread.ofPlatform().name("chaos")
                .start(() -> chaos(pool, submitters, ledger, state, roundEnd));

        chaos.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(chaos.isAlive()).as("chaos thread finished").isFalse();
        for (Thread t : submitters) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(t.isAlive()).as("submitter %s finished (not stuck in execute)", t.getName()).isFalse();
        }
        assertThat(state.failure).as("failure in the chaos thread").isNull();
        assertThat(state.submitterFailure).as("failure in a submitter").isNull();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("%s terminated", pool).isTrue();
        assertThat(pool.running()).as("running() after termination").isZero();
        assertThat(pool.waiting()).as("waiting() after termination").isZero();
        long handedBackBefore = totals.handedBack;
        long acceptedBefore = totals.accepted;
        long ran = ledger.verify(totals);
        PoolStats stats = pool.stats();
        assertThat(stats.completed() + stats.failed()).as("%s: completed + failed = the tasks that ran", name)
                .isEqualTo(ran);
        assertThat(stats.failed()).as("%s: failed = the tasks that threw", name)
                .isEqualTo(totals.thrown.get() - thrownBefore);
        assertThat(List.of(stats.busy(), stats.queued(), stats.blocked())).as("%s: busy, queued, blocked", name)
                .containsOnly(0);
        System.out.println(name + ": capacity " + capacity + ", " + options
                + (options.threadFactory() != null ? " (virtual workers)" : "") + ", stop "
                + (state.stopping ? "shutdownNow" : "release") + ": accepted " + (totals.accepted - acceptedBefore)
                + ", handed back " + (totals.handedBack - handedBackBefore));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(liveThreads(name + "-")).as("threads of %s after termination", name).isEmpty());
        // virtual threads are not in Thread.getAllStackTraces(): a sample of the tasks' own threads is watched instead
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(state.sampledThreads)
                .as("sampled task threads of %s alive after termination", name).noneMatch(Thread::isAlive));
    }

    private static PoolOptions.Builder mode(int mode, ThreadLocalRandom rnd, PoolOptions.Builder b) {
        return switch (mode) {
            case 0 -> maybeMaxWait(rnd, b);                          // blocking, no queue (ants)
            case 1 -> b.nonblocking(true);
            case 2 -> b.queueCapacity(1 + rnd.nextInt(32)).maxBlockingTasks(1 + rnd.nextInt(3));
            case 3 -> b.queueCapacity(-1);
            case 4 -> b.threadFactory(Thread.ofVirtual().name(b.build().name() + "-", 1).factory());
            case 5 -> maybeMaxWait(rnd, b.virtualThreads(true));     // unpooled: a fresh virtual thread per task
            default -> maybeMaxWait(rnd, b.virtualThreads(true).queueCapacity(1 + rnd.nextInt(32)));
        };
    }

    /** Half the time, a blocked caller waits at most 0 to 2 ms: the timed wait's give-up races the grants. */
    private static PoolOptions.Builder maybeMaxWait(ThreadLocalRandom rnd, PoolOptions.Builder b) {
        return rnd.nextBoolean() ? b.maxWait(Duration.ofMillis(rnd.nextInt(3))) : b;
    }

    /**
     * One submitter: submits random tasks until the round ends, recording what was accepted. What it throws (a check
     * that failed, an exception execute must not throw) is kept for the round's checks, not lost with the thread.
     */
    private void submit(WorkerPool pool, SoakLedger ledger, RoundState state) {
        try {
            submitUntilFinished(pool, ledger, state);
        } catch (Throwable e) {
            if (state.submitterFailure == null) {
                state.submitterFailure = e;
            }
        }
    }

    private void submitUntilFinished(WorkerPool pool, SoakLedger ledger, RoundState state) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        while (!state.finished) {
            if (pool.waiting() > MAX_BACKLOG) {
                // an unbounded queue would otherwise take millions of tasks that the round's end must then drain
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
                continue;
            }
            int id = ledger.newId();
            if (id < 0) {
                return;
            }
            SoakTask task = new SoakTask(id, rnd.nextInt(100), ledger, state);
            try {
                pool.execute(task);
                ledger.accepted(id);
            } catch (PoolClosedException e) {
                totals.closedRejections.incrementAndGet();
            } catch (PoolOverloadException e) {
                totals.overloadRejections.incrementAndGet();
            } catch (RejectedExecutionException e) {
                assertThat(e).hasCauseInstanceOf(InterruptedException.class);
                totals.interruptedSubmits.incrementAndGet();
            }
            Thread.interrupted(); // an interrupt from the chaos thread that missed the blocking wait
        }
    }

    /**
     * The chaos thread: tunes, releases and reboots, interrupts submitters and checks metric bounds until the round
     * ends; then stops the pool with {@code release()} or {@code shutdownNow()} while the submitters are still at it,
     * and tells them to finish.
     */
    private void chaos(WorkerPool pool, List<Thread> submitters, SoakLedger ledger, RoundState state, long roundEnd) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        try {
            while (System.nanoTime() < roundEnd) {
                int action = rnd.nextInt(100);
                if (action < 40) {
                    pool.tune(1 + rnd.nextInt(MAX_CAPACITY));
                    totals.tunes.incrementAndGet();
                } else if (action < 45) {
                    pool.release();
                    pool.reboot();
                    totals.reboots.incrementAndGet();
                } else if (action < 60) {
                    submitters.get(rnd.nextInt(submitters.size())).interrupt();
                } else if (action < 63) {
                    reconfigure(pool, rnd);
                }
                Check.between("running()", pool.running(), 0, MAX_CAPACITY);
                Check.between("waiting()", pool.waiting(), 0, Integer.MAX_VALUE);
                Check.between("free()", pool.free(), 0, MAX_CAPACITY);
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200)); // pacing, not synchronisation
            }
        } catch (Throwable e) {
            state.failure = e;
        } finally {
            if (state.endWithShutdownNow) {
                state.stopping = true;
                totals.shutdownNows.incrementAndGet();
                for (Runnable r : pool.shutdownNow()) {
                    ledger.handedBack(((SoakTask) r).id);
                }
            } else {
                pool.release();
            }
            state.finished = true;
        }
    }

    /**
     * Changes every live option at random (callers blocked meanwhile keep the rules they entered with) and checks that
     * {@code options()} answers what was set; the books must balance whatever rules each caller met.
     */
    private void reconfigure(WorkerPool pool, ThreadLocalRandom rnd) {
        PoolOptions.Builder changed = pool.options().toBuilder()
                .nonblocking(rnd.nextInt(8) == 0) // mostly blocking rules: the blocked paths are where races are
                .maxBlockingTasks(rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(3) : 0);
        PoolOptions wanted = (rnd.nextInt(3) == 0 ? changed.maxWait(Duration.ofMillis(rnd.nextInt(3)))
                : changed.maxWait(null)).build();
        pool.reconfigure(wanted);
        PoolOptions now = pool.options();
        assertThat(List.of(now.nonblocking(), String.valueOf(now.maxWait()), now.maxBlockingTasks()))
                .as("options() after reconfigure").containsExactly(wanted.nonblocking(),
                        String.valueOf(wanted.maxWait()), wanted.maxBlockingTasks());
        totals.reconfigures.incrementAndGet();
    }

    private static List<String> liveThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(n -> n.startsWith(prefix))
                .toList();
    }

    private static void writeReport(String report) throws IOException {
        Path target = Path.of("target");
        if (Files.isDirectory(target)) {
            Files.writeString(target.resolve("soak-report.txt"), report + System.lineSeparator());
        }
    }

    /** What the chaos thread tells the others about the round. */
    static final class RoundState {
        /** Whether the round ends with shutdownNow rather than release. */
        final boolean endWithShutdownNow;
        /** The pool is being stopped by shutdownNow: tasks may now start interrupted. */
        volatile boolean stopping;
        /** The pool has been stopped for good: submitters finish. */
        volatile boolean finished;
        /** What the chaos thread's checks threw, if anything. */
        volatile Throwable failure;
        /** What a submitter's checks threw (or execute threw unexpectedly), if anything: the first of them. */
        volatile Throwable submitterFailure;
        /** Whether the pool runs each task on a fresh virtual thread ({@code virtualThreads(true)}). */
        final boolean unpooled;
        /** The threads of one task in 64, to check that none outlives the round (virtual ones included). */
        final Queue<Thread> sampledThreads = new ConcurrentLinkedQueue<>();

        RoundState(boolean endWithShutdownNow, boolean unpooled) {
            this.endWithShutdownNow = endWithShutdownNow;
            this.unpooled = unpooled;
        }
    }

    /** A task of a random kind that books its run in the round's ledger. */
    final class SoakTask implements Runnable {

        final int id;
        private final int kind;
        private final SoakLedger ledger;
        private final RoundState state;

        SoakTask(int id, int kind, SoakLedger ledger, RoundState state) {
            this.id = id;
            this.kind = kind;
            this.ledger = ledger;
            this.state = state;
        }

        @Override
        public void run() {
            ledger.ran(id);
            if (Thread.currentThread().isInterrupted() && !state.stopping) {
                strayInterrupts.incrementAndGet();
            }
            if (state.unpooled) {
                if (RAN_A_TASK.get()) {
                    secondTasksOnAVirtualThread.incrementAndGet();
                }
                RAN_A_TASK.set(Boolean.TRUE);
            }
            if (id % 64 == 0) {
                state.sampledThreads.add(Thread.currentThread());
            }
            if (kind < 50) {
                return;                                                              // quick
            }
            if (kind < 80) {
                LockSupport.parkNanos(ThreadLocalRandom.current().nextInt(200_000)); // a little work
            } else if (kind < 88) {
                totals.thrown.incrementAndGet();
                throw new IllegalStateException("soak task " + id + " fails on purpose");
            } else if (kind < 94) {
                Thread.currentThread().interrupt();                                  // leaves a stray interrupt
            } else {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    totals.interruptedTasks.incrementAndGet();
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
