package io.github.poolkit.redis;

import io.github.poolkit.Permit;
import java.util.concurrent.CompletableFuture;

/**
 * One request for permits, from the moment its acquire script is sent until it settles.
 *
 * <p>{@code result} settles it exactly once: with a {@link Permit} (granted), {@code null} (refused, for the
 * {@code tryAcquire} forms) or an exception. Whoever completes it first wins: a grant arriving from Redis, or the
 * caller giving up (timeout, interrupt, cancelled future). A request that ends without a permit and that Redis may
 * still hold (queued or granted) is withdrawn by one cancel script, which also gives back a grant that lost the race.
 */
final class Request {

    final String id;
    final long weight;
    /** Whether a refusal or a too-large request completes {@code result} with {@code null} (tryAcquire forms). */
    final boolean orFalse;
    /** Whether the grant comes without a Permit (acquire/tryAcquire): release(long) gives it back. */
    final boolean handleLess;
    /** Whether dependent stages must not run on Redis's I/O thread (acquireAsync). */
    final boolean async;
    /**
     * Whether a thread waits for it ({@link Requests#await}), which then tells the listener of a grant itself: the
     * grant may yet lose to the thread's interrupt, and is then given back and told as interrupted.
     */
    final boolean awaited;
    final long startNanos = System.nanoTime();
    final CompletableFuture<Permit> result = new CompletableFuture<>();

    /** Set once the acquire script answered "queued": from then on the heartbeat keeps it in line. */
    volatile boolean queued;
    /** Its place in the line (grows with every queued request of the semaphore), once queued. */
    volatile long ticket;
    /** When Redis last confirmed its place in line (System.nanoTime: the queued reply, then each renewal). */
    volatile long placeConfirmedNanos;
    /**
     * A time before Redis granted it, if it does: System.nanoTime when the acquire, or the last renewal that Redis
     * answered with it still in line, was sent. Its lease, once granted, lasts at least a lease time from then.
     */
    volatile long seenWaitingNanos = startNanos;
    /** Set when Redis settled the request itself and holds nothing for it (refused, too large, dropped). */
    volatile boolean nothingHeld;
    /** How many times the grant channel had been subscribed when its acquire was sent (see WaitingChecks). */
    volatile long subscriptionsAtSend;
    /**
     * Set once it settled without a permit (the caller gave up, by an exception or by completing the future itself;
     * the semaphore closed) and its cancel went out: an acquire of it that Redis runs after that cancel is withdrawn
     * once more.
     */
    volatile boolean withdrawn;
    /** The reply of the cancel script, once one was sent (the last one, when the acquire's answer sent another). */
    volatile CompletableFuture<?> withdrawal;
    /**
     * Completes once the acquire's answer has been handled, a cancel it calls for sent ({@link #withdrawal}), or once
     * the request failed unsent, or its sending threw: a close waits for it before it waits for the withdrawals (see
     * Requests#withdrawAll).
     */
    final CompletableFuture<Void> answered = new CompletableFuture<>();

    Request(String id, long weight, boolean orFalse, boolean handleLess, boolean async, boolean awaited) {
        this.id = id;
        this.weight = weight;
        this.orFalse = orFalse;
        this.handleLess = handleLess;
        this.async = async;
        this.awaited = awaited;
    }
}
