package io.github.poolkit.redis;

import io.lettuce.core.RedisNoScriptException;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.concurrent.TimeoutException;

/**
 * Runs one operation of {@code semaphore.lua} (one atomic script holds every state change of a semaphore) in one
 * round trip: {@code EVALSHA}, and {@code EVAL} only when Redis has lost the script (after a restart). Every call is
 * asynchronous and ends within the command timeout, with a {@link SemaphoreUnavailableException} if Redis is silent.
 *
 * <p>All calls go through one connection (a new one once a paused semaphore resumes), so Redis runs them in the order
 * they were made, with one exception: a call sent again as {@code EVAL} after Redis refused it for a lost script runs
 * after the calls made meanwhile. (A cancel that may have overtaken its acquire that way is sent once more after the
 * acquire's answer.)
 */
final class SemaphoreScript {

    private static final String SOURCE = load();
    private static final String SHA = sha1(SOURCE);

    /** The calls of the connection now in use; replaced when a paused semaphore resumes ({@link #reconnect}). */
    private volatile ScriptCalls calls;
    private final SemaphoreKeys semaphoreKeys;
    private final String[] keys;
    private final String[] head; // ARGV 2..3: default size, lease ms
    /**
     * ARGV 2..3 of release, releaseFrom and resize: default size, and how long the operation's record lasts: the
     * longer of the lease time and the command timeout, as the answer of a run sent again is read until the command
     * timeout.
     */
    private final String[] operationHead;
    private final Duration timeout;
    private volatile Timer timer;
    /**
     * Why calls are refused, or null while they are sent: set once the semaphore pauses or closes its connections.
     * From then on a call fails at once, naming it, and nothing is sent; {@link #reconnect} clears it (after a pause).
     * Written after {@code calls} and {@code timer}, and read before them, so a call it lets through uses the new ones.
     */
    private volatile String refusal;

    /**
     * @param timer Lettuce's own timer (a hashed wheel): scheduling a timeout there wakes no thread, unlike
     *              {@code CompletableFuture.orTimeout}, whose single delayer thread would be woken twice per call
     */
    SemaphoreScript(ScriptCalls calls, SemaphoreKeys keys, long size, Duration leaseTime, Duration timeout,
            Timer timer) {
        this.calls = calls;
        this.timer = timer;
        this.semaphoreKeys = keys;
        this.keys = keys.scriptKeys();
        this.head = new String[] {Long.toString(size), Long.toString(leaseTime.toMillis())};
        this.operationHead = new String[] {head[0], Long.toString(Math.max(leaseTime.toMillis(), timeout.toMillis()))};
        this.timeout = timeout;
    }

    /**
     * Runs {@code op} with its arguments.
     *
     * @return the script's reply (a list of longs, strings and lists), or a failure: a
     *         {@link SemaphoreUnavailableException} when Redis did not answer within the timeout or refused, or the
     *         call could not be sent (its Redis client is shut down)
     */
    CompletableFuture<List<Object>> run(String op, String... args) {
        return run(keys, head, op, null, args);
    }

    /**
     * Runs {@code op} as {@link #run(String, String...)} does, and when Redis runs it only after the timeout failed
     * the call, hands that late answer to {@code late}: a call sent again whole after NOSCRIPT goes out behind every
     * call made meanwhile, so it may run after one that was to follow it (an acquire after its own cancel).
     *
     * @param late told the answer of a run that came after the returned future had failed
     * @return as {@link #run(String, String...)}
     */
    CompletableFuture<List<Object>> run(String op, Consumer<List<Object>> late, String... args) {
        return run(keys, head, op, late, args);
    }

    /**
     * Runs {@code op} (release, releaseFrom or resize) as the operation {@code operation}: a second run of it (Lettuce
     * sends a command again after a reconnect when its answer was lost) answers as the first and changes nothing.
     *
     * @param operation an id unique to this operation (see "Operation ids" in semaphore.lua)
     * @return as {@link #run(String, String...)}
     */
    CompletableFuture<List<Object>> runOperation(String op, String operation, String... args) {
        return run(semaphoreKeys.scriptKeys(operation), operationHead, op, null, args);
    }

