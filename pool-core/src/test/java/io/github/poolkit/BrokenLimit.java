package io.github.poolkit;

/** An application's {@link AdaptiveLimit} with a bug: a fixed limit, and every sample throws an {@code Error}. */
final class BrokenLimit implements AdaptiveLimit {

    private final int limit;

    BrokenLimit(int limit) {
        this.limit = limit;
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public void onSample(long rttNanos, int inFlight, boolean dropped) {
        throw new AssertionError("a bug in the application's limit");
    }
}
