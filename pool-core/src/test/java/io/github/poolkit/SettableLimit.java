package io.github.poolkit;

import java.util.ArrayList;
import java.util.List;

/** An {@link AdaptiveLimit} whose limit the test sets, and which records every sample it is fed. */
final class SettableLimit implements AdaptiveLimit {

    /** One sample as the pool or semaphore reported it. */
    record Sample(long rttNanos, int inFlight, boolean dropped) {
    }

    private final List<Sample> samples = new ArrayList<>();
    private volatile int limit;

    SettableLimit(int limit) {
        this.limit = limit;
    }

    void set(int limit) {
        this.limit = limit;
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public synchronized void onSample(long rttNanos, int inFlight, boolean dropped) {
        samples.add(new Sample(rttNanos, inFlight, dropped));
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }
}
