package io.github.poolkit.sample.render;

import java.time.Duration;

import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.redis.SemaphoreUnavailableException;
import io.github.poolkit.sample.web.InvalidRequestException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Renders simulated images under a memory budget: the {@code image-rendering} semaphore holds one permit per
 * megabyte, so a large image takes a large share and several small ones can run side by side.
 *
 * <p>{@code POST /api/render?sizeMb=S&millis=M} asks {@link Renderer} (guarded by {@code @Permits}) for {@code S}
 * permits, waiting at most {@code sample.render.max-wait}. If they come, the rendering ({@code M} milliseconds of
 * simulated work) runs on the primary {@code workerPool}, the permits are held until it ends, and the request answers
 * {@code 202 Accepted} at once. If they do not come in time, the request answers {@code 429 Too Many Requests} with
 * {@code Retry-After}, and the semaphore is left exactly as it was. An image larger than the whole budget can never be
 * rendered: {@code 400 Bad Request}. With the {@code cluster} profile, while Redis cannot be reached the request
 * answers {@code 503 Service Unavailable} with {@code Retry-After} ({@code ApiExceptionHandler}) before anything is
 * taken; a rendering accepted just before Redis went away still answers {@code 202}, with {@code availableMb}
 * {@code -1}.
 */
@RestController
public class RenderController {

    /** The longest a rendering may work, in milliseconds. */
    static final long MAX_MILLIS = 60_000;

    private final PermitSemaphore memory;
    private final Renderer renderer;

    /**
     * Creates the controller.
     *
     * @param memory   the render budget, one permit per megabyte (read for validation and the answer)
     * @param renderer runs a rendering while it holds its permits
     */
    public RenderController(@Qualifier("image-rendering") PermitSemaphore memory, Renderer renderer) {
        this.memory = memory;
        this.renderer = renderer;
    }

    /**
     * Starts a rendering that holds {@code sizeMb} permits while it works.
     *
     * @param sizeMb the image's memory need, {@code 1..size} of the semaphore
     * @param millis how long the rendering works, {@code 0..60000}
     * @return the accepted rendering
     * @throws InvalidRequestException when a parameter is out of range
     */
    @PostMapping("/api/render")
    @ResponseStatus(HttpStatus.ACCEPTED)
    public RenderTicket render(@RequestParam long sizeMb, @RequestParam(defaultValue = "2000") long millis) {
        InvalidRequestException.requireInRange("sizeMb", sizeMb, 1, memory.size());
        InvalidRequestException.requireInRange("millis", millis, 0, MAX_MILLIS);
        long start = System.nanoTime();
        renderer.render(sizeMb, millis);
        long waited = Duration.ofNanos(System.nanoTime() - start).toMillis();
        return new RenderTicket(sizeMb, millis, waited, availableNow());
    }

    /**
     * {@return the budget left now, or -1 when a cluster-wide budget cannot be read}: the rendering holds its permits
     * and runs already, so the request must still answer that it was accepted (a client told otherwise would retry and
     * book the budget twice)
     */
    private long availableNow() {
        try {
            return memory.available();
        }
        catch (SemaphoreUnavailableException ex) {
            return -1;
        }
    }
}
