package io.github.poolkit.internal.pool;

import io.github.poolkit.InvalidOptionException;
import io.github.poolkit.PoolOptions;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Which options a running pool can change: only those that rule a caller that cannot be served at once
 * ({@link #LIVE}: {@code maxWait}, {@code maxBlockingTasks}, {@code nonblocking}, read by each caller as it enters).
 * The others ({@link #FIXED}) shape the pool's threads, queue and plumbing, which are built when it is created, and
 * must stay as they are. Every option of {@link PoolOptions} is in exactly one of the two lists, which
 * {@code LiveOptionsTest} checks against {@code PoolOptions}' accessors, so that an option added later cannot be
 * accepted by {@code reconfigure} without being applied: a new option is fixed until it is listed as live and the
 * pool reads it live.
 */
final class LiveOptions {

    /** An option that is fixed once the pool runs: its name as the builder spells it, and how to read it. */
    record Fixed(String name, Function<PoolOptions, Object> value) {
    }

    /** The options that change live, as the builder spells them. */
    static final List<String> LIVE = List.of("maxWait", "maxBlockingTasks", "nonblocking");

    /** The options fixed at creation, and how to read them. */
    static final Fixed[] FIXED = {
            new Fixed("name", PoolOptions::name),
            new Fixed("queueCapacity", PoolOptions::queueCapacity),
            new Fixed("virtualThreads", PoolOptions::virtualThreads),
            new Fixed("preAlloc", PoolOptions::preAlloc),
            new Fixed("threadFactory", PoolOptions::threadFactory),
            new Fixed("expiry", PoolOptions::expiry),
            new Fixed("disablePurge", PoolOptions::disablePurge),
            new Fixed("panicHandler", PoolOptions::panicHandler),
            new Fixed("listener", PoolOptions::listener),
            new Fixed("taskDecorator", PoolOptions::taskDecorator),
            new Fixed("adaptiveCapacity", PoolOptions::adaptiveCapacity),
            new Fixed("runTimeout", PoolOptions::runTimeout),
            new Fixed("queueTimeout", PoolOptions::queueTimeout),
            new Fixed("interruptOverdue", PoolOptions::interruptOverdue),
    };

    private LiveOptions() {
    }

    /**
     * @throws InvalidOptionException naming the first option that differs between {@code current} and {@code changed}
     *                                but cannot change while the pool runs
     */
    static void requireOnlyLiveChanges(PoolOptions current, PoolOptions changed) {
        for (Fixed f : FIXED) {
            Object now = f.value().apply(current);
            Object wanted = f.value().apply(changed);
            if (!Objects.equals(now, wanted)) {
                throw new InvalidOptionException(f.name(), wanted, "cannot change while the pool runs (it is "
                        + now + ")", "keep " + f.name() + " as it is, or create a new pool with it (a restart);"
                        + " only maxWait, maxBlockingTasks and nonblocking change live");
            }
        }
    }
}
