package io.github.poolkit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Makes the schedulers of one test, each with its own name and a panic handler that records what jobs threw, and
 * stops them all afterwards ({@link #close()}, from {@code @AfterEach}) so that no test leaks threads or long timers.
 */
final class DelaySchedulerFixture implements AutoCloseable {

    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    /** What the jobs of this fixture's schedulers threw, as their pools' panic handler received it. */
    final ConcurrentLinkedQueue<Throwable> panics = new ConcurrentLinkedQueue<>();

    private final List<DelayScheduler> schedulers = new ArrayList<>();
    private String lastName;

    /** A scheduler with {@code workers} workers, named uniquely; see {@link #lastName()}. */
    synchronized DelayScheduler create(int workers) {
        return create(workers, PoolOptions.builder());
    }

    /** A scheduler with {@code workers} workers and these options (name and panic handler are set here). */
    synchronized DelayScheduler create(int workers, PoolOptions.Builder options) {
        String name = "sched" + NEXT_ID.incrementAndGet();
        DelayScheduler scheduler = DelayScheduler.create(workers, options.name(name).panicHandler(panics::add).build());
        schedulers.add(scheduler);
        lastName = name;
        return scheduler;
    }

    /** @return the name of the scheduler made last */
    synchronized String lastName() {
        return lastName;
    }

    @Override
    public synchronized void close() throws InterruptedException {
        for (DelayScheduler s : schedulers) {
            s.shutdownNow();
        }
        for (DelayScheduler s : schedulers) {
            assertThat(s.awaitTermination(10, TimeUnit.SECONDS)).as("%s terminates", s).isTrue();
        }
    }
}
