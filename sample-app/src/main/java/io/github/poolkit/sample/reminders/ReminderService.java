package io.github.poolkit.sample.reminders;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.sample.web.InvalidRequestException;
import io.github.poolkit.sample.web.NotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.stereotype.Service;

/**
 * Keeps reminders on the starter's {@link DelayScheduler}: each one is a one-shot job that logs its text when due.
 *
 * <p>Implementation overview. {@code pending} maps the id of every reminder that has neither fired nor been
 * cancelled to its entry (the reminder and the {@link ScheduledFuture} that will fire it); {@code fired} keeps the
 * last {@value #FIRED_KEPT} reminders that fired, newest first, and {@code firedCount} counts all of them. All
 * three are guarded by this object's monitor, and each reminder ends exactly once: whichever of the firing job and
 * {@link #cancel} (or {@link #cancelAll}) removes it from {@code pending} first decides its fate, the other finds
 * nothing. Scheduling happens under the monitor too, so a reminder due at once cannot fire before its entry is in
 * {@code pending}: its job waits for the monitor. The monitor is held only for map operations and for
 * {@code scheduleOnce}, which never blocks. {@code running} is volatile and only reported to Spring's lifecycle
 * processor, which starts and stops the service from one thread; {@code closing} is volatile and set once, by the
 * context's close, before that processor stops the service.
 */
