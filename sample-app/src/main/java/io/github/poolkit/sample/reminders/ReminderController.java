package io.github.poolkit.sample.reminders;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import io.github.poolkit.sample.web.InvalidRequestException;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The REST face of {@link ReminderService}: schedule ({@code POST}), list ({@code GET}), look up and cancel
 * ({@code GET} / {@code DELETE} by id) reminders, and see the ones that fired recently.
 */
@RestController
@RequestMapping("/api/reminders")
public class ReminderController {

    private final ReminderService reminders;

    /**
     * Creates the controller.
     *
     * @param reminders the service that keeps the reminders
     */
    public ReminderController(ReminderService reminders) {
        this.reminders = reminders;
    }

    /**
     * Schedules a reminder.
     *
     * @param request the text and the delay
     * @return {@code 201 Created} with the reminder and its {@code Location}
     * @throws InvalidRequestException when the body is missing or out of range
     */
    @PostMapping
    public ResponseEntity<Reminder> schedule(@RequestBody ReminderRequest request) {
        if (request.delayMs() == null) {
            throw new InvalidRequestException("delayMs is required: milliseconds from now, e.g. {\"delayMs\": 5000}");
        }
        Reminder reminder = reminders.schedule(request.text(), Duration.ofMillis(request.delayMs()));
        return ResponseEntity.created(URI.create("/api/reminders/" + reminder.id())).body(reminder);
    }

    /**
     * Lists the pending reminders, soonest first.
     *
     * @return the pending reminders
     */
    @GetMapping
    public List<Reminder> pending() {
        return reminders.pending();
    }

    /**
     * Lists the reminders that fired most recently, newest first.
     *
     * @return the recently fired reminders
     */
    @GetMapping("/fired")
    public List<Reminder> fired() {
        return reminders.fired();
    }

    /**
     * Returns one pending reminder; {@code 404} when there is none with that id.
     *
     * @param id the reminder's id
     * @return the reminder
     */
    @GetMapping("/{id}")
    public Reminder get(@PathVariable String id) {
        return reminders.get(id);
    }

    /**
     * Cancels a pending reminder; {@code 404} when there is none with that id.
     *
     * @param id the reminder's id
     * @return {@code 204 No Content}
     */
    @DeleteMapping("/{id}")
    public ResponseEntity<Void> cancel(@PathVariable String id) {
        reminders.cancel(id);
        return ResponseEntity.noContent().build();
    }
}
