package io.github.poolkit.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one operation of {@code semaphore.lua} (one atomic script holds every state change of a semaphore) in one
 * round trip: {@code EVALSHA}, and {@code EVAL} only when Redis has lost the script (after a restart). Every call is
 * asynchronous and ends within the command timeout, with a {@link SemaphoreUnavailableException} if Redis is silent.
 *
 * <p>All calls go through one connection, so Redis runs them in the order they were made, with one exception: a call
 * sent again as {@code EVAL} after Redis refused it for a lost script runs after the calls made meanwhile. (A cancel
 * that may have overtaken its acquire that way is sent once more after the acquire's answer.)
 */
final class SemaphoreScript {

    private static final String SOURCE = load();
    private static final String SHA = sha1(SOURCE);

    private final RedisScriptingAsyncCommands<String, String> commands;
    private final String[] keys;
    private final String[] head; // ARGV 2..3: default size, lease ms
    private final Duration timeout;
    private final Timer timer;

    /**
     * @param timer Lettuce's own timer (a hashed wheel): scheduling a timeout there wakes no thread, unlike
     *              {@code CompletableFuture.orTimeout}, whose single delayer thread would be woken twice per call
     */
    SemaphoreScript(RedisScriptingAsyncCommands<String, String> commands, SemaphoreKeys keys, long size,
            Duration leaseTime, Duration timeout, Timer timer) {
        this.commands = commands;
        this.timer = timer;
        this.keys = keys.scriptKeys();
        this.head = new String[] {Long.toString(size), Long.toString(leaseTime.toMillis())};
        this.timeout = timeout;
    }

    /**
     * Runs {@code op} with its arguments.
     *
     * @return the script's reply (a list of longs, strings and lists), or a failure: a
     *         {@link SemaphoreUnavailableException} when Redis did not answer within the timeout or refused
     */
    CompletableFuture<List<Object>> run(String op, String... args) {
        String[] argv = new String[1 + head.length + args.length];
        argv[0] = op;
        System.arraycopy(head, 0, argv, 1, head.length);
        System.arraycopy(args, 0, argv, 1 + head.length, args.length);
        CompletableFuture<List<Object>> reply = commands.<List<Object>>evalsha(SHA, ScriptOutputType.MULTI, keys, argv)
                .toCompletableFuture()
                .exceptionallyCompose(e -> unwrap(e) instanceof RedisNoScriptException
                        ? commands.<List<Object>>eval(SOURCE, ScriptOutputType.MULTI, keys, argv).toCompletableFuture()
                        : CompletableFuture.failedFuture(e));
        CompletableFuture<List<Object>> result = new CompletableFuture<>();
        Timeout expiry = timer.newTimeout(t -> result.completeExceptionally(unavailable(op, new TimeoutException())),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
        reply.whenComplete((value, failure) -> {
            expiry.cancel();
            if (failure == null) {
                result.complete(value);
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
        return new SemaphoreUnavailableException("Cluster semaphore '" + keys[0] + "' could not " + op + ": " + what
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
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
