package io.github.poolkit.sample.render;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.github.poolkit.WorkerPool;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.sample.jobs.SimulatedWork;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Service;

/**
 * Runs renderings under the memory budget of the {@code image-rendering} semaphore, declared with {@link Permits}:
 * each rendering holds one permit per megabyte from the moment it is accepted until its work ends, and a request
 * whose megabytes are not free within {@code sample.render.max-wait} is refused with a
 * {@link io.github.poolkit.PoolOverloadException} before anything starts.
 */
@Service
public class Renderer {

    private final WorkerPool workers;

    /** @param workers the pool the renderings run on */
    public Renderer(@Qualifier("workerPool") WorkerPool workers) {
        this.workers = workers;
    }

    /**
     * Starts a rendering on the worker pool. The permits are held until the returned future completes, that is,
     * until the rendering ends (or at once, if the pool refuses it: the exception then reaches the caller).
     *
     * @param sizeMb the image's memory need, in permits
     * @param millis how long the rendering works
     * @return completed when the rendering ends
     */
    @Permits(value = "image-rendering", weight = "#sizeMb", maxWait = "${sample.render.max-wait:500ms}")
    public CompletableFuture<Void> render(long sizeMb, long millis) {
        return CompletableFuture.runAsync(() -> SimulatedWork.perform(Duration.ofMillis(millis)), workers);
    }
}
