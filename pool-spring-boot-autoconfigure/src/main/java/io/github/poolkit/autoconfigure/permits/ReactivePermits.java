package io.github.poolkit.autoconfigure.permits;

import java.util.concurrent.Executor;

import org.reactivestreams.Publisher;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Holds a guarded method's permits while the {@link Mono} or {@link Flux} it returned runs: from each subscription
 * until that subscription completes, errors or is cancelled (each subscription holds its own). Only this class
 * refers to Reactor, and it is loaded only when Reactor is on the class path.
 *
 * <p>A subscription first waits for the permits ({@link PermitLease}: no thread blocked), then subscribes to the
 * method's publisher. The permits are back before the end goes on downstream (a {@code Mono}'s before its value; for
 * a semaphore shared through a store, once the release's round trip has ended, so that end then comes on the thread
 * that closed them), so that what the end triggers, a {@code retry}, a {@code repeat} or a call chained with
 * {@code flatMap}, finds them free; {@code doFinally}, outermost, releases them on a cancel, also while the
 * subscription still waits (a lease releases once, whichever comes first). When a subscription had to wait, the
 * method's publisher is subscribed on Reactor's parallel scheduler (as after {@code delay} or {@code timeout}), not on
 * the thread whose release granted the permits.
 */
final class ReactivePermits {

    private static final Executor CONTINUATION = task -> Schedulers.parallel().schedule(task);

    /** Where the permits of a semaphore shared through a store are closed: a round trip, so on a blocking thread. */
    private static final Executor CLOSER = task -> Schedulers.boundedElastic().schedule(task);

    private ReactivePermits() {
    }

    /**
     * @param result what the method returned: a {@code Mono}, a {@code Flux} or another {@code Publisher}
     * @param guard  the method's guard
     * @param weight this call's weight
     * @return a publisher of the same kind that holds the permits while each subscription runs
     */
    @SuppressWarnings("unchecked")
    static Object guard(Object result, PermitsGuard guard, long weight) {
        if (result instanceof Mono<?> mono) {
            return Mono.defer(() -> {
                PermitLease lease = new PermitLease(guard, weight, CONTINUATION, CLOSER);
                // the value, the empty end or the error, held back until the permits are back
                return permits(lease).then((Mono<Object>) mono).materialize()
                        .flatMap(end -> released(lease).thenReturn(end)).dematerialize()
                        .doFinally(signal -> lease.release());
            });
        }
        Flux<Object> flux = Flux.from((Publisher<Object>) result);
        return Flux.defer(() -> {
            PermitLease lease = new PermitLease(guard, weight, CONTINUATION, CLOSER);
            // the values go on as they come; the end, once the permits are back
            return permits(lease).thenMany(flux).concatWith(released(lease))
                    .onErrorResume(failure -> released(lease).then(Mono.error(failure)))
                    .doFinally(signal -> lease.release());
        });
    }

    /** @return releases the lease when subscribed, and completes once its permits are back (never with an error) */
    private static Mono<Void> released(PermitLease lease) {
        return Mono.fromFuture(lease::releaseAndAwait, true);
    }

    /** @return completes once the lease holds the permits; errors when they do not come */
    private static Mono<Void> permits(PermitLease lease) {
        return Mono.create(sink -> lease.start(new PermitLease.Outcome() {

            @Override
            public void granted() {
                sink.success();
            }

            @Override
            public void failed(Throwable failure) {
                sink.error(failure);
            }
        }));
    }
}
