package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.resilience.annotation.ConcurrencyLimit;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;

/**
 * {@code @Permits} among other advice of the same bean. With {@code @Transactional}, the permits are taken before the
 * transaction begins and released after it ends: a call waiting for permits holds no connection, and a refused call
 * starts no transaction. With {@code @Async}, they are taken on the executor's thread and held while the method runs,
 * whichever post-processor comes first.
 */
@Timeout(30)
class PermitsAmongOtherAdviceTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class, PermitsAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphores.db.size=4").withUserConfiguration(Transactions.class)
            .withBean(Orders.class);

    @Test
    void thePermitsAreHeldForTheWholeTransaction() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            RecordingTransactions transactions = context.getBean(RecordingTransactions.class);
            assertThat(orders.place()).as("ran inside a transaction").isTrue();
            assertThat(transactions.usedAtBegin).as("permits held when the transaction began").containsExactly(3L);
            assertThat(transactions.usedAtEnd).as("permits held when it committed").containsExactly(3L);
            assertThat(context.getBean("db", WeightedSemaphore.class).used()).isZero();
        });
    }

    @Test
    void aRefusedCallStartsNoTransaction() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            RecordingTransactions transactions = context.getBean(RecordingTransactions.class);
            WeightedSemaphore db = context.getBean("db", WeightedSemaphore.class);
            db.acquire(2);
            assertThatExceptionOfType(PoolOverloadException.class).isThrownBy(orders::place);
            assertThat(transactions.usedAtBegin).as("transactions begun").isEmpty();
            db.release(2);
        });
    }

    @Test
    void anAsyncMethodHoldsItsPermitsWhileItRunsOnTheExecutor() {
        runner.withUserConfiguration(Asynchronous.class).withBean(Reports.class).run(context -> {
            Reports reports = context.getBean(Reports.class);
            WeightedSemaphore db = context.getBean("db", WeightedSemaphore.class);
            reports.render(db); // returns at once: the method runs on the executor
            assertThat(reports.usedInside().get(10, TimeUnit.SECONDS)).as("permits held inside").isEqualTo(2);
            assertThat(reports.thread()).isNotEqualTo(Thread.currentThread().getName());
            assertThat(db.used()).as("still held while it runs").isEqualTo(2);
            reports.letGo();
            Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> db.used() == 0);
        });
    }

    @Test
    void anAsyncMethodWithSpringsConcurrencyLimitToo() {
        runner.withUserConfiguration(Asynchronous.class, Resilient.class).withBean(LimitedReports.class)
                .run(context -> {
                    LimitedReports reports = context.getBean(LimitedReports.class);
                    WeightedSemaphore db = context.getBean("db", WeightedSemaphore.class);
                    reports.render(db);
                    assertThat(reports.usedInside().get(10, TimeUnit.SECONDS)).as("held inside").isEqualTo(2);
                    assertThat(db.used()).as("still held while it runs").isEqualTo(2);
                    reports.letGo();
                    Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> db.used() == 0);
                });
    }

    @Test
    void anAsyncTransactionalMethodTakesItsPermitsOnTheExecutorBeforeTheTransaction() {
        runner.withUserConfiguration(Asynchronous.class).withBean(AsyncOrders.class).run(context -> {
            AsyncOrders orders = context.getBean(AsyncOrders.class);
            RecordingTransactions transactions = context.getBean(RecordingTransactions.class);
            assertThat(orders.place().get(10, TimeUnit.SECONDS)).as("ran inside a transaction").isTrue();
            assertThat(transactions.usedAtBegin).as("permits held when the transaction began").containsExactly(3L);
            Awaitility.await().atMost(10, TimeUnit.SECONDS)
                    .until(() -> context.getBean("db", WeightedSemaphore.class).used() == 0);
        });
    }

    @Test
    void aProxyPostProcessedAgainIsGuardedOnce() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class,
                        PermitsAutoConfiguration.class))
                .withPropertyValues("poolkit.semaphores.db.size=4").withUserConfiguration(SameBeanTwice.class)
                .run(context -> {
                    Orders again = context.getBean("again", Orders.class);
                    assertThat(again).isSameAs(context.getBean("orders", Orders.class));
                    assertThat(again.place()).as("3 of 4 permits, taken once").isFalse();
                });
    }

    /** A bean returned again by another {@code @Bean} method: post-processed twice. */
    @Configuration(proxyBeanMethods = false)
    static class SameBeanTwice {

        @Bean
        Orders orders() {
            return new Orders();
        }

        @Bean
        Orders again(Orders orders) {
            return orders;
        }
    }

    /** {@code @Async} support, registered, as an application's is, before the auto-configured post-processors. */
    @Configuration(proxyBeanMethods = false)
    @EnableAsync
    static class Asynchronous {
    }

    /**
     * Asynchronous and guarded: records what it sees inside, then waits to be let go. Read through its methods: its
     * proxy has fields of its own.
     */
    static class Reports {

        private final CompletableFuture<Long> usedInside = new CompletableFuture<>();
        private final AtomicReference<String> thread = new AtomicReference<>();
        private final CountDownLatch release = new CountDownLatch(1);

        public CompletableFuture<Long> usedInside() {
            return usedInside;
        }

        public String thread() {
            return thread.get();
        }

        public void letGo() {
            release.countDown();
        }

        @Async
        @Permits(value = "db", weight = "2")
        public void render(WeightedSemaphore db) throws InterruptedException {
            thread.set(Thread.currentThread().getName());
            usedInside.complete(db.used());
            release.await(10, TimeUnit.SECONDS);
        }
    }

    /** Spring's resilience annotations, registered after {@code @Async} support. */
    @Configuration(proxyBeanMethods = false)
    @EnableResilientMethods
    static class Resilient {
    }

    /** As {@link Reports}, with Spring's concurrency limit too: the permits are held inside {@code @Async}. */
    static class LimitedReports extends Reports {

        @Override
        @Async
        @ConcurrencyLimit(4)
        @Permits(value = "db", weight = "2")
        public void render(WeightedSemaphore db) throws InterruptedException {
            super.render(db);
        }
    }

    /** Asynchronous, transactional and guarded. */
    static class AsyncOrders {

        @Async
        @Transactional
        @Permits(value = "db", weight = "3")
        public CompletableFuture<Boolean> place() {
            return CompletableFuture.completedFuture(TransactionSynchronizationManager.isActualTransactionActive());
        }
    }

    /** Transactions through a manager that records how many permits of "db" were held at its begin and commit. */
    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    static class Transactions {

        @Bean
        RecordingTransactions transactionManager(BeanFactory beans) {
            return new RecordingTransactions(() -> beans.getBean("db", WeightedSemaphore.class).used());
        }
    }

    /** A transaction manager with no resource: it records the permits held at each begin and commit. */
    static final class RecordingTransactions extends AbstractPlatformTransactionManager {

        private static final long serialVersionUID = 1L;

        private final transient LongSupplier used;
        final List<Long> usedAtBegin = new ArrayList<>();
        final List<Long> usedAtEnd = new ArrayList<>();

        RecordingTransactions(LongSupplier used) {
            this.used = used;
        }

        @Override
        protected Object doGetTransaction() {
            return new Object();
        }

        @Override
        protected void doBegin(Object transaction, TransactionDefinition definition) {
            usedAtBegin.add(used.getAsLong());
        }

        @Override
        protected void doCommit(DefaultTransactionStatus status) {
            usedAtEnd.add(used.getAsLong());
        }

        @Override
        protected void doRollback(DefaultTransactionStatus status) {
            usedAtEnd.add(used.getAsLong());
        }
    }

    /** Transactional and guarded: a call tells whether it ran inside a transaction. */
    static class Orders {

        @Transactional
        @Permits(value = "db", weight = "3")
        public boolean place() {
            return TransactionSynchronizationManager.isActualTransactionActive();
        }
    }
}
