package io.github.poolkit.redis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code release(n)}: gives back permits that this instance took without a {@code Permit} ({@code acquire},
 * {@code tryAcquire}), oldest grant first, the last one split if needed, in one script run that changes all of them
 * or none.
 *
 * <p>Invariants:
 * <ul>
 *   <li>Only this class changes a lease's {@code weight}, and only under {@code lock}, so the weights it sends are
 *       the ones it then subtracts.</li>
 *   <li>A lease released whole leaves {@link Leases} before the script is sent (as a closed Permit's does), so a
 *       renewal sent meanwhile never finds it gone and reports it lost; it comes back if the script did not apply.</li>
 *   <li>The script changes a lease only if Redis still holds the weight sent for it: a run that comes twice never
 *       releases twice, and the run is recorded under its operation id, so a second run of the same operation
 *       answers "done" as the first did (see "Operation ids" in semaphore.lua).</li>
 * </ul>
 */
final class BatchedRelease {

    private final Instance instance;
    private final Leases leases;
    private final ReentrantLock lock = new ReentrantLock();

    BatchedRelease(Instance instance, Leases leases) {
        this.instance = instance;
        this.leases = leases;
    }

    /** See {@link RedisPermitSemaphore#release(long)}. */
    void release(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("Cannot release a negative number of permits: " + n);
        }
        if (n == 0) {
            return;
        }
        lock.lock();
        try {
            List<Lease> mine = new ArrayList<>();
            long total = 0;
            for (Lease lease : leases.all()) {
                if (lease.handleLess) {
                    mine.add(lease);
                    total += lease.weight;
                }
            }
            if (total < n) {
                throw new IllegalStateException("Cluster semaphore '" + instance.name() + "': released more than held:"
                        + " this instance holds " + total + " permits taken by acquire/tryAcquire, asked to release "
                        + n + " (permits taken as a Permit are released by closing it); nothing was released");
            }
            mine.sort(Comparator.comparingLong(l -> l.token));
            List<String> args = new ArrayList<>();
            long left = n;
            List<Lease> used = new ArrayList<>();
            List<Lease> whole = new ArrayList<>(); // released whole: they leave before the script is sent
            for (Lease lease : mine) {
                if (left == 0) {
                    break;
                }
                long amount = Math.min(left, lease.weight);
                args.add(lease.id);
                args.add(Long.toString(lease.weight)); // the script changes nothing unless Redis holds this weight
                args.add(Long.toString(lease.token)); // and this token
                args.add(Long.toString(amount));
                used.add(lease);
                if (amount == lease.weight) {
                    whole.add(lease);
                }
                left -= amount;
            }
            apply(n, args, used, whole);
        } finally {
            lock.unlock();
        }
    }

    private void apply(long n, List<String> args, List<Lease> used, List<Lease> whole) {
        whole.forEach(leases::remove);
        List<Object> reply;
        try {
            reply = instance.call(instance.script().runOperation("releaseFrom", instance.nextId(),
                    args.toArray(String[]::new)));
        } catch (SemaphoreUnavailableException e) {
            whole.forEach(leases::add); // maybe not applied: renewed again, so that release(n) again can apply it
            if (e instanceof ClosedSemaphoreException) {
                throw e; // not sent at all: closed, or paused
            }
            throw new SemaphoreUnavailableException("Cluster semaphore '" + instance.name() + "': release(" + n
                    + ") got no answer from Redis within " + instance.commandTimeout().toMillis() + " ms (command"
                    + " timeout), so it may or may not have been applied; it is never applied twice: calling release("
                    + n + ") again applies it, or fails naming a grant it changed already", e);
        } catch (RuntimeException e) {
            whole.forEach(leases::add); // refused by Redis (a script error): nothing was applied
            throw e;
        }
        if (SemaphoreScript.asLong(reply.get(0)) == 0) {
            // not held as this instance knows it: expired, or changed by an earlier run of this release whose
            // answer was lost; either way this instance stops renewing it, and what is left of it expires
            String goneId = reply.get(1).toString();
            Lease gone = leases.remove(goneId);
            for (Lease lease : used) {
                if (lease.id.equals(goneId)) {
                    gone = lease;
                } else if (whole.contains(lease)) {
                    leases.add(lease); // not released (all or nothing): held and renewed again
                }
            }
            throw new IllegalStateException("Cluster semaphore '" + instance.name() + "': the grant of "
                    + (gone == null ? 0 : gone.weight) + " permits (fencing token " + (gone == null ? -1 : gone.token)
                    + ") is not held as this instance knew it: it expired (not renewed within "
                    + instance.leaseMillis() + " ms, the lease time), or an earlier release(n) that got no answer"
                    + " changed it already. Nothing was released; this instance no longer renews that grant, so"
                    + " what is left of it comes back within the lease time");
        }
        long left = n;
        for (Lease lease : used) {
            long amount = Math.min(left, lease.weight);
            lease.weight -= amount;
            left -= amount;
            if (lease.weight == 0) {
                leases.remove(lease);
            }
        }
    }
}
