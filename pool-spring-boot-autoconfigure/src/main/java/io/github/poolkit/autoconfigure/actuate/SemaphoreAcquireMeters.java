package io.github.poolkit.autoconfigure.actuate;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.github.poolkit.SemaphoreListener;

/**
 * Times one semaphore's requests, fed by the {@link SemaphoreListener} the semaphore got at creation: the timer
 * {@code poolkit.semaphore.acquire} (time waited), tagged {@code name} = the bean name and {@code outcome} =
 * {@code acquired}, {@code timeout}, {@code interrupted}, {@code cancelled} or {@code rejected}. Every series is
 * registered up front, at zero.
 */
final class SemaphoreAcquireMeters implements SemaphoreListener {

    private final Map<AcquireOutcome, Timer> timers = new EnumMap<>(AcquireOutcome.class);

    SemaphoreAcquireMeters(MeterRegistry registry, String semaphoreName) {
        for (AcquireOutcome outcome : AcquireOutcome.values()) {
            timers.put(outcome, Timer.builder("poolkit.semaphore.acquire")
                    .description("Time requests waited for permits, by how they ended")
                    .tag("name", semaphoreName)
                    .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                    .register(registry));
        }
    }

    @Override
    public void requestSettled(long permits, long waitedNanos, AcquireOutcome outcome) {
        timers.get(outcome).record(waitedNanos, TimeUnit.NANOSECONDS);
    }
}
