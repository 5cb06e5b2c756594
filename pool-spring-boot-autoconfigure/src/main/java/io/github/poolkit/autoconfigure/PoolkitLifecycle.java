package io.github.poolkit.autoconfigure;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.WorkerPool;

/**
 * Stops the pools and the scheduler that poolkit's auto-configuration created, within one deadline, when the
 * application context closes, and pauses and resumes them on the context's {@code stop()} and {@code start()}.
 *
 * <p><b>Close.</b> Every pool and the scheduler stop accepting at once (a pool is released, the scheduler shut down:
 * its periodic jobs are cancelled, its pending one-shot jobs still run when due), then all drain in parallel while this
 * lifecycle waits for them against a single deadline ({@link #deadline()}: the longest {@code shutdown-timeout} that
 * was set, else {@code spring.lifecycle.timeout-per-shutdown-phase}). At the deadline each one that has not finished
 * is stopped with {@code shutdownNow()}: its running tasks are interrupted and its tasks that never started are taken
 * out; then, per pool, one WARN line names the pool, the counts and the unstarted tasks, and a
 * {@link PoolTasksAbandonedEvent} hands them to the application. Interrupted tasks then get at most
 * {@link #INTERRUPT_GRACE} to end (their {@code finally} blocks); a pool whose tasks ignore the interrupt is named in
 * one more WARN line and left to them.
 *
 * <p><b>Stop and start (pause and resume, as for checkpoint and restore).</b> {@code stop()} outside a close does the
 * same for the pools, which {@code start()} then reopens with {@code reboot()}. The scheduler cannot be reopened, so
 * it is paused instead ({@link SchedulerPause}), before any pool closes, and resumed after every pool reopened: jobs
 * that fall due wait until {@code start()} (repeats of a repeating job are skipped); running jobs get the same
 * deadline and are interrupted at it. A pool the application released itself is left alone, also by
 * {@code start()}, and so is one it is closing at that moment (a WARN names it; the others still reopen). A context
 * closed while stopped closes what is still open (the scheduler, pools created since).
 *
 * <p>The phase, {@link #PHASE}, is below those of Spring Boot's web server (graceful shutdown at
 * {@code DEFAULT_PHASE - 1024}, server stop at {@code DEFAULT_PHASE - 2048}); lifecycles stop from the highest phase
 * down, so requests in flight, which may still submit tasks, are drained by the web server before any pool stops
 * accepting.
 *
 * <p>Implementation overview: {@link #manage} may be called from any thread (lazy beans are created late), so the
 * list is guarded by {@code this}; stopping takes a snapshot under the lock and works outside it, so a slow pool never
 * blocks registration. The lifecycle processor calls start, stop and the close event from one thread, so the other
 * fields are only volatile for the racy {@link #isRunning()} reads of other threads. A close is told from a plain stop
 * by the {@link ContextClosedEvent} of this lifecycle's own context, which Spring publishes before it stops the
 * lifecycles, or, should that event not have reached this listener (another close listener threw first), by the
 * context's own {@code isClosed()}.
 */
