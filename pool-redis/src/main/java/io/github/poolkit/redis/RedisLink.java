package io.github.poolkit.redis;

import io.lettuce.core.AbstractRedisClient;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What one {@link RedisPermitSemaphore} instance holds of its Redis client, its two connections and its heartbeat, and
 * how they change as the semaphore pauses, resumes and closes: open, paused and open again any number of times, and
 * from either to closed, for good. The rest of the instance (its owner id, the leases held, the request table) lives
 * on across a pause, so a {@code Permit} taken before it is renewed, and closed, after it.
 *
 * <p>Invariants, all kept under this object's lock:
 * <ul>
 *   <li>One move at a time: a pause, a resume and a close each run whole under the lock. A pause and a close fail the
 *       waiting requests' futures on their own thread, so the application's stages of those futures run under the
 *       lock: a stage that calls back on that thread finds the move under way: a resume does nothing during a pause
 *       ({@code PAUSING}), a close there closes for good (the pause then does nothing more), and a pause or a close
 *       does nothing during a close ({@code CLOSED}); a stage must not wait for another thread that pauses, resumes or
 *       closes this semaphore meanwhile (that thread waits for the lock: they would wait for each other). A close
 *       after the first returns at once, without the lock, as before pauses existed.</li>
 *   <li>A pause or a close stops the heartbeat before it withdraws the requests, so nothing renews a request being
 *       withdrawn, and withdraws them while the connections are open, so that Redis drops their places at once, not
 *       after the lease time; then the script refuses calls, and only then do the connections close.</li>
 *   <li>While paused, the script refuses every call and the request table every request, each naming the pause, and a
 *       heartbeat without a connection runs: it renews nothing, but tells the holder of each lease that Redis has not
 *       confirmed for longer than the lease time that it is lost, as when Redis is silent. So a pause longer than the
 *       lease time never leaves a holder trusting a lease that Redis let expire.</li>
 *   <li>A resume subscribes the grant channel on the new connections before the script sends on them, and the script
 *       sends before the request table takes requests again: a request let in is sent on a live connection, and a
 *       grant to it is heard. The heartbeat then renews at once what is still held.</li>
 *   <li>A resume that cannot connect leaves the semaphore paused, holding no connection: it may be resumed again.</li>
 * </ul>
 */
final class RedisLink {

    /** What calls made while paused fail with, after the semaphore's name. */
    static final String PAUSED = "is paused (stopped until resume())";

    /** What calls made once closed fail with, after the semaphore's name. */
    static final String CLOSED = "was closed";

    /** PAUSING: a pause is under way, on the thread holding the lock (a resume there, by a stage, does nothing). */
    private enum State { OPEN, PAUSING, PAUSED, CLOSED }

    private final Supplier<AbstractRedisClient> client;
    private final UnaryOperator<ScriptCalls> link;
    private final Instance instance;
    private final Leases leases;
    private final Requests requests;
    private Connections connections;
    /** Whether {@code connections} are open: from their opening until a pause or the close closes them. */
    private boolean connected = true;
    private LeaseRenewal renewal;
    private State state = State.OPEN;
    /** Set by the first {@link #close()}, before it takes the lock. */
    private final AtomicBoolean closeAsked = new AtomicBoolean();

    /**
     * @param client where the connections come from, asked again on each resume (a Spring connection factory that was
     *               stopped and started again has a new client)
     * @param link   wraps the calls of the script on their way to Redis, on each connection
     * @param parts  the semaphore's parts, connected by {@code client}'s client of now
     */
    RedisLink(Supplier<AbstractRedisClient> client, UnaryOperator<ScriptCalls> link, SemaphoreParts parts) {
        this.client = client;
        this.link = link;
        this.instance = parts.instance();
        this.leases = parts.leases();
        this.requests = parts.requests();
        this.connections = parts.connections();
        this.renewal = parts.renewal();
    }

    /** Withdraws the waiting requests and closes the connections until {@link #resume()}; only when open. */
    synchronized void pause() {
        if (state != State.OPEN) {
            return;
        }
        state = State.PAUSING;
        renewal.stop();
        try {
            requests.withdrawAll(PAUSED); // within twice the command timeout, plus the waiters' stages, run here
        } finally {
            if (state == State.PAUSING) { // else closed meanwhile, on this thread, by a waiter's failure handling
                instance.script().refuse(PAUSED);
                connections.close();
                connected = false;
                renewal = new LeaseRenewal(instance, leases, requests); // tells holders of leases it cannot renew
                state = State.PAUSED;
            }
        }
    }

    /**
     * Connects again after {@link #pause()}, on the client the supplier gives now; does nothing unless paused (a
     * closed semaphore stays closed, and a resume asked for by a waiter's failure handling while the pause withdraws
     * it, on the pausing thread, does nothing either). The state turns open last, once everything else succeeded.
     *
     * @throws IllegalStateException         if the supplier has no client (a connection factory not started)
     * @throws SemaphoreUnavailableException if Redis cannot be reached: it stays paused
     */
    synchronized void resume() {
        if (state != State.PAUSED) {
            return;
        }
        AbstractRedisClient redis = client.get();
        Connections opened = Connections.open(redis, instance.keys());
        ScriptCalls calls;
        try {
            new GrantMessages(requests).listen(opened, instance);
            calls = link.apply(ScriptCalls.of(opened.scripting()));
        } catch (RuntimeException | Error e) { // it stays paused, holding no connection
            opened.close();
            throw e;
        }
        instance.script().reconnect(calls, redis.getResources().timer());
        connections = opened;
        connected = true;
        requests.reopen();
        renewal.beatNow();
        state = State.OPEN;
    }

    /**
     * Closes for good: as a pause, when open, then every call fails at once ("was closed"). Only the first call counts;
     * a later one returns at once, without the lock, also while the first is still withdrawing the requests.
     */
    void close() {
        if (closeAsked.getAndSet(true)) {
            return;
        }
        closeLocked();
    }

    private synchronized void closeLocked() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        renewal.stop();
        requests.withdrawAll(CLOSED); // within twice the command timeout; nothing waits any more when paused
        instance.script().refuse(CLOSED); // later calls fail at once, saying so
        if (connected) {
            connections.close();
            connected = false;
        }
    }
}
