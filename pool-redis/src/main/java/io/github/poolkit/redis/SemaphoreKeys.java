package io.github.poolkit.redis;

import java.util.regex.Pattern;

/**
 * The Redis keys of one cluster semaphore. All of them carry the semaphore's name as a hash tag ({@code {name}}), so
 * they live in one hash slot and one Lua script may touch them all, on Redis Cluster too.
 *
 * @param name the semaphore's name
 */
record SemaphoreKeys(String name) {

    private static final Pattern VALID = Pattern.compile("[^{}\\s]+");

    SemaphoreKeys {
        if (name == null || !VALID.matcher(name).matches()) {
            throw new IllegalArgumentException("Invalid cluster semaphore name '" + name
                    + "': use a non-empty name without spaces or braces, for example 'gpu-memory'");
        }
    }

    /** @return the keys in the order the script expects them (see semaphore.lua) */
    String[] scriptKeys() {
        String prefix = prefix();
        return new String[] {prefix + "meta", prefix + "queue", prefix + "waiters", prefix + "waiter-expiry"};
    }

    /**
     * @param operation the id of one release operation
     * @return the keys for that operation: those of {@link #scriptKeys()}, then the key of its record (see
     *         "Operation ids" in semaphore.lua), which carries the same hash tag
     */
    String[] scriptKeys(String operation) {
        String[] keys = scriptKeys();
        String[] withRecord = java.util.Arrays.copyOf(keys, keys.length + 1);
        withRecord[keys.length] = prefix() + "op:" + operation;
        return withRecord;
    }

    /**
     * @return the prefix of the pub/sub channel on which one instance hears of its grants (append its id);
     *         {@code semaphore.lua} derives the same prefix from the {@code meta} key, so the two change together
     */
    String grantChannelPrefix() {
        return prefix() + "grants:";
    }

    private String prefix() {
        return "poolkit:semaphore:{" + name + "}:";
    }
}
