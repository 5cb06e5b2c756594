package io.github.poolkit.benchmarks;

import io.github.poolkit.DelayScheduler;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The delay schedulers compared in the scheduler suites, behind one small interface. {@code POOLKIT} is the subject. */
public enum SchedulerPeer {

    /** {@link DelayScheduler} with one worker. */
    POOLKIT {
        @Override
        Timers create() {
            return executor(DelayScheduler.create(1));
        }
    },
    /** {@link ScheduledThreadPoolExecutor} of one thread, with {@code setRemoveOnCancelPolicy(true)}. */
    STPE {
        @Override
        Timers create() {
            ScheduledThreadPoolExecutor stpe = new ScheduledThreadPoolExecutor(1);
            stpe.setRemoveOnCancelPolicy(true);
            return executor(stpe);
        }
    },
    /** Netty's HashedWheelTimer with its defaults (100 ms ticks, 512 buckets). */
    NETTY_WHEEL {
        @Override
        Timers create() {
            HashedWheelTimer wheel = new HashedWheelTimer(Thread.ofPlatform().daemon().name("wheel").factory());
            wheel.start();
            return new Timers() {
                @Override
                public Object schedule(Runnable job, long delayMillis) {
                    return wheel.newTimeout(timeout -> job.run(), delayMillis, TimeUnit.MILLISECONDS);
                }

                @Override
                public void cancel(Object handle) {
                    ((Timeout) handle).cancel();
                }

                @Override
                public void close() {
                    wheel.stop();
                }
            };
        }
    };

    /** Schedule one-shot jobs and cancel them by the handle {@link #schedule} returned. */
    interface Timers extends AutoCloseable {
        Object schedule(Runnable job, long delayMillis);

        void cancel(Object handle);

        /** Stops at once, dropping the pending jobs. */
        @Override
        void close();
    }

    /** @return a new, started scheduler */
    abstract Timers create();

    private static Timers executor(ScheduledExecutorService service) {
        return new Timers() {
            @Override
            public Object schedule(Runnable job, long delayMillis) {
                return service.schedule(job, delayMillis, TimeUnit.MILLISECONDS);
            }

            @Override
            public void cancel(Object handle) {
                ((ScheduledFuture<?>) handle).cancel(false);
            }

            @Override
            public void close() {
                service.shutdownNow();
            }
        };
    }
}
