package io.github.poolkit.sample.jobs;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.RejectedExecutionException;

import io.github.poolkit.WorkerPool;
import io.github.poolkit.sample.web.InvalidRequestException;
import io.github.poolkit.sample.web.NotFoundException;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Submits batches of simulated jobs to the application's {@link WorkerPool}s and reports how many each pool took.
 *
 * <p>{@code POST /api/pools/{pool}/jobs?count=N&millis=M} submits {@code N} jobs that each work for {@code M}
 * milliseconds. The pools are the starter's beans, addressed by bean name as in {@code /actuator/pools}: the
 * primary {@code workerPool} (it queues, then makes the caller wait: the request itself slows down) and
 * {@code reports} (non-blocking with a short queue: surplus jobs are refused at once). Each refusal is counted, not
 * propagated, so the answer is always {@code 200} with the counts; the request thread blocks only as long as the
 * pool's options make {@link WorkerPool#execute} block.
 */
@RestController
public class JobController {

    /** The largest batch one request may submit. */
    static final int MAX_JOBS = 1_000;

    /** The longest a simulated job may work, in milliseconds. */
    static final long MAX_MILLIS = 60_000;

    private final Map<String, WorkerPool> pools;

    /**
     * Creates the controller.
     *
     * @param pools every {@link WorkerPool} bean of the context, by bean name
     */
    public JobController(Map<String, WorkerPool> pools) {
        this.pools = new TreeMap<>(pools);
    }

    /**
     * Submits a batch of simulated jobs to one pool.
     *
     * @param pool   the pool's bean name
     * @param count  how many jobs to submit, {@code 1..1000}
     * @param millis how long each job works, {@code 0..60000}
     * @return how many jobs the pool accepted and how many it refused
     * @throws NotFoundException       when no pool has that name
     * @throws InvalidRequestException when {@code count} or {@code millis} is out of range
     */
    @PostMapping("/api/pools/{pool}/jobs")
    public BatchResult submit(@PathVariable String pool,
                              @RequestParam(defaultValue = "10") int count,
                              @RequestParam(defaultValue = "1000") long millis) {
        WorkerPool target = pools.get(pool);
        if (target == null) {
            throw new NotFoundException("No pool named '%s'; the pools are %s".formatted(pool, pools.keySet()));
        }
        InvalidRequestException.requireInRange("count", count, 1, MAX_JOBS);
        InvalidRequestException.requireInRange("millis", millis, 0, MAX_MILLIS);
        Duration work = Duration.ofMillis(millis);
        int accepted = 0;
        for (int i = 0; i < count; i++) {
            try {
                target.execute(new SimulatedJob(pool, i + 1, count, work));
                accepted++;
            } catch (RejectedExecutionException overloadedOrClosed) {
                // Back-pressure: PoolOverloadException (or PoolClosedException during shut-down). Count and go on.
            }
        }
        return new BatchResult(pool, count, accepted, count - accepted, millis);
    }

    /**
     * One simulated job, named in logs and overdue reports by its {@code toString()}.
     *
     * @param pool  the pool it was sent to
     * @param index its place in the batch, from 1
     * @param count the batch size
     * @param work  how long it works
     */
    record SimulatedJob(String pool, int index, int count, Duration work) implements Runnable {
        @Override
        public void run() {
            SimulatedWork.perform(work);
        }

        @Override
        public String toString() {
            return "simulated job " + index + "/" + count + " of " + work.toMillis() + " ms on " + pool;
        }
    }
}
