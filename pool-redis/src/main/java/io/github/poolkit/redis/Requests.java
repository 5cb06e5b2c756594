package io.github.poolkit.redis;

import io.github.poolkit.Permit;
import io.github.poolkit.SemaphoreListener;
import io.github.poolkit.SemaphoreListener.AcquireOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * The request table: every request of this instance from the moment its acquire script is sent until its result
 * settles, and what settles it (Redis's answer, a grant told by message or heartbeat, or the caller giving up).
 *
 * <p>Invariants:
 * <ul>
 *   <li>A request is in the table before its acquire script is sent, so a grant message that overtakes the script's
 *       answer still finds it; it leaves when its result settles, exactly once (see {@link Request}).</li>
 *   <li>A grant's lease is added to {@link Leases} before the request's result completes with it; if the result was
 *       settled first (the caller gave up), the lease is removed again and the request's cancel returns it.</li>
 *   <li>A request that ends without a permit, unless Redis said it holds nothing for it, sends exactly one cancel
 *       script (plus one more if the acquire's answer came after the give-up), which withdraws its place or gives
 *       back a grant that lost the race: no permit stays held by nobody.</li>
 *   <li>The acquire's request id is its operation id: an acquire that Lettuce sends twice is counted once by Redis
 *       and answers with what the first run did (see "Operation ids" in semaphore.lua).</li>
 * </ul>
 */
final class Requests {

    private static final Logger LOG = Logger.getLogger(RedisPermitSemaphore.class.getName());

    /** Marker result of a granted handle-less request (its lease is in {@link Leases}). */
    static final Permit HANDLE_LESS = Permit.of(0, Permit.NO_FENCING_TOKEN, () -> { });

    private final Instance instance;
    private final Leases leases;
    private final OutcomeReport reports;
    private final ConcurrentHashMap<String, Request> table = new ConcurrentHashMap<>();
    private final WaitingChecks checks;
    /**
     * Why requests are refused, or null: set by {@link #withdrawAll} before it walks the table. A Dekker pair with
     * {@link #send}, which puts its request in the table, then reads this: a request sent during a close is failed by
     * the walk or fails unsent, never left waiting for a grant that no closed connection or stopped heartbeat tells.
     */
    private volatile String refusal;

    Requests(Instance instance, Leases leases, SemaphoreListener listener) {
        this.instance = instance;
        this.leases = leases;
        this.reports = new OutcomeReport(instance, listener);
        this.checks = new WaitingChecks(instance, this);
    }

    /** {@return what reads Redis's word on the requests waiting in line (renewals, re-subscriptions)} */
    WaitingChecks checks() {
        return checks;
    }

    /** {@return the requests not yet settled (a weakly consistent view)} */
    Collection<Request> all() {
        return table.values();
    }

    /** {@return the unsettled request of that id, or null} */
    Request get(String id) {
        return table.get(id);
    }

    /**
     * Registers a new request, then sends its acquire script; the answer (or a grant message) settles it.
     *
     * @param mode "wait" (queue when it does not fit) or "try" (refuse)
     */
    Request send(long n, boolean orFalse, boolean handleLess, boolean async, String mode) {
        Request request = new Request(instance.nextId(), n, orFalse, handleLess, async, !async && mode.equals("wait"));
        request.subscriptionsAtSend = checks.subscriptions();
        table.put(request.id, request);
        request.result.whenComplete((permit, failure) -> settled(request, permit, failure));
        String refused = refusal;
        if (refused != null) {
            request.nothingHeld = true; // never sent: nothing to cancel
            giveUp(request, new ClosedSemaphoreException(instance.name(), refused));
            request.answered.complete(null);
            return request;
        }
        String weight = Long.toString(request.weight);
        CompletableFuture<List<Object>> answer;
        try {
            answer = instance.script().run("acquire", late -> withdrawLate(request, late), request.id, weight, mode);
        } catch (RuntimeException | Error e) { // a bug or an exhausted JVM: settle it (its cancel withdraws it if sent)
            giveUp(request, new SemaphoreUnavailableException("Cluster semaphore '" + instance.name()
                    + "': the acquire could not be sent", e));
            request.answered.complete(null);
            throw e;
        }
        answer.whenComplete((reply, failure) -> {
            try {
                answered(request, reply, failure);
            } finally {
                request.answered.complete(null);
            }
        });
        return request;
    }

    /** Settles a request, or records its place in line, by the acquire's answer (or its failure). */
    private void answered(Request request, List<Object> reply, Throwable failure) {
        if (failure != null) {
            giveUp(request, (RuntimeException) SemaphoreScript.unwrap(failure)); // Redis may still run it
            return;
        }
        long status = SemaphoreScript.asLong(reply.get(0));
        if ((status == 1 || status == 2) && request.withdrawn) {
            // The caller gave up (or the semaphore closed) before this answer came, and its cancel went out then.
            // That cancel ran after this acquire (one connection keeps the order) unless Redis had lost the script
            // (this acquire was sent again whole once its first try failed, maybe behind the cancel) or the close
            // failed the request while this acquire was on its way out (sent after the cancel). Withdrawing once
            // more, now that Redis has run it, returns what it holds in every case.
            request.withdrawal = instance.script().run("cancel", request.id);
        }
        if (status == 1) {
            granted(request, SemaphoreScript.asLong(reply.get(1)));
        } else if (status == 2) {
            request.ticket = SemaphoreScript.asLong(reply.get(1));
            request.placeConfirmedNanos = System.nanoTime();
            request.queued = true;
            checks.queued(request); // a grant message lost to a reconnect since it was sent is looked for
        } else if (status == 0 || request.orFalse) {
            settleByRedis(request, null);
        } else {
            settleByRedis(request, tooLarge(request.weight));
        }
    }

    /**
     * An acquire Redis ran after its call timed out, so after the request gave up, maybe after its cancel (sent again
     * after NOSCRIPT, it goes out behind it): what it left would be held by nobody until it expired; withdraw it now.
     */
    private void withdrawLate(Request request, List<Object> reply) {
        long status = SemaphoreScript.asLong(reply.get(0));
        // not a request that got its grant by message meanwhile (a re-sent acquire answers from its live lease)
        if ((status == 1 || status == 2) && request.withdrawn) {
            instance.script().run("cancel", request.id);
        }
    }

    /** {@return whether {@code n} permits were taken now, without waiting (tryAcquire)} */
    boolean tryNow(long n) {
        return tryNow(n, true) != null;
    }

    /**
     * {@return the permit of {@code n} permits taken now, without waiting, or null} {@code handleLess}: held without a
     * lease of their own (tryAcquire), the permit then only a sign of the grant; else by one (tryAcquirePermit).
     */
    Permit tryNow(long n, boolean handleLess) {
        // not interruptible (see Instance.call): its answer alone tells whether it holds permits to return
        return instance.call(send(n, true, handleLess, false, "try").result);
    }

    /**
     * The timed try forms, waiting at most {@code timeout} in the cluster-wide line; {@code handleLess}: with no lease
     * of their own, given back by {@code release(n)} (the permit returned is then only a sign of the grant).
     */
    Permit tryFor(long n, Duration timeout, boolean handleLess) throws InterruptedException {
        Checks.weight(n);
        Checks.notInterrupted();
        long timeoutNanos = Checks.timeoutNanos(timeout);
        if (timeoutNanos <= 0) {
            return tryNow(n, handleLess);
        }
        return await(send(n, true, handleLess, false, "wait"), timeoutNanos);
    }

    /**
     * On close or pause: fails every unsettled request, and refuses new ones, saying {@code why}; then waits, at most
     * the command timeout each, for the answers of their acquires (one sent during a close may reach Redis after its
     * cancel: its answer sends the cancel again, see {@link #answered}), then for Redis to confirm their withdrawals.
     * So once it returns, Redis holds nothing for them unless it did not answer in time. An interrupt ends the waits.
     */
    void withdrawAll(String why) {
        refusal = why;
        List<Request> open = new ArrayList<>(table.values());
        for (Request request : open) {
            // here, on the closing thread (not through the executor): its withdrawal must be sent before the wait
            request.result.completeExceptionally(new ClosedSemaphoreException(instance.name(), why));
        }
        if (awaitAll(open.stream().map(request -> request.answered), "answers of acquires")) {
            awaitAll(open.stream().<CompletableFuture<?>>map(request -> request.withdrawal).filter(Objects::nonNull),
                    "withdrawals");
        }
    }

    /** {@return false if interrupted (the interrupt status is kept), else true, finished in time or not} */
    private boolean awaitAll(Stream<CompletableFuture<?>> calls, String what) {
        try {
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                    .get(instance.commandTimeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(Level.FINE, "Cluster semaphore '" + instance.name() + "': " + what + " on close did not finish", e);
        }
        return true;
    }

    /**
     * Waits for a blocking request; on timeout or interrupt withdraws it and waits for the withdrawal.
     *
     * @param timeoutNanos the longest wait, or negative for none
     */
    Permit await(Request request, long timeoutNanos) throws InterruptedException {
        Permit permit;
        try {
            permit = timeoutNanos < 0 ? request.result.get() : request.result.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw Instance.rethrow(e);
        } catch (TimeoutException e) {
            giveUp(request, new OutcomeReport.GaveUp(AcquireOutcome.TIMEOUT));
            permit = outcomeAfterGivingUp(request);
        } catch (InterruptedException e) {
            giveUp(request, new OutcomeReport.GaveUp(AcquireOutcome.INTERRUPTED));
            try {
                Permit won = outcomeAfterGivingUp(request);
                if (won != null) {
                    // as the caller hears it, even if the release fails
                    reports.tell(request, AcquireOutcome.INTERRUPTED);
                    giveBack(request, won); // the grant won the race with the interrupt: nothing may stay held
                }
            } catch (RuntimeException ignored) {
                // the interrupt is what the caller must hear of; a grant Redis could not take back expires
            }
            throw e;
        }
        if (permit != null) {
            reports.tell(request, AcquireOutcome.ACQUIRED); // told here, not when it settled (see Request.awaited)
        }
        return permit;
    }

    /**
     * Ends the request without a permit unless it settled already (the first completion wins): an asynchronous one on
     * the completions executor ({@link #completeAsAsked}), since this may run on Redis's I/O thread, Lettuce's timer
     * or the heartbeat, where the caller's dependent stages must never run.
     */
    void giveUp(Request request, RuntimeException why) {
        completeAsAsked(request, () -> request.result.completeExceptionally(why));
    }

    /**
     * A grant from Redis (the acquire's answer, a grant message or the heartbeat; a grant may be told twice): records
     * the lease, then hands it to the request unless the request already ended.
     */
    void granted(Request request, long token) {
        if (request.handleLess && request.weight == 0) {
            // nothing to hold: give the empty lease straight back (if the request gave up, its cancel does)
            if (request.result.complete(HANDLE_LESS)) {
                instance.script().runOperation("release", instance.nextId(), request.id, Long.toString(token));
            }
            return;
        }
        // Redis granted it after the acquire, or the last renewal that found it still in line, was sent: its lease
        // lasts a lease time from then at least (not from now: a grant told by a late message or renewal is older)
        Lease lease = new Lease(request, token, request.seenWaitingNanos, instance.completions());
        if (request.result.isDone() || !leases.add(lease)) {
            return; // told twice (message and heartbeat), or the request gave up: its cancel returns the lease
        }
        Permit permit = request.handleLess ? HANDLE_LESS
                : Permit.of(request.weight, token, () -> leases.release(lease), lease.lost);
        Runnable complete = () -> {
            if (!request.result.complete(permit)) {
                leases.remove(lease); // the request gave up first; its cancel script returns the lease
            }
        };
        completeAsAsked(request, complete);
    }

    /** Redis settled the request and holds nothing for it (refused, too large, dropped from the line). */
    void settleByRedis(Request request, Throwable failure) {
        request.nothingHeld = true;
        Runnable complete = () -> {
            if (failure == null) {
                request.result.complete(null);
            } else {
                request.result.completeExceptionally(failure);
            }
        };
        completeAsAsked(request, complete);
    }

    /**
     * Completes a request on the completions executor if it is asynchronous, else here; inline too when the executor
     * refuses or throws (shut down, full, broken), as a lost lease's signal does: a result never completed would leave
     * its caller waiting forever and its grant held, and renewed, by nobody. The completion runs once even when an
     * executor threw after it had taken it (a run that finds the result completed gives its grant up: a second run
     * would give up the lease of the permit the first handed over).
     */
    private void completeAsAsked(Request request, Runnable complete) {
        if (!request.async) {
            complete.run();
            return;
        }
        AtomicBoolean ran = new AtomicBoolean();
        Runnable once = () -> {
            if (ran.compareAndSet(false, true)) {
                complete.run();
            }
        };
        try {
            instance.completions().execute(once);
        } catch (RuntimeException | Error e) { // refused, or broken (maybe after taking it): here, once
            once.run();
        }
    }

    /** Takes requests again after {@link #withdrawAll}: the semaphore resumed, its script sending again. */
    void reopen() {
        refusal = null;
    }

    /** {@return the failure of a request for more permits than the size} */
    IllegalArgumentException tooLarge(long n) {
        return new IllegalArgumentException("Cluster semaphore '" + instance.name() + "': cannot acquire " + n
                + " permits, more than its size; it could never succeed. Ask for at most size() permits or resize it");
    }

    /** Releases a grant its caller will never see. */
    private void giveBack(Request request, Permit permit) {
        if (permit != HANDLE_LESS) {
            permit.close();
            return;
        }
        Lease lease = leases.get(request.id);
        if (lease != null) {
            leases.release(lease);
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
            if (!(cause instanceof OutcomeReport.GaveUp) && cause instanceof RuntimeException r) {
                throw r; // Redis did not answer, or refused the request
            }
            CompletableFuture<?> withdrawal = request.withdrawal;
            if (withdrawal != null) {
                withdrawal.get(); // ends within the command timeout
            }
            return null;
        } catch (ExecutionException e) {
            throw new SemaphoreUnavailableException("Cluster semaphore '" + instance.name() + "': Redis did not"
                    + " answer within " + instance.commandTimeout().toMillis() + " ms (command timeout) after the"
                    + " request gave up; nothing is held (what Redis runs late is withdrawn, or expires after the lease"
                    + " time)", SemaphoreScript.unwrap(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Runs once per request, when its result settles: a request that ended without a permit, unless Redis said it
     * holds nothing for it, is withdrawn by a cancel script (which also returns a grant that lost the race).
     */
    private void settled(Request request, Permit permit, Throwable failure) {
        table.remove(request.id, request);
        if (permit == null && !request.nothingHeld) {
            leases.remove(request.id);
            request.withdrawn = true; // first: an acquire's answer that reads false was in before this cancel left
            request.withdrawal = instance.script().run("cancel", request.id);
        }
        if (permit == null || !request.awaited) { // an awaited grant is told by its caller (see Request.awaited)
            reports.tell(request, OutcomeReport.of(permit, failure));
        }
    }
}
