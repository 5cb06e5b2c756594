package io.github.poolkit.redis;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The heartbeat: every {@code leaseTime / 3}, on its own thread and never blocking, renews this instance's leases and
 * places in line in one script run, and tells holders and waiters what Redis's answers (or their absence) mean.
 *
 * <p>Invariants:
 * <ul>
 *   <li>At most one heartbeat script is waited for at a time ({@code beating}, until its answer or its command
 *       timeout); a silent Redis is therefore noticed within one period after a lease time of silence, whatever the
 *       command timeout.</li>
 *   <li>A lease's or a place's {@code confirmed} time is when a renewal (or the acquire) that Redis answered was
 *       <em>sent</em>: Redis ran it after that, so the lease lasts at least a lease time from then. An answer that
 *       comes after the command timeout counts too (Redis did renew), and confirmed times only move forward, as
 *       answers may cross.</li>
 *   <li>A lease held by a {@code Permit} that Redis has not confirmed for longer than the lease time is lost now
 *       (its holder is told once) and never renewed again; a handle-less lease has nobody to tell and is renewed until
 *       a renewal finds it gone.</li>
 *   <li>A queued request whose place Redis has not confirmed for longer than the lease time fails with
 *       {@link SemaphoreUnavailableException}; its cancel withdraws what Redis may still hold once Redis answers.</li>
 * </ul>
 */
final class LeaseRenewal {

    private static final Logger LOG = Logger.getLogger(RedisPermitSemaphore.class.getName());

    private final Instance instance;
    private final Leases leases;
    private final Requests requests;
    private final ScheduledExecutorService heartbeat;
    /** Set while a heartbeat script is unanswered: the heartbeat sends no other meanwhile. */
    private final AtomicBoolean beating = new AtomicBoolean();

    /** Starts the heartbeat thread. */
    LeaseRenewal(Instance instance, Leases leases, Requests requests) {
        this.instance = instance;
        this.leases = leases;
        this.requests = requests;
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "poolkit-redis-heartbeat-" + instance.name());
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        long period = Math.max(1, instance.leaseMillis() / 3);
        scheduler.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
        this.heartbeat = scheduler;
    }

    /** Stops renewing; what is held expires after the lease time. */
    void stop() {
        heartbeat.shutdownNow();
    }

    /** Runs one more tick at once, on the heartbeat's thread: a resumed semaphore renews what it still holds now. */
    void beatNow() {
        heartbeat.execute(this::tick);
    }

    /**
     * First tells the holders of leases and the waiters whose renewals Redis has not confirmed for longer than the
     * lease time that they lost them, then sends one heartbeat unless the last one is still unanswered.
     */
    private void tick() {
        try {
            long now = System.nanoTime();
            loseSilentLeases(now);
            failPlacesLost(now);
            if (beating.compareAndSet(false, true)) {
                try {
                    beat();
                } catch (RuntimeException | Error e) {
                    beating.set(false); // nothing was sent: the next tick sends one
                    throw e;
                }
            }
        } catch (RuntimeException | Error e) {
            // never out of the tick: the scheduler would cancel it for good, silently, and with it every renewal and
            // every check for silence (leases expiring in Redis while their holders think them valid)
            LOG.log(Level.WARNING, "Cluster semaphore '" + instance.name() + "': heartbeat failed; retrying", e);
        }
    }

    /**
     * Renews this instance's leases and places in line in one script run; its answer (on Redis's I/O thread) tells
     * of leases lost (not renewed in time), of grants whose message was lost, and of places in line Redis dropped.
     */
    private void beat() {
        List<String> args = new ArrayList<>();
        List<Lease> held = leases.snapshot();
        List<Request> queued = new ArrayList<>();
        args.add(Integer.toString(held.size()));
        for (Lease lease : held) {
            args.add(lease.id);
            args.add(Long.toString(lease.token)); // another token under its id is a stranger's: this one was lost
        }
        for (Request request : requests.all()) {
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
        // An answer that comes after the command timeout failed the call still tells what Redis did: it renewed
        // (Lettuce keeps the call and Redis runs it), so it counts, or a slow link would lose leases Redis renews.
        CompletableFuture<List<Object>> answer = instance.script().run("heartbeat",
                late -> renewed(late, held, queued, sent), args.toArray(String[]::new));
        answer.whenComplete((reply, failure) -> {
            try {
                if (failure != null) {
                    LOG.log(Level.FINE, "Cluster semaphore '" + instance.name() + "': heartbeat failed; retrying",
                            failure);
                } else {
                    renewed(reply, held, queued, sent);
                }
            } finally {
                beating.set(false);
            }
        });
    }

    private void renewed(List<Object> reply, List<Lease> held, List<Request> queued, long sent) {
        Set<String> gone = new HashSet<>();
        for (Object id : (List<?>) reply.get(0)) {
            gone.add(id.toString());
            Lease lost = leases.remove(id.toString());
            if (lost != null) {
                leases.lose(lost, false, "expired before it was renewed (Redis did not hear from this instance within "
                        + instance.leaseMillis() + " ms, the lease time), and Redis gave its permits back");
            }
        }
        for (Lease lease : held) {
            if (!gone.contains(lease.id) && sent - lease.confirmedNanos > 0) { // answers may cross: never backwards
                lease.confirmedNanos = sent;
            }
        }
        requests.checks().renewed(reply, queued, sent);
    }

    /**
     * A lease held by a Permit whose renewal Redis has not confirmed for longer than the lease time may have expired
     * in Redis, and other instances may hold its permits: the holder is told now (its Permit turns invalid) and it is
     * not renewed again. Handle-less leases have nobody to tell: they keep being renewed, and a renewal that finds
     * them gone drops them.
     */
    private void loseSilentLeases(long now) {
        for (Lease lease : leases.all()) {
            if (!lease.handleLess && now - lease.confirmedNanos > instance.leaseTime().toNanos()) {
                leases.remove(lease);
                leases.lose(lease, false, "may have expired: Redis confirmed no renewal for longer than the lease time"
                        + " (" + instance.leaseMillis() + " ms)");
            }
        }
    }

    /**
     * A waiting request whose place in line Redis has not confirmed for longer than the lease time has lost it (Redis
     * drops a place that long without renewal): it fails now rather than waiting for a Redis that is gone. Its
     * cancel withdraws whatever Redis may still hold for it once Redis answers again.
     */
    private void failPlacesLost(long now) {
        for (Request request : requests.all()) {
            if (request.queued && now - request.placeConfirmedNanos > instance.leaseTime().toNanos()) {
                requests.giveUp(request, new SemaphoreUnavailableException("Cluster semaphore '" + instance.name()
                        + "': Redis did not answer this instance's renewals for longer than the lease time ("
                        + instance.leaseMillis() + " ms), so this request lost its place in line. Check that Redis is"
                        + " up and reachable (spring.data.redis.*)", null));
            }
        }
    }
}
