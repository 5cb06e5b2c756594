package io.github.poolkit.sample.render;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.sample.jobs.SimulatedWork;
import io.github.poolkit.sample.web.InvalidRequestException;
import io.github.poolkit.sample.web.OverloadedException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Renders simulated images under a memory budget: the {@code image-rendering} {@link WeightedSemaphore} holds one
 * permit per megabyte, so a large image takes a large share and several small ones can run side by side.
 *
 * <p>{@code POST /api/render?sizeMb=S&millis=M&waitMs=W} waits at most {@code W} milliseconds for {@code S}
 * permits. If they come, the rendering ({@code M} milliseconds of simulated work) runs on the primary
 * {@code workerPool}, which releases the permits when it finishes, and the request answers {@code 202 Accepted} at
 * once. If they do not come in time, the request answers {@code 429 Too Many Requests}, and the semaphore is left
 * exactly as it was. An image larger than the whole budget can never be rendered: {@code 400 Bad Request}.
 */
@RestController
public class RenderController {

    /** The retry hint sent with a {@code 429}: renderings are short, so soon. */
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    /** The longest a rendering may work, in milliseconds. */
    static final long MAX_MILLIS = 60_000;

    /** The longest a request may wait for permits, in milliseconds. */
    static final long MAX_WAIT_MILLIS = 30_000;

    private final WeightedSemaphore memory;
    private final WorkerPool workers;

    /**
     * Creates the controller.
     *
     * @param memory  the render budget, one permit per megabyte
     * @param workers the pool the renderings run on
     */
    public RenderController(@Qualifier("image-rendering") WeightedSemaphore memory,
                            @Qualifier("workerPool") WorkerPool workers) {
        this.memory = memory;
        this.workers = workers;
    }

    /**
     * Starts a rendering that holds {@code sizeMb} permits while it works.
     *
     * @param sizeMb the image's memory need, {@code 1..size} of the semaphore
     * @param millis how long the rendering works, {@code 0..60000}
     * @param waitMs how long to wait for the permits, {@code 0..30000}
     * @return the accepted rendering
     * @throws InvalidRequestException when a parameter is out of range
     * @throws OverloadedException     when the permits (or a worker) could not be had in time
     */
    @PostMapping("/api/render")
    @ResponseStatus(HttpStatus.ACCEPTED)
    public RenderTicket render(@RequestParam long sizeMb,
                               @RequestParam(defaultValue = "2000") long millis,
                               @RequestParam(defaultValue = "500") long waitMs) throws InterruptedException {
        InvalidRequestException.requireInRange("sizeMb", sizeMb, 1, memory.size());
        InvalidRequestException.requireInRange("millis", millis, 0, MAX_MILLIS);
        InvalidRequestException.requireInRange("waitMs", waitMs, 0, MAX_WAIT_MILLIS);
        long start = System.nanoTime();
        if (!memory.tryAcquire(sizeMb, Duration.ofMillis(waitMs))) {
            throw new OverloadedException(
                    "Could not get %d MB of the %d MB render budget within %d ms (%d MB free now); retry later"
                            .formatted(sizeMb, memory.size(), waitMs, memory.available()),
                    RETRY_AFTER, null);
        }
        long waited = Duration.ofNanos(System.nanoTime() - start).toMillis();
        long availableAfter = memory.available();
        try {
            workers.execute(() -> {
                try {
                    SimulatedWork.perform(Duration.ofMillis(millis));
                } finally {
                    memory.release(sizeMb);
                }
            });
        } catch (RejectedExecutionException e) {
            memory.release(sizeMb);
            throw new OverloadedException("The worker pool refused the rendering: " + e.getMessage(),
                    RETRY_AFTER, e);
        }
        return new RenderTicket(sizeMb, millis, waited, availableAfter);
    }
}
