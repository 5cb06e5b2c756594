package io.github.poolkit.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the parts of one {@link RedisPermitSemaphore} instance share: its settings, its script, its ids, and how a
 * thread waits for Redis's answer.
 *
 * <p>Ids are {@code "owner:counter"}: the owner is this instance's random id (its grant channel ends with it), and the
 * counter only grows, so an id names one request or one operation of one instance, never two (the script relies on
 * it: see "Operation ids" in semaphore.lua).
 *
 * @param keys           the semaphore's Redis keys
 * @param leaseTime      how long a grant outlives its holder's last renewal
 * @param commandTimeout how long a script run may take
 * @param completions    where futures handed to callers complete, so that their dependents never run on Redis's I/O
 *                       thread
 * @param script         the semaphore's script
 * @param owner          this instance's random id
 * @param ids            the counter of {@link #nextId()}, which only grows
 */
record Instance(SemaphoreKeys keys, Duration leaseTime, Duration commandTimeout, Executor completions,
        SemaphoreScript script, String owner, AtomicLong ids) {

    /** {@return the semaphore's name} */
    String name() {
        return keys.name();
    }

    /** {@return a new id, unique to one request or operation} */
    String nextId() {
        return owner + ":" + ids.incrementAndGet();
    }

    /** {@return the lease time in ms, for messages} */
    long leaseMillis() {
        return leaseTime.toMillis();
    }

    /**
     * Waits for a script's answer (every script run ends within the command timeout).
     *
     * @throws SemaphoreUnavailableException if Redis did not answer, or the thread was interrupted (its interrupt
     *                                       status is kept)
     */
    <T> T call(CompletableFuture<T> reply) {
        try {
            return reply.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SemaphoreUnavailableException("Cluster semaphore '" + name() + "': interrupted", e);
        } catch (ExecutionException e) {
            throw rethrow(e);
        }
    }

    /** {@return the cause of a failed future, as thrown to the caller} */
    static RuntimeException rethrow(ExecutionException e) {
        Throwable cause = SemaphoreScript.unwrap(e.getCause());
        if (cause instanceof RuntimeException r) {
            return r;
        }
        return new IllegalStateException(cause);
    }
}
