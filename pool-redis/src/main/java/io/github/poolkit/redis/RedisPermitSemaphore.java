package io.github.poolkit.redis;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.SemaphoreListener;
import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A weighted semaphore shared by every instance of a service that uses the same name on the same Redis: one budget
 * (GPU memory, a partner API's concurrency quota, a database's connections) for all of them, with the rules of the
 * local {@link io.github.poolkit.WeightedSemaphore}.
 *
 * <pre>{@code
 * RedisPermitSemaphore gpu = RedisPermitSemaphore.builder(connectionFactory, "gpu-memory")
 *         .size(16_384).leaseTime(Duration.ofSeconds(30)).build();
 * try (Permit permit = gpu.acquirePermit(2_048)) {
 *     render(permit.fencingToken());
 * }
 * }</pre>
 *
 * <h2>Rules, across all instances</h2>
 * <ul>
 *   <li>Weights and strict FIFO: Redis keeps one line for all clients; a request is granted when it fits and every
 *       earlier one has been granted or has left, so a large request is never starved. {@code tryAcquire} never
 *       barges past a waiter. A request larger than the size fails at once.</li>
 *   <li>A request that gives up (timeout, interrupt, cancelled future) leaves the line; if a grant won the race
 *       with it, that grant is given back; either way the requests behind it that now fit are granted.</li>
 *   <li>Every grant is a <em>lease</em> that this instance renews every {@code leaseTime / 3} while it holds it. A
 *       holder that dies (or cannot reach Redis) for longer than {@code leaseTime} loses its permits: the next
 *       operation of any instance gives them back. Likewise a waiter whose instance stops renewing its place in
 *       line leaves it after {@code leaseTime}.</li>
 *   <li>A holder learns when its lease is lost: its {@link Permit#isValid()} turns {@code false} and its
 *       {@link Permit#lost()} stage completes, once, when a renewal finds that the lease expired, or when Redis has
 *       confirmed no renewal for longer than {@code leaseTime} (Redis frozen, unreachable, or failing over), so
 *       within {@code leaseTime} plus one renewal period of Redis's last answer. The lease is not renewed again:
 *       other instances may be granted its permits. Closing a lost permit (or one that its close finds expired)
 *       throws nothing and gives nothing back twice: it makes one round trip that returns the permits if Redis still
 *       holds that grant (leases are released by their id), and marks the permit lost if it was not yet.</li>
 *   <li>Permits taken without a {@link Permit} ({@link #acquire(long)}, {@code tryAcquire}): {@link #release(long)}
 *       of a grant that already expired throws {@link IllegalStateException}: its permits went back without it, and
 *       they are never given back twice. Releasing more than held throws the same and changes nothing.</li>
 *   <li>Every grant carries a fencing token ({@link Permit#fencingToken()}) that grows with each grant, so a protected
 *       resource can refuse a holder whose lease ran out. It is one more than the last token, but at least Redis's
 *       time in microseconds, so it keeps growing even after Redis lost the semaphore's state (a restart without
 *       persistence, a failover that lost the last writes).</li>
 *   <li>{@link #release(long)} (without a {@link Permit}) gives back permits that <em>this instance</em> took with
 *       {@link #acquire(long)} or the {@code tryAcquire} forms, oldest grant first, splitting a grant if needed;
 *       permits taken as a {@link Permit} are given back only by closing it.</li>
 * </ul>
 *
 * <h2>Size</h2>
 * The size lives in Redis. The first instance that touches the semaphore stores its configured size; instances that
 * start later with a different size use the stored one ({@link #size()} shows it) until {@link #resize(long)}
 * changes it for all. If Redis loses the semaphore's keys, the next instance to touch it stores its size again.
 *
 * <h2>Cost</h2>
 * An uncontended acquire is one script run (one round trip), as is a release; the script makes three and four Redis
 * calls for them (the leases are fields of the semaphore's {@code meta} hash). Waiting requests hold no thread
 * ({@link #acquireAsync(long)}) and are woken by a message on this instance's own pub/sub channel, never by polling;
 * the heartbeat also catches a grant whose message was lost. A script run first reaps expired leases and waiters
 * whenever one may have expired, by Redis's clock ({@code TIME}); no client clock is compared with another.
 *
 * <h2>Failures</h2>
 * Every call to Redis ends within the command timeout (default 2 s), or fails with
 * {@link SemaphoreUnavailableException}. A request that gives up (timeout, interrupt) returns once Redis confirmed that
 * it left the line; if Redis stays silent for the command timeout after that, it throws
 * {@link SemaphoreUnavailableException} rather than returning {@code false}: a timed request ends within its timeout
 * plus the command timeout. A request waiting in line without a timeout of its own ({@link #acquire(long)},
 * {@link #acquireAsync(long)}) fails with {@link SemaphoreUnavailableException} once Redis has not confirmed its place
 * for longer than the lease time (Redis drops a place that long without renewal), instead of waiting for a Redis that
 * may never come back. {@link #used()}, {@link #size()}, {@link #available()} and {@link #waiting()} read Redis
 * and throw {@link SemaphoreUnavailableException} when it does not answer.
 *
 * <p>Thread-safe. Memory consistency: actions before a {@link Permit#close()} or {@link #release(long)} in one
 * instance happen-before a grant of the same permits in another only through Redis's own ordering of script runs.
 */
public final class RedisPermitSemaphore implements PermitSemaphore, AutoCloseable {

    /** The largest size: 2^53 - 1, the largest count that Redis's Lua scripts (which count in doubles) hold exactly. */
    public static final long MAX_SIZE = (1L << 53) - 1;

    /** The shortest lease time: renewals run every third of it. */
    public static final Duration MIN_LEASE_TIME = Duration.ofMillis(30);

    /*
     * Implementation overview.
     *
     * Redis holds the truth (semaphore.lua: size, used, leases, the line). This object holds:
     *  - 'requests': every Request whose acquire script was sent and whose result is not settled, by id, so that a
     *    grant message ("id token") finds its request. A request is put there before its script is sent, so a
     *    grant message that overtakes the script's reply still finds it.
     *  - 'held': every lease this instance holds, renewed by the heartbeat. A lease enters before the request's
     *    result is completed with it, and leaves when released, lost or refused by a settled request.
     *  - 'releaseLock': serialises release(long), which picks handle-less leases from 'held' and shrinks them.
     * A request's result is settled exactly once (see Request): a grant or a give-up wins; a give-up always sends one
     * cancel script, which also returns a grant that lost the race, so no permit stays held by nobody.
     */

    private static final Logger LOG = Logger.getLogger(RedisPermitSemaphore.class.getName());

    private final SemaphoreKeys keys;
    private final long configuredSize;
    private final Duration leaseTime;
    private final Duration commandTimeout;
    private final SemaphoreListener listener;
    private final Executor completions;
    private final String owner = UUID.randomUUID().toString();
    private final AtomicLong ids = new AtomicLong();
    private final StatefulConnection<String, String> connection;
    private final StatefulRedisPubSubConnection<String, String> grants;
    private final SemaphoreScript script;
    private final ConcurrentHashMap<String, Request> requests = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Lease> held = new ConcurrentHashMap<>();
    private final ReentrantLock releaseLock = new ReentrantLock();
    private final ScheduledExecutorService heartbeat;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set while a heartbeat script is unanswered: the heartbeat sends no other meanwhile. */
    private final AtomicBoolean beating = new AtomicBoolean();
    /** For tests: told (ticket, fencing token) of each grant to a request that waited in line. */
    volatile BiConsumer<Long, Long> fifoAudit;

    private RedisPermitSemaphore(Builder builder) {
        this.keys = builder.keys;
        this.configuredSize = builder.size;
        this.leaseTime = builder.leaseTime;
        this.commandTimeout = builder.commandTimeout;
        this.listener = builder.listener;
        this.completions = builder.completions;
        Connections connections = Connections.open(builder.client, keys, commandTimeout, this::onGrantMessage, owner);
        this.connection = connections.commands();
        this.grants = connections.grants();
        this.script = new SemaphoreScript(connections.scripting(), keys, configuredSize, leaseTime, commandTimeout,
                builder.client.getResources().timer());
        try {
            script.run("state").get(commandTimeout.toNanos(), TimeUnit.NANOSECONDS); // stores the size if none
        } catch (Exception e) {
            closeConnections();
            throw new SemaphoreUnavailableException("Cluster semaphore '" + keys.name()
                    + "' could not reach Redis within " + commandTimeout.toMillis() + " ms", SemaphoreScript.unwrap(e));
        }
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "poolkit-redis-heartbeat-" + keys.name());
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        long period = Math.max(1, leaseTime.toMillis() / 3);
        scheduler.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
        this.heartbeat = scheduler;
    }

    /**
     * Starts a builder for the semaphore {@code name} on the Redis of a Spring Data Redis connection factory.
     *
     * @param connectionFactory a started {@link LettuceConnectionFactory} (Spring Boot's, from
     *                          {@code spring.data.redis.*}); its Lettuce client opens this semaphore's two connections
     * @param name              the semaphore's name: every instance using this name on this Redis shares its permits
     * @return the builder
     * @throws IllegalArgumentException if the factory is not Lettuce's
     */
    public static Builder builder(RedisConnectionFactory connectionFactory, String name) {
        if (!(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalArgumentException("The cluster semaphore '" + name + "' needs Lettuce, got "
                    + (connectionFactory == null ? "null" : connectionFactory.getClass().getName())
                    + ": set spring.data.redis.client-type=lettuce (Lettuce is Spring Boot's default)");
        }
        return new Builder(lettuce.getRequiredNativeClient(), name);
    }

    /**
     * Starts a builder for the semaphore {@code name} on the Redis of a Lettuce client, without Spring.
     *
     * @param client a {@link RedisClient} (standalone or Sentinel) or a {@link RedisClusterClient}
     * @param name   the semaphore's name: every instance using this name on this Redis shares its permits
     * @return the builder
     */
    public static Builder builder(AbstractRedisClient client, String name) {
        return new Builder(Objects.requireNonNull(client, "client"), name);
    }

    /** Options of a {@link RedisPermitSemaphore}; {@link #build()} connects. */
    public static final class Builder {
        private final AbstractRedisClient client;
        private final SemaphoreKeys keys;
        private final String name;
        private long size = 1;
        private Duration leaseTime = Duration.ofSeconds(30);
        private Duration commandTimeout = Duration.ofSeconds(2);
        private SemaphoreListener listener;
        private Executor completions = ForkJoinPool.commonPool();

        private Builder(AbstractRedisClient client, String name) {
            this.client = client;
            this.keys = new SemaphoreKeys(name);
            this.name = name;
        }

        /**
         * Sets the size: the total weight of the permits that every instance shares.
         *
         * @param size the size stored in Redis if none is stored yet (see "Size" above), from 0 to {@link #MAX_SIZE};
         *             default 1
         * @return this builder
         */
        public Builder size(long size) {
            checkSize(name, size);
            this.size = size;
            return this;
        }

        /**
         * Sets the lease time.
         *
         * @param leaseTime how long a grant (or a place in line) outlives its holder's last renewal; renewed every
         *                  third of it; at least 30 ms; default 30 s
         * @return this builder
         */
        public Builder leaseTime(Duration leaseTime) {
            if (leaseTime == null || leaseTime.compareTo(MIN_LEASE_TIME) < 0) {
                throw new IllegalArgumentException("Cluster semaphore '" + name + "': lease time must be at least 30ms,"
                        + " got " + leaseTime + "; a few times the longest pause of the JVM or network is a safe choice");
            }
            this.leaseTime = leaseTime;
            return this;
        }

        /**
         * Sets how long to wait for Redis to answer.
         *
         * @param commandTimeout the longest wait for Redis to answer one script run; default 2 s
         * @return this builder
         */
        public Builder commandTimeout(Duration commandTimeout) {
            if (commandTimeout == null || commandTimeout.isNegative() || commandTimeout.isZero()) {
                throw new IllegalArgumentException("Cluster semaphore '" + name + "': command timeout must be > 0, got "
                        + commandTimeout);
            }
            this.commandTimeout = commandTimeout;
            return this;
        }

        /**
         * Sets the listener told of every request.
         *
         * @param listener receives each settled request (on the requesting thread or Redis's I/O thread), or null
         * @return this builder
         */
        public Builder listener(SemaphoreListener listener) {
            this.listener = listener;
            return this;
        }

        /**
         * Sets the executor that completes the futures.
         *
         * @param completions runs the completion of {@link #acquireAsync(long)} futures and of
         *                    {@link Permit#lost()} stages, and their dependent stages, so that they never run on
         *                    Redis's I/O thread nor on the heartbeat; default {@link ForkJoinPool#commonPool()}
         * @return this builder
         */
        public Builder completions(Executor completions) {
            this.completions = Objects.requireNonNull(completions, "completions");
            return this;
        }

        /**
         * Connects (two connections: one for scripts, one for grant messages) and stores the size if Redis has none.
         *
         * @return the semaphore; close it when done
         * @throws SemaphoreUnavailableException if Redis does not answer within the command timeout
         */
        public RedisPermitSemaphore build() {
            return new RedisPermitSemaphore(this);
        }
    }

    // ---------------------------------------------------------------------------------------------- acquiring

    @Override
    public void acquire(long n) throws InterruptedException {
        checkWeight(n);
        checkInterrupt();
        await(request(n, false, true, false), -1);
    }

    @Override
    public Permit acquirePermit(long n) throws InterruptedException {
        checkWeight(n);
        checkInterrupt();
        return await(request(n, false, false, false), -1);
    }

    @Override
    public CompletableFuture<Permit> acquireAsync(long n) {
        checkWeight(n);
        return request(n, false, false, true).result;
    }

    @Override
    public boolean tryAcquire(long n) {
        checkWeight(n);
        Request request = send(new Request(nextId(), n, true, true, false), "try");
        try {
            return request.result.get() != null;
        } catch (InterruptedException e) {
            // cannot happen: the script run ends within the command timeout, and the result completes with it
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw rethrow(e);
        }
    }

    @Override
    public boolean tryAcquire(long n, Duration timeout) throws InterruptedException {
        checkWeight(n);
        checkInterrupt();
        if (timeout.isNegative() || timeout.isZero()) {
            return tryAcquire(n);
        }
        return await(request(n, true, true, false), timeout.toNanos()) != null;
    }

    private Request request(long n, boolean orFalse, boolean handleLess, boolean async) {
        return send(new Request(nextId(), n, orFalse, handleLess, async), "wait");
    }

    /** Registers the request, then sends its acquire script; the reply (or a grant message) settles it. */
    private Request send(Request request, String mode) {
        requests.put(request.id, request);
        request.result.whenComplete((permit, failure) -> settled(request, permit, failure));
        script.run("acquire", request.id, Long.toString(request.weight), mode).whenComplete((reply, failure) -> {
            if (failure != null) {
                giveUp(request, (RuntimeException) SemaphoreScript.unwrap(failure)); // Redis may still run it
                return;
            }
            long status = SemaphoreScript.asLong(reply.get(0));
            if ((status == 1 || status == 2) && request.result.isCompletedExceptionally()) {
                // The caller gave up before this answer came, and its cancel went out then. That cancel ran after this
                // acquire (one connection keeps the order) unless Redis had lost the script: then this acquire was
                // sent again whole once its first try failed, maybe behind the cancel. Withdrawing once more, now
                // that Redis has run it, returns what it holds in every case (otherwise this cancel finds nothing).
                request.withdrawal = script.run("cancel", request.id);
            }
            if (status == 1) {
                granted(request, SemaphoreScript.asLong(reply.get(1)));
            } else if (status == 2) {
                request.ticket = SemaphoreScript.asLong(reply.get(1));
                request.placeConfirmedNanos = System.nanoTime();
                request.queued = true;
            } else if (status == 0 || request.orFalse) {
                settleByRedis(request, null);
            } else {
                settleByRedis(request, tooLarge(request.weight));
            }
        });
        return request;
    }

    /** Waits for a blocking request; on timeout or interrupt withdraws it and waits for the withdrawal. */
    private Permit await(Request request, long timeoutNanos) throws InterruptedException {
        try {
            return timeoutNanos < 0 ? request.result.get() : request.result.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw rethrow(e);
        } catch (TimeoutException e) {
            giveUp(request, new GaveUp(AcquireOutcome.TIMEOUT));
            return outcomeAfterGivingUp(request);
        } catch (InterruptedException e) {
            giveUp(request, new GaveUp(AcquireOutcome.INTERRUPTED));
            try {
                Permit won = outcomeAfterGivingUp(request);
                if (won != null) {
                    giveBack(request, won); // the grant won the race with the interrupt: nothing may stay held
                }
            } catch (RuntimeException ignored) {
                // the interrupt is what the caller must hear of; a grant Redis could not take back expires
            }
            throw e;
        }
    }

    /** Releases a grant its caller will never see. */
    private void giveBack(Request request, Permit permit) {
        if (permit != HANDLE_LESS) {
            permit.close();
            return;
        }
        Lease lease = held.get(request.id);
        if (lease != null) {
            release(lease);
        }
    }

    /**
     * After a blocking caller gave up: the permit if the grant won the race, else {@code null} once Redis confirmed
     * the withdrawal (so the semaphore is as before the call). The withdrawal runs after the request itself on the
     * same connection (see SemaphoreScript for the one exception), so its answer also means Redis answered the request;
     * if it does not come within the command timeout, Redis is frozen or gone: {@link SemaphoreUnavailableException}.
     */
    private Permit outcomeAfterGivingUp(Request request) {
        if (!request.result.isCompletedExceptionally()) {
            return request.result.join(); // granted (or refused by Redis) before the caller gave up
        }
        try {
            Throwable cause = request.result.handle((p, e) -> SemaphoreScript.unwrap(e)).join();
            if (!(cause instanceof GaveUp) && cause instanceof RuntimeException r) {
                throw r; // Redis did not answer, or refused the request
            }
            CompletableFuture<?> withdrawal = request.withdrawal;
            if (withdrawal != null) {
                withdrawal.get(); // ends within the command timeout
            }
            return null;
        } catch (ExecutionException e) {
            throw new SemaphoreUnavailableException("Cluster semaphore '" + keys.name() + "': Redis did not answer"
                    + " within " + commandTimeout.toMillis() + " ms (command timeout) after the request gave up;"
                    + " nothing is held (what Redis runs late is withdrawn, or expires after the lease time)",
                    SemaphoreScript.unwrap(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void giveUp(Request request, RuntimeException why) {
        request.result.completeExceptionally(why);
    }

    /**
     * A grant from Redis (the acquire's reply, a grant message or the heartbeat; a grant may be told twice): record
     * the lease, then hand it to the request unless the request already ended. */
    private void granted(Request request, long token) {
        if (request.handleLess && request.weight == 0) {
            // nothing to hold: give the empty lease straight back (if the request gave up, its cancel does)
            if (request.result.complete(HANDLE_LESS)) {
                script.run("release", request.id);
            }
            return;
        }
        // confirmed when the acquire was sent if Redis granted it in its reply (the script ran after that), else now
        Lease lease = new Lease(request.id, request.weight, token, request.handleLess,
                request.queued ? System.nanoTime() : request.startNanos);
        if (request.result.isDone() || held.putIfAbsent(lease.id, lease) != null) {
            return; // told twice (message and heartbeat), or the request gave up: its cancel returns the lease
        }
        BiConsumer<Long, Long> audit = fifoAudit;
        if (audit != null && request.ticket > 0) {
            audit.accept(request.ticket, token);
        }
        Permit permit = request.handleLess ? HANDLE_LESS : Permit.of(request.weight, token, () -> release(lease), lease.lost);
        Runnable complete = () -> {
            if (!request.result.complete(permit)) {
                held.remove(lease.id, lease); // the request gave up first; its cancel script returns the lease
            }
        };
        if (request.async) {
            completions.execute(complete);
        } else {
            complete.run();
        }
    }

    /** Marker result of a granted handle-less request (its lease is in 'held'). */
    private static final Permit HANDLE_LESS = Permit.of(0, Permit.NO_FENCING_TOKEN, () -> { });

    /** Redis settled the request and holds nothing for it (refused, too large, dropped from the line). */
    private void settleByRedis(Request request, Throwable failure) {
        request.nothingHeld = true;
        Runnable complete = () -> {
            if (failure == null) {
                request.result.complete(null);
            } else {
                request.result.completeExceptionally(failure);
            }
        };
        if (request.async) {
            completions.execute(complete);
        } else {
            complete.run();
        }
    }

    /**
     * Runs once per request, when its result settles: a request that ended without a permit, unless Redis said it
     * holds nothing for it, is withdrawn by a cancel script (which also returns a grant that lost the race).
     */
    private void settled(Request request, Permit permit, Throwable failure) {
        requests.remove(request.id, request);
        if (permit == null && !request.nothingHeld) {
            held.remove(request.id);
            request.withdrawal = script.run("cancel", request.id);
        }
        if (listener != null) {
            notifyListener(request, permit, failure);
        }
    }

    private void notifyListener(Request request, Permit permit, Throwable failure) {
        Throwable cause = failure == null ? null : SemaphoreScript.unwrap(failure);
        AcquireOutcome outcome;
        if (permit != null) {
            outcome = AcquireOutcome.ACQUIRED;
        } else if (cause instanceof GaveUp g) {
            outcome = g.outcome;
        } else if (cause instanceof CancellationException) {
            outcome = AcquireOutcome.CANCELLED;
        } else if (cause instanceof SemaphoreUnavailableException) {
            outcome = AcquireOutcome.TIMEOUT;
        } else {
            outcome = AcquireOutcome.REJECTED; // refused by tryAcquire, or larger than the size
        }
        try {
            listener.requestSettled(request.weight, System.nanoTime() - request.startNanos, outcome);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "SemaphoreListener of '" + keys.name() + "' failed", e);
        }
    }

    /** "id token" on this instance's channel: a queued request was granted ("id -1": it can never fit any more). */
    private void onGrantMessage(String message) {
        int space = message.indexOf(' ');
        Request request = requests.get(message.substring(0, space));
        if (request == null) {
            return; // settled already; a cancel script returns the grant if needed
        }
        long token = Long.parseLong(message.substring(space + 1));
        if (token < 0) {
            settleByRedis(request, request.orFalse ? null : tooLarge(request.weight));
        } else {
            granted(request, token);
        }
    }

    // ---------------------------------------------------------------------------------------------- releasing

    /**
     * Closing a Permit: releases its lease. A lease already known lost is released quietly: Redis gave its permits
     * back or does so within the lease time, and this run only returns them sooner if Redis still holds them (the
     * script releases a lease by its id, so never twice). A lease this release finds expired is marked lost.
     */
    private void release(Lease lease) {
        held.remove(lease.id, lease);
        if (!lease.close()) {
            try {
                call(script.run("release", lease.id));
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Cluster semaphore '" + keys.name() + "': release of a lost lease failed; Redis"
                        + " gives its permits back after the lease time", e);
            }
            return;
        }
        List<Object> reply = call(script.run("release", lease.id));
        if (SemaphoreScript.asLong(reply.get(0)) == 0) {
            lose(lease, true, "had expired before its release (it was not renewed within " + leaseTime.toMillis()
                    + " ms, the lease time), so Redis had given its permits back already; nothing was released");
        }
    }

    /** Marks a lease lost (once: its Permit turns invalid and its lost() stage completes) and logs why. */
    private void lose(Lease lease, boolean byRelease, String why) {
        if (lease.markLost(byRelease, completions)) {
            LOG.warning("Cluster semaphore '" + keys.name() + "': a grant of " + lease.weight + " permits (fencing token "
                    + lease.token + ") was lost: it " + why + ". Other instances may hold these permits now;"
                    + " lengthen the lease time if holders or Redis pause for that long");
        }
    }

    /**
     * Gives back {@code n} permits that this instance took with {@link #acquire(long)} or a {@code tryAcquire} form
     * (not those held by a {@link Permit}): oldest grant first, the last one split if needed, in one script run that
     * changes all of them or none.
     *
     * @throws IllegalStateException if this instance holds fewer such permits ("released more than held"), or if one
     *                               of the grants it would use had expired; nothing changes then
     * @throws SemaphoreUnavailableException if Redis did not answer within the command timeout: the release may or may
     *                               not have been applied, and it is never applied twice (each grant it changes must
     *                               still hold what this instance knows of it), so calling it again is safe
     */
    @Override
    public void release(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("Cannot release a negative number of permits: " + n);
        }
        if (n == 0) {
            return;
        }
        releaseLock.lock();
        try {
            List<Lease> mine = new ArrayList<>();
            long total = 0;
            for (Lease lease : held.values()) {
                if (lease.handleLess) {
                    mine.add(lease);
                    total += lease.weight;
                }
            }
            if (total < n) {
                throw new IllegalStateException("Cluster semaphore '" + keys.name() + "': released more than held:"
                        + " this instance holds " + total + " permits taken by acquire/tryAcquire, asked to release "
                        + n + " (permits taken as a Permit are released by closing it); nothing was released");
            }
            mine.sort(Comparator.comparingLong(l -> l.token));
            List<String> args = new ArrayList<>();
            long left = n;
            List<Lease> used = new ArrayList<>();
            for (Lease lease : mine) {
                if (left == 0) {
                    break;
                }
                long amount = Math.min(left, lease.weight);
                args.add(lease.id);
                args.add(Long.toString(lease.weight)); // the script changes nothing unless Redis holds this weight
                args.add(Long.toString(amount));
                used.add(lease);
                left -= amount;
            }
            List<Object> reply;
            try {
                reply = call(script.run("releaseFrom", args.toArray(String[]::new)));
            } catch (SemaphoreUnavailableException e) {
                throw new SemaphoreUnavailableException("Cluster semaphore '" + keys.name() + "': release(" + n
                        + ") got no answer from Redis within " + commandTimeout.toMillis() + " ms (command timeout),"
                        + " so it may or may not have been applied; it is never applied twice: calling release("
                        + n + ") again applies it, or fails naming a grant it changed already", e);
            }
            if (SemaphoreScript.asLong(reply.get(0)) == 0) {
                // not held as this instance knows it: expired, or changed by an earlier run of this release whose
                // answer was lost; either way this instance stops renewing it, and what is left of it expires
                Lease gone = held.remove(reply.get(1).toString());
                throw new IllegalStateException("Cluster semaphore '" + keys.name() + "': the grant of "
                        + (gone == null ? 0 : gone.weight) + " permits (fencing token " + (gone == null ? -1 : gone.token)
                        + ") is not held as this instance knew it: it expired (not renewed within "
                        + leaseTime.toMillis() + " ms, the lease time), or an earlier release(n) that got no answer"
                        + " changed it already. Nothing was released; this instance no longer renews that grant, so"
                        + " what is left of it comes back within the lease time");
            }
            left = n;
            for (Lease lease : used) {
                long amount = Math.min(left, lease.weight);
                lease.weight -= amount;
                left -= amount;
                if (lease.weight == 0) {
                    held.remove(lease.id, lease);
                }
            }
        } finally {
            releaseLock.unlock();
        }
    }

    // ---------------------------------------------------------------------------------------------- size and state

    @Override
    public void resize(long size) {
        checkSize(keys.name(), size);
        call(script.run("resize", Long.toString(size)));
    }

    @Override
    public long size() {
        return state(0);
    }

    @Override
    public long used() {
        return state(1);
    }

    @Override
    public long available() {
        List<Object> state = call(script.run("state"));
        return SemaphoreScript.asLong(state.get(0)) - SemaphoreScript.asLong(state.get(1));
    }

    @Override
    public int waiting() {
        return (int) state(2);
    }

    /** {@return the semaphore's name, shared by every instance that uses it} */
    public String name() {
        return keys.name();
    }

    /** {@return how long a grant outlives its holder's last renewal} */
    public Duration leaseTime() {
        return leaseTime;
    }

    private long state(int index) {
        return SemaphoreScript.asLong(call(script.run("state")).get(index));
    }

    // ---------------------------------------------------------------------------------------------- heartbeat

    /**
     * Every leaseTime / 3, on the heartbeat thread, never blocking: first tells the holders of leases and the waiters
     * whose renewals Redis has not confirmed for longer than the lease time that they lost them, then sends one
     * heartbeat unless the last one is still unanswered (so a silent Redis is noticed within a period of the lease
     * time, whatever the command timeout).
     */
    private void tick() {
        try {
            long now = System.nanoTime();
            loseSilentLeases(now);
            failPlacesLost(now);
            if (beating.compareAndSet(false, true)) {
                try {
                    beat();
                } catch (RuntimeException e) {
                    beating.set(false); // nothing was sent: the next tick sends one
                    throw e;
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Cluster semaphore '" + keys.name() + "': heartbeat failed; retrying", e);
        }
    }

    /**
     * Renews this instance's leases and places in line in one script run; its answer (on Redis's I/O thread) tells
     * of leases lost (not renewed in time), of grants whose message was lost, and of places in line Redis dropped.
     */
    private void beat() {
        List<String> args = new ArrayList<>();
        List<Lease> leases = new ArrayList<>(held.values());
        List<Request> queued = new ArrayList<>();
        args.add(Integer.toString(leases.size()));
        for (Lease lease : leases) {
            args.add(lease.id);
        }
        for (Request request : requests.values()) {
            if (request.queued) {
                args.add(request.id);
                queued.add(request);
            }
        }
        if (args.size() == 1) {
            beating.set(false);
            return;
        }
        long sent = System.nanoTime();
        script.run("heartbeat", args.toArray(String[]::new)).whenComplete((reply, failure) -> {
            try {
                if (failure != null) {
                    LOG.log(Level.FINE, "Cluster semaphore '" + keys.name() + "': heartbeat failed; retrying", failure);
                } else {
                    renewed(reply, leases, queued, sent);
                }
            } finally {
                beating.set(false);
            }
        });
    }

    private void renewed(List<Object> reply, List<Lease> leases, List<Request> queued, long sent) {
        for (Request request : queued) {
            request.placeConfirmedNanos = sent; // renewed, unless listed as gone below
        }
        Set<String> gone = new HashSet<>();
        for (Object id : (List<?>) reply.get(0)) {
            gone.add(id.toString());
            Lease lost = held.remove(id.toString());
            if (lost != null) {
                lose(lost, false, "expired before it was renewed (Redis did not hear from this instance within "
                        + leaseTime.toMillis() + " ms, the lease time), and Redis gave its permits back");
            }
        }
        for (Lease lease : leases) {
            if (!gone.contains(lease.id)) {
                lease.confirmedNanos = sent;
            }
        }
        List<?> granted = (List<?>) reply.get(1);
        for (int i = 0; i + 1 < granted.size(); i += 2) {
            Request request = requests.get(granted.get(i).toString());
            if (request != null) {
                granted(request, SemaphoreScript.asLong(granted.get(i + 1)));
            }
        }
        for (Object id : (List<?>) reply.get(2)) {
            Request request = requests.get(id.toString());
            if (request != null) {
                settleByRedis(request, new SemaphoreUnavailableException("Cluster semaphore '" + keys.name()
                        + "': Redis dropped this request from the line because it did not hear from this"
                        + " instance within " + leaseTime.toMillis() + " ms (lease time)", null));
            }
        }
    }

    /**
     * A lease held by a Permit whose renewal Redis has not confirmed for longer than the lease time may have expired
     * in Redis, and other instances may hold its permits: the holder is told now (its Permit turns invalid) and it is
     * not renewed again. Handle-less leases have nobody to tell: they keep being renewed, and a renewal that finds
     * them gone drops them.
     */
    private void loseSilentLeases(long now) {
        for (Lease lease : held.values()) {
            if (!lease.handleLess && now - lease.confirmedNanos > leaseTime.toNanos()) {
                held.remove(lease.id, lease);
                lose(lease, false, "may have expired: Redis confirmed no renewal for longer than the lease time ("
                        + leaseTime.toMillis() + " ms)");
            }
        }
    }

    /**
     * A waiting request whose place in line Redis has not confirmed for longer than the lease time has lost it (Redis
     * drops a place that long without renewal): it fails now rather than waiting for a Redis that is gone. Its
     * cancel withdraws whatever Redis may still hold for it once Redis answers again.
     */
    private void failPlacesLost(long now) {
        for (Request request : requests.values()) {
            if (request.queued && now - request.placeConfirmedNanos > leaseTime.toNanos()) {
                giveUp(request, new SemaphoreUnavailableException("Cluster semaphore '" + keys.name() + "': Redis"
                        + " did not answer this instance's renewals for longer than the lease time ("
                        + leaseTime.toMillis() + " ms), so this request lost its place in line. Check that Redis is up"
                        + " and reachable (spring.data.redis.*)", null));
            }
        }
    }

    // ---------------------------------------------------------------------------------------------- lifecycle

    /**
     * Stops renewing, withdraws the requests still waiting (they fail with {@link SemaphoreUnavailableException})
     * and closes the connections. Leases still held are not released: they expire after the lease time, and their
     * permits are not reported lost (nothing watches them any more); close every permit before the semaphore.
     */
    @Override
    public void close() {
        if (closed.getAndSet(true)) {
            return;
        }
        heartbeat.shutdownNow();
        List<CompletableFuture<?>> withdrawals = new ArrayList<>();
        for (Request request : requests.values()) {
            giveUp(request, new SemaphoreUnavailableException("Cluster semaphore '" + keys.name() + "' was closed", null));
            if (request.withdrawal != null) {
                withdrawals.add(request.withdrawal);
            }
        }
        try {
            CompletableFuture.allOf(withdrawals.toArray(CompletableFuture[]::new))
                    .get(commandTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (Exception e) {
            LOG.log(Level.FINE, "Cluster semaphore '" + keys.name() + "': withdrawals on close did not finish", e);
        }
        closeConnections();
    }

    /** For tests: dies as a killed process would, renewing and withdrawing nothing. */
    void crash() {
        closed.set(true);
        stopRenewing();
        closeConnections();
    }

    /** For tests: stalls as a long pause would, renewing nothing while its connections stay open. */
    void stopRenewing() {
        heartbeat.shutdownNow();
    }

    private void closeConnections() {
        grants.close();
        connection.close();
    }

    @Override
    public String toString() {
        return "RedisPermitSemaphore[name=" + keys.name() + ", leaseTime=" + leaseTime + "]";
    }

    // ---------------------------------------------------------------------------------------------- helpers

    private String nextId() {
        return owner + ":" + ids.incrementAndGet();
    }

    private static void checkSize(String name, long size) {
        if (size < 0 || size > MAX_SIZE) {
            throw new IllegalArgumentException("Cluster semaphore '" + name + "': size must be between 0 and " + MAX_SIZE
                    + " (2^53 - 1, the largest count Redis's Lua scripts hold exactly), got " + size);
        }
    }

    private void checkWeight(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("Cannot acquire a negative number of permits: " + n);
        }
    }

    private static void checkInterrupt() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    private IllegalArgumentException tooLarge(long n) {
        return new IllegalArgumentException("Cluster semaphore '" + keys.name() + "': cannot acquire " + n
                + " permits, more than its size; it could never succeed. Ask for at most size() permits or resize it");
    }

    private <T> T call(CompletableFuture<T> reply) {
        try {
            return reply.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SemaphoreUnavailableException("Cluster semaphore '" + keys.name() + "': interrupted", e);
        } catch (ExecutionException e) {
            throw rethrow(e);
        }
    }

    private static RuntimeException rethrow(ExecutionException e) {
        Throwable cause = SemaphoreScript.unwrap(e.getCause());
        if (cause instanceof RuntimeException r) {
            return r;
        }
        return new IllegalStateException(cause);
    }

    /** The caller stopped waiting (timeout or interrupt); internal, never thrown to users. */
    private static final class GaveUp extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient AcquireOutcome outcome;

        GaveUp(AcquireOutcome outcome) {
            super(null, null, false, false);
            this.outcome = outcome;
        }
    }
}
