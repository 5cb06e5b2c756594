package io.github.poolkit.redis;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The grants this instance holds, and the two ways one ends: its {@code Permit} is closed, or it is found lost.
 *
 * <p>Invariants:
 * <ul>
 *   <li>A lease is here from before its request's result completes with it until it is released, lost, or given back
 *       by a request that settled first; {@link LeaseRenewal} renews exactly the leases here.</li>
 *   <li>A lease leaves before its release script is sent, so it is never renewed while, or after, it is released.</li>
 *   <li>A lease is marked lost at most once ({@link Lease}'s state machine); the one marking logs the warning.</li>
 *   <li>Redis releases a lease by its id, and records each release under its operation id: a release never gives
 *       permits back twice, and one that Lettuce sends again answers as the first (never a false "had expired").
 *       Renewals and releases carry the lease's token too: an id that holds another token (an acquire that Lettuce
 *       sent again after this lease expired was granted anew) is reported lost, never taken for this lease.</li>
 * </ul>
 */
final class Leases {

    private static final Logger LOG = Logger.getLogger(RedisPermitSemaphore.class.getName());

    private final Instance instance;
    private final ConcurrentHashMap<String, Lease> held = new ConcurrentHashMap<>();

    Leases(Instance instance) {
        this.instance = instance;
    }

    /** {@return whether the lease was added (false: one with its id is held already)} */
    boolean add(Lease lease) {
        return held.putIfAbsent(lease.id, lease) == null;
    }

    /** {@return the lease held under {@code id}, or null} */
    Lease get(String id) {
        return held.get(id);
    }

    /** {@return the lease that was held under {@code id}, now no longer held, or null} */
    Lease remove(String id) {
        return held.remove(id);
    }

    /** Stops holding {@code lease} if it is still the one held under its id. */
    void remove(Lease lease) {
        held.remove(lease.id, lease);
    }

    /** {@return the leases held now (a weakly consistent view)} */
    Collection<Lease> all() {
        return held.values();
    }

    /** {@return a copy of the leases held now} */
    List<Lease> snapshot() {
        return List.copyOf(held.values());
    }

    /**
     * Closing a Permit: releases its lease. A lease already known lost is released quietly: Redis gave its permits
     * back or does so within the lease time, and this run only returns them sooner if Redis still holds them (the
     * script releases a lease by its id, so never twice). A lease this release finds expired is marked lost, and so is
     * one whose id holds another token (a grant made anew by an acquire that Lettuce sent again, which nobody holds:
     * the script gives it back).
     */
    void release(Lease lease) {
        held.remove(lease.id, lease);
        String operation = instance.nextId();
        String token = Long.toString(lease.token); // another token under its id is a stranger's: this lease expired
        if (!lease.close()) {
            try {
                instance.call(instance.script().runOperation("release", operation, lease.id, token));
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Cluster semaphore '" + instance.name() + "': release of a lost lease failed;"
                        + " Redis gives its permits back after the lease time", e);
            }
            return;
        }
        List<Object> reply = instance.call(instance.script().runOperation("release", operation, lease.id, token));
        if (SemaphoreScript.asLong(reply.get(0)) == 0) {
            lose(lease, true, "had expired before its release (it was not renewed within " + instance.leaseMillis()
                    + " ms, the lease time), so Redis had given its permits back already; nothing was released");
        }
    }

    /** Marks a lease lost (once: its Permit turns invalid and its lost() stage completes) and logs why. */
    void lose(Lease lease, boolean byRelease, String why) {
        if (lease.markLost(byRelease)) {
            LOG.warning("Cluster semaphore '" + instance.name() + "': a grant of " + lease.weight + " permits (fencing"
                    + " token " + lease.token + ") was lost: it " + why + ". Other instances may hold these permits"
                    + " now; lengthen the lease time if holders or Redis pause for that long");
        }
    }
}
