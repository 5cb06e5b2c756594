package io.github.poolkit.autoconfigure.permits;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;

import io.github.poolkit.Permit;
import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.annotation.Permits;

/**
 * One guarded method's parsed {@link Permits}: its semaphore, weight expression and wait, with the acquire and
 * release every form of the method (plain, {@code CompletionStage}, reactive) shares, and the refusals they raise.
 *
 * <p>Every refusal is a {@link PoolOverloadException} whose message names the weight, the semaphore, the wait, the
 * reason and the method; it is reported to the {@link RetryAfterEstimator} so that a {@code 429} can say when to
 * retry. Every release records how long the permits were held, from which that estimate is made.
 *
 * @param where          "@Permits on Type.method", for messages
 * @param semaphoreName  the semaphore's bean name (the primary one's too, where the bean factory can tell it)
 * @param semaphore      the semaphore
 * @param weightExpression the weight, parsed
 * @param maxWait        the longest wait, not negative
 * @param reactive       whether the method returns a Reactor {@code Mono} or {@code Flux} (or a {@code Publisher}
 *                       with Reactor present), whose permits are held from subscription to its end
 * @param estimator      told of each refusal
 * @param holdTimes      how long this semaphore's {@code @Permits} calls held their permits
 */
record PermitsGuard(String where, String semaphoreName, PermitSemaphore semaphore, Expression weightExpression,
        Duration maxWait, boolean reactive, RetryAfterEstimator estimator, RecentMean holdTimes) {

    private static final Log logger = LogFactory.getLog(PermitsGuard.class);

    /**
     * @return the weight for one call: the expression over its arguments, a whole number {@code >= 0}
     * @throws IllegalArgumentException naming the expression and what it gave, when that is not a whole number
     *                                  {@code >= 0}
     */
    long weight(@Nullable Object target, Method method, @Nullable Object[] arguments, ParameterNameDiscoverer names) {
        Object value = weightExpression.getValue(new MethodBasedEvaluationContext(target, method, arguments, names));
        Long whole = (value instanceof Number number) ? wholeNumber(number) : null;
        if (whole == null) {
            throw new IllegalArgumentException(where + ": weight '" + weightExpression.getExpressionString()
                    + "' gave " + value + ", not a whole number of permits" + ((value instanceof Number)
                    ? " that fits in a long" : ""));
        }
        long weight = whole;
        if (weight < 0) {
            throw new IllegalArgumentException(where + ": weight '" + weightExpression.getExpressionString()
                    + "' gave " + weight + "; a weight cannot be negative");
        }
        return weight;
    }

    /**
     * The number as a {@code long} when it is a whole number that a {@code long} holds exactly; {@code null} when it
     * has a fraction, is not finite, or is too large (a {@code BigInteger} is never cut to its low 64 bits).
     */
    private static @Nullable Long wholeNumber(Number number) {
        return switch (number) {
            case Long l -> l;
            case Integer i -> (long) i;
            case Short s -> (long) s;
            case Byte b -> (long) b;
            case AtomicLong a -> a.get();
            case AtomicInteger a -> (long) a.get();
            case LongAdder a -> a.sum();
            case BigInteger big -> (big.bitLength() < Long.SIZE) ? big.longValue() : null;
            case BigDecimal decimal -> {
                try {
                    yield decimal.longValueExact();
                }
                catch (ArithmeticException notWhole) {
                    yield null;
                }
            }
            default -> fromDouble(number.doubleValue()); // Double, Float, and any other kind: whole only if so
        };
    }

    private static @Nullable Long fromDouble(double d) {
        return (d == Math.rint(d) && Math.abs(d) < 0x1p63) ? (long) d : null;
    }

    /**
     * Acquires {@code weight} permits, blocking the calling thread at most {@code maxWait}, as a {@link Permit} of the
     * semaphore's own: closing it (in {@link #release}) gives them back once and tells an adaptive semaphore how long
     * they were held.
     *
     * @return the permit holding them
     * @throws PoolOverloadException when they do not come in time, or the thread is interrupted (its interrupt status
     *                               then set)
     */
    Permit acquire(long weight) {
        Permit permit;
        try {
            permit = semaphore.tryAcquirePermit(weight, maxWait);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw overloaded(weight, "interrupted while waiting");
        }
        catch (IllegalArgumentException shrunk) { // the semaphore shrank below the weight while the call waited
            PoolOverloadException refusal = refused(weight);
            refusal.initCause(shrunk);
            throw refusal;
        }
        if (permit == null) {
            throw refused(weight);
        }
        return permit;
    }

    /**
     * Gives back permits acquired by {@link #acquire(long)} by closing their permit, and records how long they were
     * held. Never throws: a close that fails (a shared store that does not answer; its lease then runs out there) is
     * logged, so that it never replaces the method's own result or exception.
     *
     * @param acquiredAt {@link System#nanoTime()} when they were acquired
     */
    void release(Permit permit, long acquiredAt) {
        holdTimes.record(System.nanoTime() - acquiredAt);
        closeQuietly(permit);
    }

    /** Closes a permit; a close that fails is logged (see {@link #release}), never thrown. */
    void closeQuietly(Permit permit) {
        try {
            permit.close();
        }
        catch (RuntimeException ex) {
            logger.warn(permit.permits() + " permits of semaphore '" + semaphoreName + "' could not be given back ("
                    + where + "); a shared semaphore gets them back when their lease runs out: " + ex, ex);
        }
    }

    /**
     * @return the refusal of permits that did not come within {@code maxWait} (or can never come), reading the size
     *         once to tell which (a failure to read it is kept as a suppressed exception)
     */
    PoolOverloadException refused(long weight) {
        long size = Long.MAX_VALUE; // read once: a round trip for a semaphore shared through Redis
        RuntimeException unreadable = null;
        try {
            size = semaphore.size();
        }
        catch (RuntimeException ex) { // its store does not answer: say only that the permits did not come
            unreadable = ex;
        }
        PoolOverloadException refusal = overloaded(weight, (weight > size)
                ? "more than the semaphore's size of " + size + ", so they can never come"
                : "not granted within " + DurationStyle.SIMPLE.print(maxWait));
        if (unreadable != null) {
            refusal.addSuppressed(unreadable);
        }
        return refusal;
    }

    /**
     * The refusal of a reactive method's permits, made on whatever thread learned of it (an event loop, the
     * semaphore's executor, the JDK's timer), so without a round trip to a shared store: a local semaphore's size is
     * read as {@link #refused(long)} does; for a shared one, {@code tooLarge} (its answer said so) decides.
     *
     * @param weight   the permits asked for
     * @param tooLarge whether the semaphore said the weight is more than its size
     * @return the refusal
     */
    PoolOverloadException refusedWithoutBlocking(long weight, boolean tooLarge) {
        if (!sharedThroughStore()) {
            return refused(weight);
        }
        return overloaded(weight, tooLarge ? "more than the semaphore's size, so they can never come"
                : "not granted within " + DurationStyle.SIMPLE.print(maxWait));
    }

    /** @return whether the semaphore lives in a store shared by instances, so that each read is a round trip */
    boolean sharedThroughStore() {
        return sharedThroughStore(semaphore);
    }

    /** @return whether {@code semaphore} lives in a store shared by instances (its scope is not "local") */
    static boolean sharedThroughStore(PermitSemaphore semaphore) {
        return !"local".equals(semaphore.scope());
    }

    private PoolOverloadException overloaded(long weight, String why) {
        PoolOverloadException overload = new PoolOverloadException(weight + " permits of semaphore '" + semaphoreName
                + "' (maxWait " + DurationStyle.SIMPLE.print(maxWait) + "): " + why + "; " + where);
        estimator.refusedBySemaphore(overload, semaphore, weight);
        return overload;
    }
}