@Service
public class ReminderService implements SmartLifecycle, ApplicationListener<ContextClosedEvent>,
        ApplicationContextAware {

    /**
     * The lifecycle phase of the service. Lifecycles stop from the highest phase down: Spring Boot's web server
     * stops at {@code DEFAULT_PHASE - 2048}, the starter releases its pools and scheduler at
     * {@code DEFAULT_PHASE - 4096}, and this lies between the two.
     */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 3072;

    /** The longest delay a reminder may have. */
    static final Duration MAX_DELAY = Duration.ofDays(1);

    /** The longest text a reminder may have. */
    static final int MAX_TEXT_LENGTH = 200;

    /** How many fired reminders {@link #fired()} remembers. */
    static final int FIRED_KEPT = 10;

    private static final Logger log = LoggerFactory.getLogger(ReminderService.class);

    private record Entry(Reminder reminder, ScheduledFuture<?> future) {
    }

    private final DelayScheduler scheduler;
    private final AtomicLong ids = new AtomicLong();
    private long firedCount;
    private volatile boolean running;
    private volatile boolean closing;
    private ApplicationContext context;
    private final Map<String, Entry> pending = new HashMap<>();
    private final Deque<Reminder> fired = new ArrayDeque<>();

    /**
     * Creates the service.
     *
     * @param scheduler the starter's scheduler
     */
    public ReminderService(DelayScheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Schedules a reminder.
     *
     * @param text  what to remind of, 1 to 200 characters, not blank
     * @param delay how long from now until it fires, zero to one day
     * @return the scheduled reminder
     * @throws InvalidRequestException when the text or the delay is out of range
     */
    public Reminder schedule(String text, Duration delay) {
        if (text == null || text.isBlank() || text.length() > MAX_TEXT_LENGTH) {
            throw new InvalidRequestException(
                    "text must be 1 to %d characters and not blank".formatted(MAX_TEXT_LENGTH));
        }
        if (delay == null || delay.isNegative() || delay.compareTo(MAX_DELAY) > 0) {
            throw new InvalidRequestException(
                    "delayMs must be between 0 and %d, but was %s".formatted(
                            MAX_DELAY.toMillis(), delay == null ? "missing" : delay.toMillis()));
        }
        Reminder reminder = new Reminder(Long.toString(ids.incrementAndGet()), text, Instant.now().plus(delay));
        synchronized (this) {
            ScheduledFuture<?> future = scheduler.scheduleOnce(() -> fire(reminder.id()), delay);
            pending.put(reminder.id(), new Entry(reminder, future));
        }
        return reminder;
    }

    /**
     * Returns the reminders that have neither fired nor been cancelled, soonest first.
     *
     * @return a snapshot of the pending reminders
     */
    public synchronized List<Reminder> pending() {
        return pending.values().stream()
                .map(Entry::reminder)
                .sorted(Comparator.comparing(Reminder::dueAt).thenComparing(Reminder::id))
                .toList();
    }

    /**
     * Returns one pending reminder.
     *
     * @param id the reminder's id
     * @return the reminder
     * @throws NotFoundException when no pending reminder has that id
     */
    public synchronized Reminder get(String id) {
        Entry entry = pending.get(id);
        if (entry == null) {
            throw unknown(id);
        }
        return entry.reminder();
    }

    /**
     * Returns the reminders that fired most recently, newest first.
     *
     * @return a snapshot of at most {@value #FIRED_KEPT} reminders
     */
    public synchronized List<Reminder> fired() {
        return List.copyOf(fired);
    }

    /**
     * Cancels a pending reminder: it will not fire.
     *
     * @param id the reminder's id
     * @return the cancelled reminder
     * @throws NotFoundException when no pending reminder has that id (unknown, already fired or cancelled)
     */
    public Reminder cancel(String id) {
        Entry entry;
        synchronized (this) {
            entry = pending.remove(id);
        }
        if (entry == null) {
            throw unknown(id);
        }
        entry.future().cancel(false);
        return entry.reminder();
    }

    /**
     * Returns how many reminders have fired since the application started.
     *
     * @return the number of fired reminders
     */
    public synchronized long firedCount() {
        return firedCount;
    }

    /**
     * Cancels every pending reminder. Reminders live in memory only, so they would be lost at shut-down anyway.
     */
    public void cancelAll() {
        List<Entry> cancelled;
        synchronized (this) {
            cancelled = List.copyOf(pending.values());
            pending.clear();
        }
        cancelled.forEach(entry -> entry.future().cancel(false));
        if (!cancelled.isEmpty()) {
            log.info("Cancelled {} pending reminder(s)", cancelled.size());
        }
    }

    /** Marks the service running; reminders need no start-up work. */
    @Override
    public void start() {
        running = true;
    }

    /**
     * Notes that the application is shutting down: the next {@link #stop()} is its last.
     *
     * @param event the context's close, published before its lifecycle beans stop
     */
    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        if (event.getApplicationContext() == context) { // not a child context's close, which reaches us too
            closing = true;
        }
    }

    /**
     * Learns the context this service belongs to, whose close alone is its shut-down.
     *
     * @param context the service's application context
     */
    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    /**
     * When the application shuts down, cancels every pending reminder, in {@link #PHASE}: after the web server has
     * stopped taking requests and before the starter shuts the {@link DelayScheduler} down. A scheduler that is
     * shut down still runs its pending one-shot jobs, so a reminder due tomorrow would otherwise hold up the
     * shut-down for the scheduler's whole shutdown timeout. A stop that is not a shut-down ({@code context.stop()},
     * a checkpoint) keeps them: the starter pauses the scheduler, and they fire after the {@link #start()} that
     * follows (one due meanwhile, at once).
     */
    @Override
    public void stop() {
        running = false;
        if (closing) {
            cancelAll();
        }
    }

    /**
     * Tells whether the service is running: between {@link #start()} and {@link #stop()}.
     *
     * @return whether the service is running
     */
    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Returns {@link #PHASE}.
     *
     * @return the phase in which this service starts and stops
     */
    @Override
    public int getPhase() {
        return PHASE;
    }

    private void fire(String id) {
        Reminder reminder;
        synchronized (this) {
            Entry entry = pending.remove(id);
            if (entry == null) {
                return; // cancelled first
            }
            reminder = entry.reminder();
            firedCount++;
            fired.addFirst(reminder);
            while (fired.size() > FIRED_KEPT) {
                fired.removeLast();
            }
        }
        log.info("Reminder {}: {}", reminder.id(), reminder.text());
    }

    private static NotFoundException unknown(String id) {
        return new NotFoundException(
                "No pending reminder with id '%s' (it may have fired or been cancelled); GET /api/reminders lists them"
                        .formatted(id));
    }
}
