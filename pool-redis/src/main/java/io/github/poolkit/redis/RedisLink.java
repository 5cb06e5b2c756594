package io.github.poolkit.redis;

import io.lettuce.core.AbstractRedisClient;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What one {@link RedisPermitSemaphore} instance holds of its Redis client, its two connections and its heartbeat, and
 * how they change as the semaphore pauses, resumes and closes: open, paused and open again any number of times, and
 * from either to closed, for good. The rest of the instance (its owner id, the leases held, the request table) lives
 * on across a pause, so a {@code Permit} taken before it is renewed, and closed, after it.
 *
 * <p>Invariants, the state kept under this object's lock:
 * <ul>
 *   <li>The withdrawal of the waiting requests runs outside the lock: it fails their futures on the thread that pauses
 *       or closes, so the application's stages run there, and one that takes a lock of the application's own while
 *       another thread holding that lock closes the semaphore must not deadlock. So a pause marks the state
 *       {@code PAUSING} first: a close meanwhile (on any thread) takes over and the pause then does nothing more; a
 *       resume on another thread waits until the pause is done (a bounded wait: a withdrawal lasts at most twice the
 *       command timeout), and one asked for on the pausing thread itself, by a waiter's stage, does nothing.</li>
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

    /** PAUSING: a pause is under way, withdrawing the requests ({@link #pausing}); a resume waits for PAUSED. */
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
    /** The thread whose pause is withdrawing the requests, while {@code PAUSING}. */
    private Thread pausing;

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
    void pause() {
        synchronized (this) {
            if (state != State.OPEN) {
                return;
            }
            state = State.PAUSING;
            pausing = Thread.currentThread();
            renewal.stop();
        }
        try {
            requests.withdrawAll(PAUSED); // within twice the command timeout; the waiters' stages run here
        } finally {
            synchronized (this) {
                pausing = null;
                if (state == State.PAUSING) { // else closed meanwhile: the close did the rest
                    instance.script().refuse(PAUSED);
                    connections.close();
                    connected = false;
                    renewal = new LeaseRenewal(instance, leases, requests); // tells holders of leases it cannot renew
                    state = State.PAUSED;
                }
                notifyAll();
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
        awaitPause();
        if (state != State.PAUSED) {
            return;
        }
        AbstractRedisClient redis = client.get();
        Connections opened = Connections.open(redis, instance.keys());
        new GrantMessages(requests).listen(opened, instance); // closes them if it fails
        instance.script().reconnect(link.apply(ScriptCalls.of(opened.scripting())), redis.getResources().timer());
        connections = opened;
        connected = true;
        requests.reopen();
        renewal.beatNow();
        state = State.OPEN;
    }

    /** Waits, uninterruptibly (the interrupt status is kept), for a pause under way on another thread. Lock held. */
    private void awaitPause() {
        boolean interrupted = false;
        while (state == State.PAUSING && pausing != Thread.currentThread()) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Closes for good: as a pause, when open, then every call fails at once ("was closed"); only the first counts, and
     * a second returns at once. A close during a pause takes it over.
     */
    void close() {
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            renewal.stop();
        }
        requests.withdrawAll(CLOSED); // within twice the command timeout; nothing waits any more when paused
        synchronized (this) {
            instance.script().close(); // later calls fail at once, saying so
            if (connected) {
                connections.close();
                connected = false;
            }
        }
    }
}
