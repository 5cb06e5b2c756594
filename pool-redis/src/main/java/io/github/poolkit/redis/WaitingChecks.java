package io.github.poolkit.redis;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What Redis says of this instance's requests waiting in line: the answer of a renewal (the heartbeat's script run)
 * about them, and the same run made at once when the grant channel was subscribed again after a reconnect, so that a
 * grant published while this instance was not subscribed (its message lost) is found within a reconnect, not a
 * heartbeat period later.
 *
 * <p>Invariants:
 * <ul>
 *   <li>After each confirmation of the grant channel's subscription, one run reports every grant of a request that
 *       was queued when the confirmation came: it is sent after Redis confirmed the subscription, so any grant made
 *       before that is in its answer, and any grant made after it is told by message.</li>
 *   <li>A request whose "queued" answer is read after a confirmation that came since the request was sent may have
 *       been missed by that run (it was not yet known as queued): it gets a run of its own. The confirmation bumps
 *       {@code subscriptions} before it lists the queued requests, and the answer marks the request queued before it
 *       reads {@code subscriptions}, so one of the two always sees the other.</li>
 *   <li>Without a reconnect this costs nothing: no Redis call on acquire or release (the first subscription, at
 *       start, finds no request waiting).</li>
 * </ul>
 */
final class WaitingChecks {

    private static final Logger LOG = Logger.getLogger(RedisPermitSemaphore.class.getName());

    private final Instance instance;
    private final Requests requests;
    /** How many times Redis confirmed the grant channel's subscription; only grows. */
    private final AtomicLong subscriptions = new AtomicLong();

    WaitingChecks(Instance instance, Requests requests) {
        this.instance = instance;
        this.requests = requests;
    }

    /** {@return how many times the grant channel was subscribed so far: a request records it when sent} */
    long subscriptions() {
        return subscriptions.get();
    }

    /**
     * Redis confirmed the grant channel's subscription (at start, or Lettuce re-subscribing after a reconnect): asks
     * Redis at once about every request waiting in line, in one script run.
     */
    void subscribed() {
        subscriptions.incrementAndGet();
        List<Request> queued = new ArrayList<>();
        for (Request request : requests.all()) {
            if (request.queued) {
                queued.add(request);
            }
        }
        check(queued);
    }

    /** The acquire's answer put {@code request} in line: asks Redis about it if a re-subscription came meanwhile. */
    void queued(Request request) {
        if (subscriptions.get() != request.subscriptionsAtSend) {
            check(List.of(request));
        }
    }

    private void check(List<Request> queued) {
        if (queued.isEmpty()) {
            return;
        }
        List<String> args = new ArrayList<>();
        args.add("0"); // no leases: those are the heartbeat's
        queued.forEach(request -> args.add(request.id));
        long sent = System.nanoTime();
        try {
            CompletableFuture<List<Object>> answer = instance.script().run("heartbeat",
                    late -> renewed(late, queued, sent), args.toArray(String[]::new)); // a late answer still tells
            answer.whenComplete((reply, failure) -> {
                if (failure != null) {
                    checkFailed(failure);
                } else {
                    renewed(reply, queued, sent);
                }
            });
        } catch (RuntimeException e) { // on Lettuce's thread (a subscription confirmed): nothing may escape there
            checkFailed(e);
        }
    }

    private void checkFailed(Throwable failure) {
        LOG.log(Level.FINE, "Cluster semaphore '" + instance.name() + "': check after re-subscribing failed;"
                + " the heartbeat finds the grants", failure);
    }

    /**
     * Reads the answer of a renewal sent at {@code sent} (System.nanoTime) about the requests {@code queued} then:
     * grants whose message was lost, places renewed, and places Redis dropped.
     */
    void renewed(List<Object> reply, List<Request> queued, long sent) {
        for (Request request : queued) {
            if (sent - request.placeConfirmedNanos > 0) { // renewed, unless listed as gone below; answers may cross
                request.placeConfirmedNanos = sent;
            }
        }
        List<?> granted = (List<?>) reply.get(1);
        Set<String> grantedIds = new HashSet<>();
        for (int i = 0; i + 1 < granted.size(); i += 2) {
            grantedIds.add(granted.get(i).toString());
            Request request = requests.get(granted.get(i).toString());
            if (request != null) {
                requests.granted(request, SemaphoreScript.asLong(granted.get(i + 1)));
            }
        }
        for (Request request : queued) {
            if (!grantedIds.contains(request.id)) {
                request.seenWaitingNanos = sent; // still in line when this renewal ran: any grant comes later
            }
        }
        long size = SemaphoreScript.asLong(reply.get(3));
        for (Object id : (List<?>) reply.get(2)) {
            Request request = requests.get(id.toString());
            if (request != null && request.weight > size) {
                // dropped as one that can never fit (a resize), and its message was lost
                requests.settleByRedis(request, request.orFalse ? null : requests.tooLarge(request.weight));
            } else if (request != null) {
                requests.settleByRedis(request, new SemaphoreUnavailableException("Cluster semaphore '"
                        + instance.name() + "': Redis dropped this request from the line because it did not hear from"
                        + " this instance within " + instance.leaseMillis() + " ms (lease time)", null));
            }
        }
    }
}