    /**
     * From now on every call fails at once, naming {@code why} (the semaphore pauses or closes its connections).
     *
     * @param why what the failures say after the semaphore's name ("was closed")
     */
    void refuse(String why) {
        refusal = why;
    }

    /** Sends through {@code calls}, with {@code timer} for the timeouts, from now on: a paused semaphore resumed. */
    void reconnect(ScriptCalls calls, Timer timer) {
        this.calls = calls;
        this.timer = timer;
        refusal = null;
    }

    private CompletableFuture<List<Object>> run(String[] keys, String[] head, String op,
            Consumer<List<Object>> late, String... args) {
        String refused = refusal;
        if (refused != null) {
            return CompletableFuture.failedFuture(new ClosedSemaphoreException(semaphoreKeys.name(),
                    refused + ", so nothing was sent to Redis for this " + op));
        }
        ScriptCalls via = calls; // one connection for the call and its EVAL, should Redis have lost the script
        String[] argv = new String[1 + head.length + args.length];
        argv[0] = op;
        System.arraycopy(head, 0, argv, 1, head.length);
        System.arraycopy(args, 0, argv, 1 + head.length, args.length);
        CompletableFuture<List<Object>> result = new CompletableFuture<>();
        Timeout expiry;
        try { // armed before the call is sent: a call that cannot time out is not sent at all
            expiry = timer.newTimeout(t -> result.completeExceptionally(unavailable(op, new TimeoutException())),
                    timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (IllegalStateException | RejectedExecutionException e) { // the timer is stopped: the client shuts down
            result.completeExceptionally(new SemaphoreUnavailableException("Cluster semaphore '" + semaphoreKeys.name()
                    + "' could not " + op + ": Lettuce's timer refused it (stopped: its Redis client is shut down),"
                    + " so nothing was sent; nothing is held for this call. Use the semaphore only while its Redis"
                    + " client is open: close the semaphore first", e));
            return result;
        }
        CompletableFuture<List<Object>> reply;
        try {
            reply = via.evalsha(SHA, keys, argv).toCompletableFuture()
                    .exceptionallyCompose(e -> unwrap(e) instanceof RedisNoScriptException
                            ? via.eval(SOURCE, keys, argv).toCompletableFuture()
                            : CompletableFuture.failedFuture(e));
        } catch (RuntimeException e) { // refused before it was sent
            reply = CompletableFuture.failedFuture(e);
        }
        reply.whenComplete((value, failure) -> {
            expiry.cancel();
            if (failure == null) {
                if (!result.complete(value) && late != null) {
                    late.accept(value); // ran after the timeout had failed the call
                }
            } else {
                result.completeExceptionally(unavailable(op, unwrap(failure)));
            }
        });
        return result;
    }

    private SemaphoreUnavailableException unavailable(String op, Throwable cause) {
        if (cause instanceof SemaphoreUnavailableException u) {
            return u;
        }
        String what = cause instanceof TimeoutException
                ? "Redis did not answer within " + timeout.toMillis() + " ms"
                : "Redis failed: " + cause;
        return new SemaphoreUnavailableException("Cluster semaphore '" + semaphoreKeys.name() + "' could not " + op
                + ": " + what
                + "; nothing is held for this call. Check that Redis is up and reachable (spring.data.redis.*)", cause);
    }

    static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    static long asLong(Object value) {
        return value instanceof Long l ? l : Long.parseLong(value.toString());
    }

    private static String load() {
        try (InputStream in = SemaphoreScript.class.getResourceAsStream("semaphore.lua")) {
            if (in == null) { // a native image built without the resource, a repackaged jar that dropped it
                throw new IllegalStateException("pool-redis's script io/github/poolkit/redis/semaphore.lua is not on"
                        + " the class path; keep it when repackaging (for a native image: register it as a resource)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
