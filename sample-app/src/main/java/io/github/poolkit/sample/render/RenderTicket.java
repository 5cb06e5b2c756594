package io.github.poolkit.sample.render;

/**
 * The answer to an accepted render request: the permits are held and the rendering runs in the background.
 *
 * @param sizeMb      the megabytes (semaphore permits) the rendering holds until it finishes
 * @param millis      how long the rendering works
 * @param waitedMillis how long the request waited for the permits
 * @param availableMb the megabytes still free right after this request took its share; -1 when a cluster-wide budget
 *                    could not be read at that moment (the rendering runs all the same)
 */
public record RenderTicket(long sizeMb, long millis, long waitedMillis, long availableMb) {
}
