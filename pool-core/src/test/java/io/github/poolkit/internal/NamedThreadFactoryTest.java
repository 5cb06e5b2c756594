package io.github.poolkit.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;

import io.github.poolkit.DelayScheduler;
import io.github.poolkit.PoolOptions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * poolkit's daemon threads serve the whole JVM and are made by whichever thread needs one first: they must not keep
 * that thread's context class loader (an application's, which a redeploy or a DevTools restart would then leak) or
 * its inheritable thread-locals. A pool's workers inherit both, as the JDK's default thread factory's do.
 */
@Timeout(10)
class NamedThreadFactoryTest {

    private static final InheritableThreadLocal<String> REQUEST = new InheritableThreadLocal<>();

    /** What the made thread saw of its creator when it ran. */
    private final AtomicReference<String> seen = new AtomicReference<>("not run");
    private final Runnable readsTheThreadLocal = () -> seen.set(REQUEST.get());

    @Test
    void aDaemonThreadKeepsNeitherItsCreatorsClassLoaderNorItsInheritableThreadLocals() throws Exception {
        try (URLClassLoader application = new URLClassLoader(new URL[0], null)) {
            Thread made = makeOnAThreadOf(application, NamedThreadFactory.daemon("poolkit-test"));

            assertThat(made.getName()).isEqualTo("poolkit-test-1");
            assertThat(made.isDaemon()).isTrue();
            assertThat(made.getContextClassLoader()).isSameAs(NamedThreadFactory.class.getClassLoader());
            assertThat(run(made)).isNull();
        }
    }

    /**
     * The JVM-wide clock of the overdue watch and each scheduler's timer are made the same way (the clock by whoever
     * first reads it: a request thread submitting to a pool with a queue-timeout, say).
     */
    @Test
    void aHousekeepingThreadOfItsOwnNameKeepsNeitherEither() throws Exception {
        try (URLClassLoader application = new URLClassLoader(new URL[0], null)) {
            Thread made = makeOnAThreadOf(application, r -> NamedThreadFactory.housekeeping("poolkit-clock", r));

            assertThat(made.getName()).isEqualTo("poolkit-clock");
            assertThat(made.isDaemon()).isTrue();
            assertThat(made.getContextClassLoader()).isSameAs(NamedThreadFactory.class.getClassLoader());
            assertThat(run(made)).isNull();
        }
    }

    /**
     * A scheduler made on an application's request thread: its timer thread, which starts the workers of due jobs,
     * keeps the application's class loader (the scheduler is the application's, and so are its jobs) but not the
     * request's inheritable thread-locals, so neither a worker it starts.
     */
    @Test
    void aSchedulersTimerThreadKeepsItsMakersClassLoaderButNotItsThreadLocals() throws Exception {
        try (URLClassLoader application = new URLClassLoader(new URL[0], null)) {
            AtomicReference<DelayScheduler> made = new AtomicReference<>();
            Thread creator = new Thread(() -> {
                REQUEST.set("request-42");
                made.set(DelayScheduler.create(1, PoolOptions.builder().name("timer-owner").build()));
            });
            creator.setContextClassLoader(application);
            creator.start();
            creator.join();
            try (DelayScheduler scheduler = made.get()) {
                Thread timer = Thread.getAllStackTraces().keySet().stream()
                        .filter(thread -> thread.getName().equals("timer-owner-timer")).findFirst().orElseThrow();
                assertThat(timer.isDaemon()).isTrue();
                assertThat(timer.getContextClassLoader()).isSameAs(application);
                AtomicReference<Object> seenByJob = new AtomicReference<>("not run");
                AtomicReference<ClassLoader> loaderOfJob = new AtomicReference<>();
                scheduler.schedule(() -> {
                    seenByJob.set(REQUEST.get());
                    loaderOfJob.set(Thread.currentThread().getContextClassLoader());
                }, 20, java.util.concurrent.TimeUnit.MILLISECONDS).get(5, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(seenByJob.get()).as("a request's thread-local, on a worker the timer started").isNull();
                assertThat(loaderOfJob.get()).isSameAs(application);
            }
        }
    }

    @Test
    void aWorkerThreadInheritsBothAsTheJdksDefaultFactoryDoesAndIsNeverADaemon() throws Exception {
        try (URLClassLoader application = new URLClassLoader(new URL[0], null)) {
            Thread made = makeOnAThreadOf(application, NamedThreadFactory.platform("pool"));

            assertThat(made.getName()).isEqualTo("pool-1");
            assertThat(made.isDaemon()).isFalse();
            assertThat(made.getContextClassLoader()).isSameAs(application);
            assertThat(run(made)).isEqualTo("request-42");
        }
    }

    /**
     * Makes a thread (not started) on a daemon thread whose context class loader is {@code application} and which has
     * set an inheritable thread-local, as a request thread of an application would.
     */
    private Thread makeOnAThreadOf(ClassLoader application, ThreadFactory factory) throws InterruptedException {
        AtomicReference<Thread> made = new AtomicReference<>();
        Thread creator = new Thread(() -> {
            REQUEST.set("request-42");
            made.set(factory.newThread(readsTheThreadLocal));
        });
        creator.setDaemon(true);
        creator.setContextClassLoader(application);
        creator.start();
        creator.join();
        return made.get();
    }

    /** {@return the thread-local's value as the made thread saw it} */
    private String run(Thread made) throws InterruptedException {
        made.start();
        made.join();
        return seen.get();
    }
}
