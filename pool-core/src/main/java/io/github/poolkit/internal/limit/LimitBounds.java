package io.github.poolkit.internal.limit;

/** The bounds of an adaptive limit, checked once. */
record LimitBounds(int min, int max) {

    LimitBounds {
        if (min < 1) {
            throw new IllegalArgumentException("the adaptive limit's min must be >= 1, got " + min
                    + "; give the smallest concurrency that must always be allowed (1 or more)");
        }
        if (max < min) {
            throw new IllegalArgumentException("the adaptive limit's max must be >= min (" + min + "), got " + max
                    + "; give a max at least as large as min");
        }
    }

    /** {@return {@code value} moved into [min, max]} */
    double clamp(double value) {
        return Math.max(min, Math.min(max, value));
    }
}
