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
     * Waits for a script's answer (every script run ends within the command timeout). Not interruptible, as
     * {@code Semaphore.release} and the untimed {@code tryAcquire} are not: the script was sent and Redis runs it
     * whatever the caller does, so only its answer tells what it did (an interrupt thrown instead would leave a grant
     * held by nobody, or a release applied but reported as not). An interrupt meanwhile is kept in the thread's status.
     *
     * @throws SemaphoreUnavailableException if Redis did not answer within the command timeout, or refused the script
     */
    <T> T call(CompletableFuture<T> reply) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return reply.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the status is cleared: the next get() waits
                }
            }
        } catch (ExecutionException e) {
            throw rethrow(e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits for the answer of a script that only reads (and at most reaps or stores the size, as any run would):
     * interruptible, since the caller loses nothing by not hearing it.
     *
     * @throws SemaphoreUnavailableException if Redis did not answer within the command timeout, refused the script,
     *                                       or the thread was interrupted (its interrupt status is kept)
     */
    <T> T read(CompletableFuture<T> reply) {
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
