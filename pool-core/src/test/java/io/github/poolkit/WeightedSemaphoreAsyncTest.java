package io.github.poolkit;

import static io.github.poolkit.WeightedSemaphoreCaller.acquireQueued;
import static io.github.poolkit.WeightedSemaphoreCaller.awaitTrue;
import static io.github.poolkit.WeightedSemaphoreTest.assertState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link WeightedSemaphore#acquireAsync(long)}: grants, FIFO order with blocking callers, and withdrawal. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WeightedSemaphoreAsyncTest {

    @Test
    void completesAtOnceWhenThePermitsAreFree() {
        WeightedSemaphore semaphore = new WeightedSemaphore(5);
        CompletableFuture<Permit> future = semaphore.acquireAsync(3);
        assertThat(future).isCompleted();
        Permit permit = future.join();
        assertThat(permit.permits()).isEqualTo(3);
        assertState(semaphore, 3, 0);
        permit.close();
        assertState(semaphore, 0, 0);
    }

    /** The async try answers at once as {@code tryAcquirePermit} does: a permit, or null, never barging. */
    @Test
    void theAsyncTryAnswersAtOnceAsTheTryDoes() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(5);
        CompletableFuture<Permit> granted = semaphore.tryAcquireAsync(3);
        assertThat(granted).isCompleted();
        Permit permit = granted.join();
        assertThat(permit.permits()).isEqualTo(3);
        assertThat(semaphore.tryAcquireAsync(3)).isCompletedWithValue(null); // only 2 free
        assertThat(semaphore.tryAcquireAsync(6)).isCompletedWithValue(null); // more than the size
        assertThatThrownBy(() -> semaphore.tryAcquireAsync(-1)).isInstanceOf(IllegalArgumentException.class);
        assertState(semaphore, 3, 0);
        WeightedSemaphoreCaller waiter = acquireQueued(semaphore, 4, 1);
        assertThat(semaphore.tryAcquireAsync(1)).as("no barging").isCompletedWithValue(null);
        permit.close();
        waiter.join();
        assertState(semaphore, 4, 0);
        semaphore.release(4);
    }

    @Test
    void completesWhenGrantedInFifoOrderWithBlockingCallers() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(2);
        semaphore.acquire(2);
        CompletableFuture<Permit> first = semaphore.acquireAsync(2);
        WeightedSemaphoreCaller second = acquireQueued(semaphore, 1, 2);
        CompletableFuture<Permit> third = semaphore.acquireAsync(1);
        assertThat(first).isNotDone();
        assertState(semaphore, 2, 3);

        semaphore.release(2);
        assertThat(first).isCompleted();
        assertThat(third).isNotDone();
        assertState(semaphore, 2, 2);

        first.join().close();
        assertThat(second.join()).isTrue();
        assertThat(third).isCompleted();
        assertState(semaphore, 2, 0);
    }

    @Test
    void dependentStagesSeeTheReleasersWrites() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        semaphore.acquire(1);
        int[] shared = new int[1]; // deliberately not volatile: visibility comes from release -> grant
        CompletableFuture<Integer> seen = semaphore.acquireAsync(1).thenApplyAsync(permit -> {
            try (permit) {
                return shared[0];
            }
        });
        CompletableFuture.runAsync(() -> {
            shared[0] = 42;
            semaphore.release(1);
        });
        assertThat(seen.join()).isEqualTo(42);
        awaitTrue(() -> semaphore.used() == 0);
    }

    @Test
    void cancellingBeforeTheGrantWithdrawsTheRequest() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        semaphore.acquire(1);
        CompletableFuture<Permit> future = semaphore.acquireAsync(1);
        assertState(semaphore, 1, 1);

        assertThat(future.cancel(false)).isTrue();
        assertState(semaphore, 1, 0);

        semaphore.release(1);
        assertState(semaphore, 0, 0);
        assertThat(future).isCancelled();
    }

    @Test
    void cancellingTheHeadGrantsTheFollowersThatFit() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.acquire(8);
        CompletableFuture<Permit> head = semaphore.acquireAsync(5);
        CompletableFuture<Permit> fits = semaphore.acquireAsync(2);
        CompletableFuture<Permit> doesNotFit = semaphore.acquireAsync(1);

        head.cancel(true);
        assertThat(fits).isCompleted();
        assertThat(doesNotFit).isNotDone();
        assertState(semaphore, 10, 1);

        fits.join().close();
        assertThat(doesNotFit).isCompleted();
        assertState(semaphore, 9, 0);
    }

    @Test
    void cancellingAFollowerChangesNothingElse() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.acquire(10);
        CompletableFuture<Permit> head = semaphore.acquireAsync(5);
        CompletableFuture<Permit> follower = semaphore.acquireAsync(2);

        follower.cancel(false);
        assertState(semaphore, 10, 1);
        assertThat(head).isNotDone();

        semaphore.release(10);
        assertThat(head).isCompleted();
        assertState(semaphore, 5, 0);
    }

    @Test
    void orTimeoutWithdrawsTheRequest() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        semaphore.acquire(1);
        CompletableFuture<Permit> future = semaphore.acquireAsync(1).orTimeout(20, TimeUnit.MILLISECONDS);
        awaitTrue(future::isDone);
        assertThat(future).failsWithin(Duration.ZERO).withThrowableThat().withCauseInstanceOf(TimeoutException.class);
        assertState(semaphore, 1, 0);
    }

    @Test
    void completingTheFutureByOtherMeansWithdrawsTheRequest() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        semaphore.acquire(1);
        CompletableFuture<Permit> future = semaphore.acquireAsync(1);
        future.completeExceptionally(new IllegalStateException("caller gave up"));
        assertState(semaphore, 1, 0);
        semaphore.release(1);
        assertState(semaphore, 0, 0);
    }

    @Test
    void cancellingADerivedStageDoesNotWithdrawTheRequest() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        semaphore.acquire(1);
        CompletableFuture<Permit> future = semaphore.acquireAsync(1);
        future.thenApply(Permit::permits).cancel(false);
        assertState(semaphore, 1, 1);

        semaphore.release(1);
        assertThat(future).isCompleted();
        future.join().close();
        assertState(semaphore, 0, 0);
    }

    @Test
    void zeroWeightWaitsBehindEarlierRequests() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        semaphore.acquire(1);
        CompletableFuture<Permit> one = semaphore.acquireAsync(1);
        CompletableFuture<Permit> zero = semaphore.acquireAsync(0);
        assertThat(zero).isNotDone();
        semaphore.release(1);
        assertThat(one).isCompleted();
        assertThat(zero).isCompleted();
        assertThat(zero.join().permits()).isZero();
    }
    @Test
    void aLongChainOfStagesThatGiveTheirPermitsBackNeverOverflowsTheStack() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        semaphore.acquire(1);
        int waiters = 20_000;
        List<CompletableFuture<Void>> stages = new ArrayList<>(waiters);
        for (int i = 0; i < waiters; i++) {
            // each grant completes its future on the releasing thread, whose stage releases and grants the next
            stages.add(semaphore.acquireAsync(1).thenAccept(Permit::close));
        }
        semaphore.release(1);
        CompletableFuture.allOf(stages.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        assertThat(stages).allSatisfy(stage -> assertThat(stage).isCompleted());
        assertState(semaphore, 0, 0);
    }

    @Test
    void aStageThatWaitsForTheNextGrantStillSeesItWhileWakesNestShallowly() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(1);
        semaphore.acquire(1);
        CompletableFuture<Permit> second = new CompletableFuture<>();
        CompletableFuture<Permit> first = semaphore.acquireAsync(1);
        semaphore.acquireAsync(1).whenComplete((permit, failure) -> second.complete(permit));
        CompletableFuture<Boolean> sawIt = first.thenApply(permit -> {
            permit.close(); // grants the second request, on this thread, at once
            return second.isDone();
        });
        semaphore.release(1);
        assertThat(sawIt.get(10, TimeUnit.SECONDS)).isTrue();
        second.get(10, TimeUnit.SECONDS).close();
        assertState(semaphore, 0, 0);
    }

    /**
     * A blocked caller whose timed wait runs out lets the requests behind it through, but does not run their stages
     * before it returns: that would make its wait last as long as their code.
     */
    @Test
    void aTimedWaitThatRunsOutDoesNotRunTheStagesOfThoseBehindIt() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(3);
        semaphore.acquire(2);
        WeightedSemaphoreCaller head = WeightedSemaphoreCaller.start(
                () -> semaphore.tryAcquire(3, Duration.ofSeconds(1)));
        awaitTrue(() -> semaphore.waiting() == 1);
        CountDownLatch headReturned = new CountDownLatch(1);
        List<Thread> ranOn = new ArrayList<>();
        CompletableFuture<Boolean> stage = closesAfter(semaphore.acquireAsync(1), headReturned, ranOn);
        assertThat(semaphore.waiting()).as("queued behind the head, before its wait runs out").isEqualTo(2);
        try {
            assertThat(head.outcome().get(10, TimeUnit.SECONDS)).isFalse(); // not stuck in the stage
        } finally {
            headReturned.countDown();
        }
        assertThat(stage.get(10, TimeUnit.SECONDS)).as("the stage ran on, after the caller returned").isTrue();
        assertThat(ranOn).singleElement().satisfies(thread -> assertThat(thread.isVirtual()).isTrue());
        semaphore.release(2);
        assertState(semaphore, 0, 0);
    }

    /**
     * An asynchronous head request ended by {@code orTimeout} or {@code completeOnTimeout} is withdrawn on the JDK's
     * one delay thread, which times out every {@code CompletableFuture} of the JVM: the requests its leaving lets
     * through must not have their stages run there (a slow stage would delay every other timeout), but on a virtual
     * thread of their own.
     */
    @Test
    void theStagesOfThoseBehindAnAsyncRequestThatTimesOutDoNotRunOnTheJdksDelayThread() throws Exception {
        assertFollowersWokenOffTheDelayThread(head -> head.orTimeout(20, TimeUnit.MILLISECONDS),
                head -> assertThatThrownBy(head::join).hasCauseInstanceOf(TimeoutException.class));
        assertFollowersWokenOffTheDelayThread(head -> head.completeOnTimeout(null, 20, TimeUnit.MILLISECONDS),
                head -> assertThat(head.join()).as("completed with the fallback value").isNull());
    }

    private static void assertFollowersWokenOffTheDelayThread(
            java.util.function.UnaryOperator<CompletableFuture<Permit>> ending,
            java.util.function.Consumer<CompletableFuture<Permit>> headEnded) throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(3);
        semaphore.acquire(2);
        CompletableFuture<Permit> head = ending.apply(semaphore.acquireAsync(3));
        List<Thread> ranOn = new ArrayList<>();
        CompletableFuture<Boolean> stage = closesAfter(semaphore.acquireAsync(1), new CountDownLatch(0), ranOn);
        assertThat(stage.get(10, TimeUnit.SECONDS)).isTrue();
        headEnded.accept(head);
        assertThat(ranOn).singleElement().satisfies(thread -> assertThat(thread.isVirtual()).isTrue());
        semaphore.release(2);
        assertState(semaphore, 0, 0);
    }

    /**
     * A release that grants an asynchronous request and, behind it, a blocked thread wakes the thread first: a stage
     * of the earlier request that waits for what the thread does once granted does not keep it parked.
     */
    @Test
    void aThreadGrantedBehindAnAsyncRequestIsWokenBeforeItsStagesRun() throws Exception {
        WeightedSemaphore semaphore = new WeightedSemaphore(2);
        semaphore.acquire(2);
        CountDownLatch threadGranted = new CountDownLatch(1);
        CompletableFuture<Boolean> stage = closesAfter(semaphore.acquireAsync(1), threadGranted,
                new ArrayList<>());
        WeightedSemaphoreCaller thread = WeightedSemaphoreCaller.start(() -> {
            semaphore.acquire(1);
            threadGranted.countDown();
            semaphore.release(1);
            return true;
        });
        awaitTrue(() -> semaphore.waiting() == 2);
        semaphore.release(2); // grants both; the stage runs here, waiting for the thread
        assertThat(stage.get(10, TimeUnit.SECONDS)).as("the stage saw the thread's grant").isTrue();
        assertThat(thread.outcome().get(10, TimeUnit.SECONDS)).isTrue();
        assertState(semaphore, 0, 0);
    }

    /**
     * A stage that, once granted, notes its thread, waits (bounded) for {@code latch} and closes its permit.
     *
     * @return the stage, completed with whether the latch was counted down in time
     */
    private static CompletableFuture<Boolean> closesAfter(CompletableFuture<Permit> request, CountDownLatch latch,
            List<Thread> ranOn) {
        return request.thenApply(permit -> {
            ranOn.add(Thread.currentThread());
            try {
                return latch.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                permit.close();
            }
        });
    }

    /**
     * A wake that throws (a listener's {@link VirtualMachineError}, which the semaphore does not swallow) does not
     * leave the rest of its batch granted but never told.
     */
    @Test
    void aWakeThatThrowsStillWakesTheRestOfItsBatch() throws Exception {
        AtomicBoolean thrown = new AtomicBoolean();
        WeightedSemaphore semaphore = new WeightedSemaphore(2, (n, waitedNanos, outcome) -> {
            if (n == 1 && !thrown.getAndSet(true)) { // the first of the two granted by the release below
                throw new StackOverflowError("listener");
            }
        });
        semaphore.acquire(2);
        CompletableFuture<Permit> first = semaphore.acquireAsync(1);
        CompletableFuture<Permit> second = semaphore.acquireAsync(1);
        assertThatThrownBy(() -> semaphore.release(2)).isInstanceOf(StackOverflowError.class);
        assertThat(first).isCompleted();
        assertThat(second).as("woken although the first wake threw").isCompleted();
        first.join().close();
        second.join().close();
        assertState(semaphore, 0, 0);
    }

    /**
     * Wakes queued once they nest 32 deep are each run, whatever one of them throws: one that throws (a listener's
     * {@link VirtualMachineError}) does not leave the rest granted but never told.
     */
    @Test
    void aDeepWakeThatThrowsStillLetsTheQueuedOnesRun() throws Exception {
        AtomicInteger grants = new AtomicInteger();
        WeightedSemaphore semaphore = new WeightedSemaphore(1, (n, waitedNanos, outcome) -> {
            // a grant is reported after its stage returns, so the deepest first: the 1st is the acquire below, the
            // 2nd the grant 32 deep, the 3rd on those queued and run after it; the 10th is one of those
            if (outcome == SemaphoreListener.AcquireOutcome.ACQUIRED && grants.incrementAndGet() == 10) {
                throw new StackOverflowError("listener");
            }
        });
        semaphore.acquire(1); // the first grant
        int waiters = 60;
        List<CompletableFuture<Permit>> futures = new ArrayList<>(waiters);
        for (int i = 0; i < waiters; i++) {
            CompletableFuture<Permit> future = semaphore.acquireAsync(1);
            future.thenAccept(Permit::close); // each grant's stage gives the permit back, granting the next
            futures.add(future);
        }
        semaphore.release(1);
        assertThat(futures).allSatisfy(future -> assertThat(future).isCompleted());
        assertState(semaphore, 0, 0);
    }

    /**
     * A request its caller cancels has left the line when the future's stages run: a stage that takes permits on
     * the same semaphore finds them as they are without it (before, the request still headed the line then, so a try
     * was refused and a blocking acquire waited behind it on the very thread that was to withdraw it).
     */
    @Test
    void aCancelledRequestHasLeftTheLineWhenItsStagesRun() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.acquire(6);
        CompletableFuture<Permit> future = semaphore.acquireAsync(8);
        AtomicInteger waitingSeen = new AtomicInteger(-1);
        AtomicBoolean triedAndGot = new AtomicBoolean();
        future.whenComplete((permit, failure) -> {
            waitingSeen.set(semaphore.waiting());
            triedAndGot.set(semaphore.tryAcquire(2));
        });

        assertThat(future.cancel(false)).isTrue();

        assertThat(waitingSeen.get()).isZero();
        assertThat(triedAndGot.get()).isTrue();
        assertState(semaphore, 8, 0);
    }

    /** The same for a request whose caller's time ran out ({@code orTimeout}): its fallback may acquire and wait. */
    @Test
    void aTimedOutRequestsFallbackCanAcquireOnTheSameSemaphore() throws InterruptedException {
        WeightedSemaphore semaphore = new WeightedSemaphore(10);
        semaphore.acquire(6);
        CompletableFuture<Long> fallback = semaphore.acquireAsync(8).orTimeout(20, TimeUnit.MILLISECONDS)
                .handle((permit, failure) -> {
                    try {
                        semaphore.acquire(2); // waits in line: must not wait behind the request that timed out
                        return semaphore.used();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
        assertThat(fallback).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(8L);
        assertState(semaphore, 8, 0);
    }

    /** The wait a listener hears of for an asynchronous grant ends at the grant, not after the stages it ran. */
    @Test
    void anAsynchronousGrantsWaitLeavesOutItsStages() throws Exception {
        List<Long> waits = new java.util.concurrent.CopyOnWriteArrayList<>();
        WeightedSemaphore semaphore = new WeightedSemaphore(1, (n, waitedNanos, outcome) -> waits.add(waitedNanos));
        semaphore.acquire(1);
        long[] stageNanos = new long[1];
        CompletableFuture<Void> staged = semaphore.acquireAsync(1).thenAccept(permit -> {
            long start = System.nanoTime();
            long end = start + TimeUnit.MILLISECONDS.toNanos(300); // a slow stage: time passes on its own thread
            while (System.nanoTime() < end) {
                java.util.concurrent.locks.LockSupport.parkNanos(end - System.nanoTime());
            }
            stageNanos[0] = System.nanoTime() - start;
            permit.close();
        });
        semaphore.release(1);
        staged.get(10, TimeUnit.SECONDS);
        assertThat(waits).hasSize(2);
        assertThat(waits.get(1)).as("the wait, not the stage's 300 ms").isLessThan(stageNanos[0]);
    }
}
