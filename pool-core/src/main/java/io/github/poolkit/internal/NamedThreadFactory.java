package io.github.poolkit.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Makes threads named {@code <name>-<n>}, n counting from 1: a pool's workers, or poolkit's own daemon threads. */
public final class NamedThreadFactory implements ThreadFactory {

    /** What kind of thread to make. */
    private enum Kind { PLATFORM, DAEMON }

    private final String prefix;
    private final Kind kind;
    private final AtomicInteger next = new AtomicInteger(1);

    private NamedThreadFactory(String name, Kind kind) {
        this.prefix = name + "-";
        this.kind = kind;
    }

    /** {@return a factory of non-daemon platform threads named {@code <name>-<n>} (a pool's default workers)} */
    public static NamedThreadFactory platform(String name) {
        return new NamedThreadFactory(name, Kind.PLATFORM);
    }

    /** {@return a factory of daemon platform threads named {@code <name>-<n>} (poolkit's housekeeping threads)} */
    public static NamedThreadFactory daemon(String name) {
        return new NamedThreadFactory(name, Kind.DAEMON);
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, prefix + next.getAndIncrement());
        t.setDaemon(kind == Kind.DAEMON);
        return t;
    }
}
