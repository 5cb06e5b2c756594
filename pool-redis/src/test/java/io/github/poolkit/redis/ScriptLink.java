package io.github.poolkit.redis;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisNoScriptException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What lies between one semaphore instance and Redis, for faults that a real link shows: {@link #cut()} (the instance
 * is dead to Redis, as a killed process: every script call fails at once, as on a closed connection),
 * {@link #dropHeartbeats()} (the instance stalls: it renews nothing, while its other calls go through) and
 * {@link #sendTwice} (Lettuce's at-least-once re-send after a reconnect: the call runs, its answer is lost, and the
 * very same call is sent again; the instance reads only the second answer) and {@link #dropConnectionAfter} (the
 * connection drops with a call in flight and stays down until {@link #reconnect()}: the calls made meanwhile wait, and
 * on reconnect the call whose answer was lost is sent again first, then they, in order, as Lettuce does), and
 * {@link #loseScriptFor} (Redis lost the script: the call is sent again whole, behind later calls), and
 * {@link #holdBeforeSending} (the caller's thread stops between deciding to send a call and sending it).
 *
 * <pre>{@code ScriptLink link = new ScriptLink(); semaphores.open(builder, link);}</pre>
 */
final class ScriptLink implements UnaryOperator<ScriptCalls> {

    private volatile boolean cut;
    private volatile boolean heartbeatsDropped;
    private volatile Set<String> sentTwice = Set.of();
    private volatile long sentAgainAfterMillis;
    private volatile CompletableFuture<Void> sentAgainWhen;
    private volatile String scriptLostFor;
    private volatile String answeredLate;
    private volatile String throwsOnce;
    private volatile long answeredLateMillis;
    private volatile String heldOp;
    private volatile CompletableFuture<Void> heldReached;
    private volatile CompletableFuture<Void> heldUntil;
    private volatile CompletableFuture<Void> heldSent;
    private volatile CompletableFuture<Void> evalGate;
    private final AtomicInteger heartbeatsFailed = new AtomicInteger();
    private volatile BiConsumer<String[], List<Object>> watcher = (argv, answer) -> { };
    private final Object link = new Object();
    private String downAfter; // guarded by link
    private List<Waiting> waiting; // guarded by link; not null while the connection is down
    private CompletionStage<List<Object>> lostAnswer; // guarded by link

    /** A call made while the connection is down: Lettuce holds it, and sends it once it has reconnected. */
    private record Waiting(String op, Runnable send) {
    }

    /** A script call as it was sent, to be sent again ({@link #sendAgain}). */
    record Call(String sha, String[] keys, String[] argv) {
    }

    private final List<Call> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile ScriptCalls underlying;

    @Override
    public ScriptCalls apply(ScriptCalls redis) {
        underlying = redis;
        return new ScriptCalls() {
            @Override
            public CompletionStage<List<Object>> evalsha(String sha, String[] keys, String[] argv) {
                sent.add(new Call(sha, keys, argv));
                if (argv[0].equals(scriptLostFor)) {
                    scriptLostFor = null;
                    return CompletableFuture.failedFuture(new RedisNoScriptException("NOSCRIPT (ScriptLink)"));
                }
                return send(argv, () -> redis.evalsha(sha, keys, argv));
            }

            @Override
            public CompletionStage<List<Object>> eval(String source, String[] keys, String[] argv) {
                CompletableFuture<Void> gate = evalGate;
                if (gate != null) {
                    evalGate = null;
                    return gate.thenCompose(open -> send(argv, () -> redis.eval(source, keys, argv)));
                }
                return send(argv, () -> redis.eval(source, keys, argv));
            }
        };
    }

    /**
     * The next call of {@code op} finds the script gone from Redis (NOSCRIPT, as on a new primary after a failover),
     * and the EVAL that sends it again with the script's source waits until {@code gate} completes: meanwhile later
     * calls, sent after it, run before it.
     */
    void loseScriptFor(String op, CompletableFuture<Void> gate) {
        evalGate = gate;
        scriptLostFor = op;
    }

    /** {@return the last call of {@code op} sent so far} */
    Call lastSent(String op) {
        return sent.reversed().stream().filter(call -> call.argv()[0].equals(op)).findFirst().orElseThrow();
    }

    /**
     * Sends {@code call} again, the very same (as Lettuce does after a reconnect), and {@return its answer}, which the
     * instance never reads.
     */
    List<Object> sendAgain(Call call) throws Exception {
        return underlying.evalsha(call.sha(), call.keys(), call.argv()).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    /** From now on {@code watcher} is shown every call's arguments (ARGV) with the answer the instance reads. */
    void watch(BiConsumer<String[], List<Object>> watcher) {
        this.watcher = watcher;
    }

    /** From now on every call fails at once, as on a connection the process closed when it died. */
    void cut() {
        cut = true;
    }

    /** From now on every heartbeat (renewal) fails at once; the other calls go through. */
    void dropHeartbeats() {
        heartbeatsDropped = true;
    }

    /** From now on every heartbeat goes through again. */
    void passHeartbeats() {
        heartbeatsDropped = false;
    }

    /** {@return how many heartbeats failed so far because they were dropped} */
    int heartbeatsFailed() {
        return heartbeatsFailed.get();
    }

    /** From now on every call of these script operations ("acquire", "release", ...) runs twice; see the class. */
    void sendTwice(String... ops) {
        sendTwice(Duration.ZERO, ops);
    }

    /**
     * As {@link #sendTwice(String...)}, the second time {@code after} the first answer was lost (a reconnect that took
     * that long).
     */
    void sendTwice(Duration after, String... ops) {
        sentAgainAfterMillis = after.toMillis();
        sentTwice = Set.of(ops);
    }

    /**
     * As {@link #sendTwice(String...)}, the second time only once {@code reconnected} completes (a reconnect that
     * took until then).
     */
    void sendTwiceWhen(CompletableFuture<Void> reconnected, String... ops) {
        sentAgainWhen = reconnected;
        sentTwice = Set.of(ops);
    }

    /**
     * The next call of {@code op} runs in Redis, but the connection drops before its answer is read, and stays down
     * until {@link #reconnect()}: every call made meanwhile waits (Lettuce holds it), and none reaches Redis.
     */
    void dropConnectionAfter(String op) {
        synchronized (link) {
            downAfter = op;
        }
    }

    /** The next call of {@code op} throws an {@code Error} where it is made, as a bug or an exhausted JVM could. */
    void throwOnceOn(String op) {
        throwsOnce = op;
    }

    /**
     * The next call of {@code op} stops where it is made, on the caller's thread, before it is sent: it completes
     * {@code reached}, then waits until {@code until} completes (a thread preempted between deciding to send a call
     * and sending it; at most 10 s), then goes out, and completes {@code sent} once it is on its way (written to the
     * connection, or held back with it).
     */
    void holdBeforeSending(String op, CompletableFuture<Void> reached, CompletableFuture<Void> until,
            CompletableFuture<Void> sent) {
        heldReached = reached;
        heldUntil = until;
        heldSent = sent;
        heldOp = op;
    }

    /**
     * From now on each call of {@code op} runs at once, and its answer reaches the instance {@code delay} after Redis
     * gave it (a slow link, or the instance's own calls queued on its one connection).
     */
    void answerLate(String op, Duration delay) {
        answeredLateMillis = delay.toMillis();
        answeredLate = op;
    }

    /** {@return how many calls of {@code op} wait for the connection to come back} */
    int waitingCalls(String op) {
        synchronized (link) {
            return waiting == null ? 0 : (int) waiting.stream().filter(w -> w.op.equals(op)).count();
        }
    }

    /**
     * The connection is back: once the call whose answer was lost has run, it is sent again (Lettuce re-sends what it
     * read no answer to), then every call that waited, in the order they were made.
     */
    void reconnect() {
        CompletionStage<List<Object>> first;
        synchronized (link) {
            first = lostAnswer;
        }
        first.toCompletableFuture().handle((value, failure) -> null).join();
        synchronized (link) {
            waiting.forEach(w -> w.send.run());
            waiting = null;
        }
    }

    /** @return the answer of a call that waits for the connection, or null if the connection is up */
    private CompletableFuture<List<Object>> heldBack(String op, Supplier<CompletionStage<List<Object>>> call) {
        synchronized (link) {
            if (waiting == null && op.equals(downAfter)) {
                downAfter = null;
                lostAnswer = call.get(); // runs; the connection drops before its answer is read
                waiting = new ArrayList<>();
            }
            if (waiting == null) {
                return null;
            }
            CompletableFuture<List<Object>> answer = new CompletableFuture<>();
            waiting.add(new Waiting(op, () -> call.get().whenComplete((value, failure) -> {
                if (failure == null) {
                    answer.complete(value);
                } else {
                    answer.completeExceptionally(failure);
                }
            })));
            return answer;
        }
    }

    private CompletionStage<List<Object>> send(String[] argv, Supplier<CompletionStage<List<Object>>> call) {
        String op = argv[0];
        if (op.equals(heldOp)) {
            heldOp = null;
            heldReached.complete(null);
            heldUntil.completeOnTimeout(null, 10, TimeUnit.SECONDS).join();
            CompletionStage<List<Object>> answer = sendNow(argv, call);
            heldSent.complete(null);
            return answer;
        }
        return sendNow(argv, call);
    }

    private CompletionStage<List<Object>> sendNow(String[] argv, Supplier<CompletionStage<List<Object>>> call) {
        String op = argv[0];
        if (op.equals(throwsOnce)) {
            throwsOnce = null;
            throw new AssertionError("an Error thrown by the link, once (ScriptLink)");
        }
        if (cut || (heartbeatsDropped && op.equals("heartbeat"))) {
            if (!cut) {
                heartbeatsFailed.incrementAndGet();
            }
            return CompletableFuture.failedFuture(new RedisConnectionException("Connection closed (ScriptLink)"));
        }
        CompletionStage<List<Object>> answer = heldBack(op, call);
        if (answer != null) {
            return watched(argv, answer);
        }
        answer = call.get();
        if (op.equals(answeredLate)) {
            answer = answer.toCompletableFuture().thenApplyAsync(value -> value,
                    CompletableFuture.delayedExecutor(answeredLateMillis, TimeUnit.MILLISECONDS));
        }
        if (sentTwice.contains(op)) {
            // the first answer is lost on the way back; the same call is sent again once it has run
            long after = sentAgainAfterMillis;
            CompletableFuture<Void> reconnected = sentAgainWhen;
            CompletionStage<Object> lost = answer.handle((value, failure) -> null);
            answer = reconnected != null ? lost.thenCompose(nothing -> reconnected.thenCompose(open -> call.get()))
                    : after == 0 ? lost.thenCompose(nothing -> call.get())
                    : lost.thenComposeAsync(nothing -> call.get(),
                            CompletableFuture.delayedExecutor(after, TimeUnit.MILLISECONDS));
        }
        return watched(argv, answer);
    }

    private CompletionStage<List<Object>> watched(String[] argv, CompletionStage<List<Object>> answer) {
        BiConsumer<String[], List<Object>> seen = watcher;
        return answer.whenComplete((value, failure) -> {
            if (value != null) {
                seen.accept(argv, value);
            }
        });
    }
}
