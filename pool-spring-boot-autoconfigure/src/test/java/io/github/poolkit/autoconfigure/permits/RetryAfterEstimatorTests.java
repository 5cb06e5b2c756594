package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

import io.github.poolkit.PoolOptions;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.WorkerPool;
import io.github.poolkit.autoconfigure.PoolTaskListeners;

/** The Retry-After estimate, from samples fed in (no clocks): formula, rounding, bounds, and the refusal's source. */
@Timeout(30)
class RetryAfterEstimatorTests {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void isOneSecondWhenNothingWasMeasuredOrTheSourceIsUnknown() {
        RetryAfterEstimator estimator = new RetryAfterEstimator(null, null);
        assertThat(estimator.retryAfterSeconds(new PoolOverloadException("from elsewhere"))).isEqualTo(1);
        WeightedSemaphore gpu = new WeightedSemaphore(10);
        PoolOverloadException refused = new PoolOverloadException("refused");
        estimator.refusedBySemaphore(refused, gpu, 5);
        assertThat(estimator.retryAfterSeconds(refused)).isEqualTo(1);
        assertThat(estimator.estimateBlocks(refused)).as("a local semaphore is read without blocking").isFalse();
    }

    @Test
    void roundsUpToWholeSecondsWithinOneAndSixty() {
        assertThat(RetryAfterEstimator.seconds(-1, 10)).isEqualTo(1);
        assertThat(RetryAfterEstimator.seconds(0, 10)).isEqualTo(1);
        assertThat(RetryAfterEstimator.seconds(SECOND / 10, 1)).isEqualTo(1);
        assertThat(RetryAfterEstimator.seconds(SECOND + 1, 1)).isEqualTo(2);
        assertThat(RetryAfterEstimator.seconds(SECOND, 2.5)).isEqualTo(3);
        assertThat(RetryAfterEstimator.seconds(SECOND, 1000)).isEqualTo(60);
    }

    @Test
    void aRefusalKeepsItsSourceAcrossGarbageCollectionsWhileItsExceptionLives() {
        RetryAfterEstimator estimator = new RetryAfterEstimator(null, null);
        WeightedSemaphore gpu = new WeightedSemaphore(10);
        estimator.holdTimes(gpu).record(10 * SECOND);
        PoolOverloadException refused = new PoolOverloadException("refused");
        estimator.refusedBySemaphore(refused, gpu, 10);
        for (int i = 0; i < 3; i++) {
            System.gc(); // a map that held its entries (not its keys) weakly lost the source here: 1 s instead of 10
            assertThat(estimator.retryAfterSeconds(refused)).isEqualTo(10);
        }
    }

    @Test
    void aSemaphoreTurnsOverTheWeightAskedForByTheLineAndTheRefusedRequest() throws Exception {
        RetryAfterEstimator estimator = new RetryAfterEstimator(null, null);
        WeightedSemaphore gpu = new WeightedSemaphore(10);
        estimator.holdTimes(gpu).record(2 * SECOND);
        estimator.holdTimes(gpu).record(4 * SECOND); // mean 3 s
        PoolOverloadException refused = new PoolOverloadException("refused");
        estimator.refusedBySemaphore(refused, gpu, 6);
        assertThat(estimator.retryAfterSeconds(refused)).isEqualTo(2); // 3 s x 1 x 6/10 = 1.8 s
        gpu.acquire(10);
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                gpu.acquire(6);
                gpu.release(6);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            org.awaitility.Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> gpu.waiting() == 1);
            assertThat(estimator.retryAfterSeconds(refused)).isEqualTo(4); // 3 s x 2 x 6/10 = 3.6 s
        }
        finally {
            gpu.release(10);
            waiter.join();
        }
    }

    @Test
    void aPoolPoolkitCreatedWorksOffTheTasksAheadOnItsWorkers() throws Exception {
        PoolTaskListeners listeners = new PoolTaskListeners();
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        try (WorkerPool reports = WorkerPool.create(2, PoolOptions.builder().name("reports").nonblocking(true)
                .listener(listeners.listenerFor("reports")).build())) {
            beans.addBean("reports", reports);
            RetryAfterEstimator estimator = new RetryAfterEstimator(beans, listeners);
            estimator.afterSingletonsInstantiated();
            // the run times the pool reports, fed in as the pool would (its tasks here take no time)
            listeners.listenerFor("reports").taskFinished(0, 5 * SECOND, null);
            listeners.listenerFor("reports").taskFinished(0, 7 * SECOND, null);
            CountDownLatch release = new CountDownLatch(1);
            for (int i = 0; i < 2; i++) {
                reports.execute(() -> await(release));
            }
            try {
                PoolOverloadException refused = catchThrowableOfType(PoolOverloadException.class,
                        () -> reports.execute(() -> { }));
                // mean run time 6 s x (0 waiting + 1) / 2 workers
                assertThat(estimator.retryAfterSeconds(refused)).isEqualTo(3);
                assertThat(estimator.retryAfterSeconds(new PoolOverloadException("another"))).isEqualTo(1);
            }
            finally {
                release.countDown();
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