public class PoolkitLifecycle
        implements SmartLifecycle, ApplicationContextAware, ApplicationListener<ContextClosedEvent>, DisposableBean {

    /** The phase of this lifecycle: stopped after the web server has drained its requests and stopped. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    /** How long interrupted tasks may take to end after the deadline before they are left running. */
    public static final Duration INTERRUPT_GRACE = Duration.ofSeconds(1);

    /** At most this many unstarted tasks are named in a pool's log line; the event carries all of them. */
    static final int TASKS_LOGGED = 20;

    /** At most this many characters of one task's {@code toString()} are logged. */
    private static final int TASK_CHARS = 200;

    private static final Log logger = LogFactory.getLog(PoolkitLifecycle.class);

    private final Duration defaultDeadline;
    private final List<Managed> managed = new ArrayList<>();
    private final List<Managed> reopen = new ArrayList<>();
    private ApplicationContext context;
    private volatile boolean running;
    private volatile boolean closing;

    /** Creates a lifecycle that manages nothing yet, whose deadline is 30 s unless a shutdown timeout is set. */
    public PoolkitLifecycle() {
        this(PoolkitAutoConfiguration.DEFAULT_LIFECYCLE_TIMEOUT);
    }

    /**
     * Creates a lifecycle that manages nothing yet, with the given deadline for when none is configured.
     *
     * @param defaultDeadline the deadline when no managed pool or scheduler has a {@code shutdown-timeout} set:
     *                        {@code spring.lifecycle.timeout-per-shutdown-phase}
     */
    public PoolkitLifecycle(Duration defaultDeadline) {
        this.defaultDeadline = Objects.requireNonNull(defaultDeadline, "defaultDeadline");
    }

    /**
     * Stops {@code pool} on close and {@code stop()}, reopens it on {@code start()}.
     *
     * @param name    the bean name, for logs and events
     * @param pool    the pool
     * @param timeout its {@code shutdown-timeout}, or {@code null} when not set
     */
    public void manage(String name, WorkerPool pool, Duration timeout) {
        add(new Managed("Pool", name, pool, timeout, null));
    }

    /**
     * Stops {@code scheduler} on close; pauses it on {@code stop()} and resumes it on {@code start()} when
     * {@code pause} gates its jobs (the scheduler's task decorator applies it), else leaves it running then.
     *
     * @param name      the bean name, for logs and events
     * @param scheduler the scheduler
     * @param timeout   its {@code shutdown-timeout}, or {@code null} when not set
     * @param pause     the gate of its jobs, or {@code null}
     */
    void manage(String name, DelayScheduler scheduler, Duration timeout, SchedulerPause pause) {
        add(new Managed("Scheduler", name, scheduler, timeout, pause));
    }

    private void add(Managed entry) {
        boolean late;
        synchronized (this) {
            managed.add(entry);
            late = closing && !running;
        }
        if (late) { // made once a close stopped the others (a lazy bean a draining task asked for): it takes no task
            entry.target.shutdown();
        }
    }

    private synchronized List<Managed> snapshot() {
        return new ArrayList<>(managed);
    }

    @Override
    public void setApplicationContext(ApplicationContext context) throws BeansException {
        this.context = context;
    }

    /**
     * The deadline of a stop, from its start: the longest {@code shutdown-timeout} set on any pool or scheduler this
     * lifecycle manages; when none is set, the default deadline given at construction.
     *
     * @return the deadline
     */
    public Duration deadline() {
        return snapshot().stream().map(Managed::timeout).filter(Objects::nonNull).max(Comparator.naturalOrder())
                .orElse(defaultDeadline);
    }

    /** Reopens what the last {@code stop()} closed or paused. */
    @Override
    public void start() {
        List<Managed> toReopen;
        synchronized (this) {
            toReopen = new ArrayList<>(reopen);
            reopen.clear();
        }
        // every pool first, then the schedulers: a held job that runs at once submits to open pools only; and the
        // schedulers resume even if a pool's reboot fails unexpectedly (an Error starting its chores' thread)
        try {
            toReopen.stream().filter(entry -> entry.pause == null).forEach(PoolkitLifecycle::reboot);
        }
        finally {
            toReopen.stream().filter(entry -> entry.pause != null).forEach(entry -> entry.pause.resume());
        }
        running = true;
    }

    /**
     * Reopens one pool. One that the application is closing itself (its {@code close()} waits for a task that
     * outlived the stop) cannot be: it is left to that close, as a pool the application released is, and the others
     * are still reopened.
     */
    private static void reboot(Managed entry) {
        try {
            ((WorkerPool) entry.target).reboot();
        }
        catch (IllegalStateException ex) {
            logger.warn(entry.kind + " '" + entry.name + "' was not reopened: " + ex.getMessage());
        }
    }

    /** Marks a close of this lifecycle's own context; when it comes while stopped, closes what is still open. */
    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        if (context != null && event.getApplicationContext() != context) {
            return;
        }
        closing = true;
        if (!running) {
            List<Managed> paused;
            synchronized (this) {
                paused = new ArrayList<>(reopen);
                reopen.clear();
            }
            // A paused scheduler is shut down first, then let go, so that its held jobs meet the same rules as on a
            // close while running.
            List<Managed> open = snapshot().stream().filter(entry -> !entry.target.isShutdown()).toList();
            open.forEach(entry -> entry.target.shutdown());
            paused.stream().filter(entry -> entry.pause != null).forEach(entry -> entry.pause.resume());
            drain(open, true);
        }
    }

    /**
     * Closes, as on a context close, whatever no close has stopped yet: the pools and the scheduler of a start-up that
     * failed after they were created (their own destroy methods only stopped their accepting; a scheduler would keep
     * its timer, and run its pending one-shot jobs, for as long as they are delayed). After a close, it does nothing.
     */
    @Override
    public void destroy() {
        if (closing) {
            return;
        }
        closing = true;
        running = false;
        List<Managed> open = snapshot().stream().filter(entry -> !entry.target.isTerminated()).toList();
        open.forEach(entry -> entry.target.shutdown());
        List<Managed> paused;
        synchronized (this) {
            paused = new ArrayList<>(reopen);
            reopen.clear();
        }
        paused.stream().filter(entry -> entry.pause != null).forEach(entry -> entry.pause.resume());
        drain(open, true);
    }

    /**
     * On a close: stops every managed pool and scheduler from accepting tasks, waits for all of them until the
     * deadline, then stops what is left as the class description says. Outside a close, the same for the pools,
     * while the scheduler is paused. An interrupt of the calling thread counts as the deadline (the status is kept).
     */
    @Override
    public void stop() {
        running = false;
        boolean close = closingNow();
        // Invariant: every target stops accepting (or is paused) before any waiting starts, so no pool keeps taking
        // work while another drains.
        List<Managed> stopping = snapshot().stream()
                .filter(entry -> !entry.target.isShutdown() && (close || entry.reopens())).toList();
        // Outside a close, the schedulers are paused before any pool closes: a job that starts meanwhile is held,
        // never run against a closed pool.
        if (!close) {
            stopping.stream().filter(entry -> entry.pause != null).forEach(entry -> entry.pause.pause());
        }
        stopping.stream().filter(entry -> close || entry.pause == null).forEach(entry -> entry.target.shutdown());
        if (!close) {
            synchronized (this) {
                reopen.addAll(stopping);
            }
        }
        drain(stopping, close);
    }

    /**
     * @return whether this stop is a close: the close event was heard, or the context says it is closing (its event
     *         may not have reached this listener: another close listener that threw first stops the notification)
     */
    private boolean closingNow() {
        if (!closing && context instanceof ConfigurableApplicationContext configurable && configurable.isClosed()) {
            closing = true;
        }
        return closing;
    }

    /** Closes are told by the event's own thread, in order with the lifecycle's stop: never on another thread. */
    @Override
    public boolean supportsAsyncExecution() {
        return false;
    }

    /** Waits for {@code targets} until the deadline, then interrupts, reports and hands over what is left. */
    private void drain(List<Managed> targets, boolean close) {
        Duration deadline = deadline();
        long end = System.nanoTime() + nanos(deadline);
        List<Managed> late = targets.stream().filter(entry -> !entry.awaitUntil(end, close)).toList();
        List<Abandoned> abandoned = late.stream().map(entry -> entry.abandon(close)).toList();
        abandoned.forEach(left -> report(left, deadline));
        long graceEnd = System.nanoTime() + nanos(INTERRUPT_GRACE);
        for (Abandoned left : abandoned) {
            if (!left.entry.awaitUntil(graceEnd, close)) {
                logger.warn(left.entry.kind + " '" + left.entry.name + "': " + left.entry.busy(close)
                        + " interrupted tasks still running " + format(INTERRUPT_GRACE)
                        + " after the interrupt; they ignore it and are left running");
            }
        }
    }

    private void report(Abandoned left, Duration deadline) {
        Managed entry = left.entry;
        logger.warn(entry.kind + " '" + entry.name + "' did not finish within the shutdown deadline of "
                + format(deadline) + ": interrupted " + left.interrupted + " running tasks, "
                + left.unstarted.size() + " tasks never started" + describe(left.unstarted));
        if (context == null) {
            return;
        }
        try {
            context.publishEvent(new PoolTasksAbandonedEvent(entry.target, entry.name, left.unstarted,
                    left.interrupted, deadline));
        }
        catch (RuntimeException ex) {
            logger.warn("A listener of PoolTasksAbandonedEvent failed for " + entry.kind.toLowerCase() + " '"
                    + entry.name + "'; the other pools are still stopped", ex);
        }
    }

    /** @return {@code duration} in Spring Boot's simple style, in the largest unit that shows it whole: 2s, 300ms */
    static String format(Duration duration) {
        if (duration.getNano() == 0) {
            long seconds = duration.getSeconds();
            for (ChronoUnit unit : new ChronoUnit[] { ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES }) {
                if (seconds != 0 && seconds % unit.getDuration().getSeconds() == 0) {
                    return DurationStyle.SIMPLE.print(duration, unit);
                }
            }
            return DurationStyle.SIMPLE.print(duration, ChronoUnit.SECONDS);
        }
        ChronoUnit unit = (duration.getNano() % 1_000_000 == 0) ? ChronoUnit.MILLIS
                : (duration.getNano() % 1_000 == 0) ? ChronoUnit.MICROS : ChronoUnit.NANOS;
        return DurationStyle.SIMPLE.print(duration, unit);
    }

    /** @return {@code duration} in nanoseconds, at most about 146 years, so that adding it to a nanoTime never wraps */
    private static long nanos(Duration duration) {
        return (duration.getSeconds() >= Long.MAX_VALUE / 2 / 1_000_000_000L) ? Long.MAX_VALUE / 2
                : duration.toNanos();
    }

    /** @return the tasks as {@code ": [a, b] and n more"}, each {@code toString()} guarded and shortened */
    private static String describe(List<Runnable> tasks) {
        if (tasks.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder(": [");
        int shown = Math.min(tasks.size(), TASKS_LOGGED);
        for (int i = 0; i < shown; i++) {
            text.append((i > 0) ? ", " : "").append(describe(tasks.get(i)));
        }
        text.append(']');
        if (tasks.size() > shown) {
            text.append(" and ").append(tasks.size() - shown).append(" more");
        }
        return text.toString();
    }

    private static String describe(Runnable task) {
        String text;
        try {
            text = String.valueOf(task);
        }
        catch (RuntimeException | LinkageError ex) {
            text = task.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(task)) + " (toString "
                    + "threw " + ex.getClass().getSimpleName() + ")";
        }
        return (text.length() > TASK_CHARS) ? text.substring(0, TASK_CHARS) + "..." : text;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** What a pool or scheduler left at the deadline. */
    private record Abandoned(Managed entry, List<Runnable> unstarted, int interrupted) {
    }

    /**
     * A pool or scheduler with its bean name and its {@code shutdown-timeout} ({@code null}: not set); {@code pause}
     * is set for a scheduler whose jobs it gates.
     */
    private record Managed(String kind, String name, ExecutorService target, Duration timeout, SchedulerPause pause) {

        /** @return whether {@code start()} can bring it back after a {@code stop()}: a pool, or a gated scheduler */
        boolean reopens() {
            return target instanceof WorkerPool || pause != null;
        }

        /** @return whether the target finished by {@code end} ({@link System#nanoTime()}): terminated, or idle */
        boolean awaitUntil(long end, boolean close) {
            if (!close && pause != null) {
                return pause.awaitIdle(end);
            }
            try {
                return !Thread.currentThread().isInterrupted()
                        && target.awaitTermination(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        /** @return the tasks running now */
        int busy(boolean close) {
            if (!close && pause != null) {
                return pause.running();
            }
            return (target instanceof WorkerPool pool) ? pool.stats().busy()
                    : ((DelayScheduler) target).stats().busy();
        }

        /** Interrupts the running tasks and takes out the unstarted ones (a paused scheduler keeps those). */
        Abandoned abandon(boolean close) {
            if (!close && pause != null) {
                return new Abandoned(this, List.of(), pause.interruptRunning());
            }
            int busy = busy(close);
            return new Abandoned(this, target.shutdownNow().stream().map(DecoratedTask::unwrap).toList(), busy);
        }
    }
}
