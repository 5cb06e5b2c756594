package io.github.poolkit.redis;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The parts of one {@link RedisPermitSemaphore} instance that live in this JVM ({@link Requests}, {@link Leases}),
 * wired to a Redis that is not there: every script run is answered at once, on the calling thread, and counted. No
 * connection, no heartbeat, no timer thread, so a jcstress actor exercises only the semaphore's own Java code.
 *
 * <p>Answers: {@code acquire} "queued" (ticket 1: the request waits for a grant message, which a test makes by calling
 * {@link Requests#granted}); {@code cancel} "withdrawn"; {@code release} "released" (the lease was still held); any
 * other script 1. The counts are read by the arbiter, once the actors are done.
 */
final class AnsweringRedis implements ScriptCalls {

    /** A timer whose timeouts never fire: every script is answered before its command timeout could matter. */
    private static final Timer NO_TIMER = new Timer() {
        @Override
        public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
            return NEVER;
        }

        @Override
        public Set<Timeout> stop() {
            return Set.of();
        }
    };

    private static final Timeout NEVER = new Timeout() {
        @Override
        public Timer timer() {
            return NO_TIMER;
        }

        @Override
        public TimerTask task() {
            return t -> { };
        }

        @Override
        public boolean isExpired() {
            return false;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean cancel() {
            return true;
        }
    };

    final AtomicInteger acquires = new AtomicInteger();
    final AtomicInteger cancels = new AtomicInteger();
    final AtomicInteger releases = new AtomicInteger();

    final Leases leases;
    final Requests requests;

    AnsweringRedis() {
        SemaphoreKeys keys = new SemaphoreKeys("jcstress");
        Duration leaseTime = Duration.ofSeconds(30);
        Duration commandTimeout = Duration.ofSeconds(10); // bounds close()'s waits; every answer is already there
        SemaphoreScript script = new SemaphoreScript(this, keys, 1, leaseTime, commandTimeout, NO_TIMER);
        Instance instance = new Instance(keys, leaseTime, commandTimeout, Runnable::run, script, "jcs",
                new AtomicLong());
        this.leases = new Leases(instance);
        this.requests = new Requests(instance, leases, null);
    }

    @Override
    public CompletionStage<List<Object>> evalsha(String sha, String[] keys, String[] argv) {
        return CompletableFuture.completedFuture(answer(argv[0]));
    }

    @Override
    public CompletionStage<List<Object>> eval(String source, String[] keys, String[] argv) {
        return CompletableFuture.completedFuture(answer(argv[0]));
    }

    private List<Object> answer(String op) {
        switch (op) {
            case "acquire" -> {
                acquires.incrementAndGet();
                return List.of(2L, 1L);
            }
            case "cancel" -> {
                cancels.incrementAndGet();
                return List.of(1L);
            }
            case "release" -> {
                releases.incrementAndGet();
                return List.of(1L);
            }
            default -> {
                return List.of(1L);
            }
        }
    }
}
