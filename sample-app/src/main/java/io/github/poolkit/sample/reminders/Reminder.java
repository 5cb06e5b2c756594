package io.github.poolkit.sample.reminders;

import java.time.Instant;

/**
 * A note that the application logs once, when its time comes.
 *
 * @param id    the reminder's id, unique for the life of the application
 * @param text  what to remind of
 * @param dueAt when the reminder fires
 */
public record Reminder(String id, String text, Instant dueAt) {
}
