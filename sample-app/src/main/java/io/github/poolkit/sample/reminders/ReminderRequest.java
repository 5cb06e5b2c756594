package io.github.poolkit.sample.reminders;

/**
 * The JSON body of {@code POST /api/reminders}.
 *
 * @param text    what to remind of: 1 to 200 characters
 * @param delayMs how long from now until the reminder fires, in milliseconds: 0 to one day
 */
public record ReminderRequest(String text, Long delayMs) {
}
