package io.github.poolkit.internal.pool;

import io.github.poolkit.InvalidOptionException;
import io.github.poolkit.PoolOption;
import io.github.poolkit.PoolOptions;

import java.util.List;
import java.util.Objects;

/**
 * Which options a running pool can change: those its option table marks {@link PoolOption#live() live} (the ones that
 * rule a caller that cannot be served at once, read by each caller as it enters, through {@link WaitRules}). The
 * others shape the pool's threads, queue and plumbing, which are built when it is created, and must stay as they are.
 * The table is an allow-list: a new option is fixed until its entry says it is live and the pool reads it live, so
 * {@code reconfigure} never accepts a change it would not apply.
 */
final class LiveOptions {

    /** The options that change live, in the table's order. */
    static final List<PoolOption<?>> LIVE = PoolOptions.OPTIONS.stream().filter(PoolOption::live).toList();

    private LiveOptions() {
    }

    /**
     * @throws InvalidOptionException naming the first option that differs between {@code current} and {@code changed}
     *                                but cannot change while the pool runs
     */
    static void requireOnlyLiveChanges(PoolOptions current, PoolOptions changed) {
        for (PoolOption<?> option : PoolOptions.OPTIONS) {
            Object now = option.get(current);
            Object wanted = option.get(changed);
            if (!option.live() && !Objects.equals(now, wanted)) {
                throw new InvalidOptionException(option.name(), wanted, "cannot change while the pool runs (it is "
                        + now + ")", "keep " + option.name() + " as it is, or create a new pool with it (a restart);"
                        + " only " + names(LIVE) + " change live");
            }
        }
    }

    /** {@return the options' names, as a sentence lists them: {@code a, b and c}} */
    static String names(List<PoolOption<?>> options) {
        List<String> names = options.stream().map(PoolOption::name).toList();
        int last = names.size() - 1;
        return (last <= 0) ? String.join("", names)
                : String.join(", ", names.subList(0, last)) + " and " + names.get(last);
    }
}
